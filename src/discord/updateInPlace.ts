import type { ModalMessageModalSubmitInteraction, RepliableInteraction } from 'discord.js';

/** Forms whose answer was deferred as an update of the message they came from. */
const formsUpdatingInPlace = new WeakSet<RepliableInteraction>();

/**
 * Defers a form's answer as an update of the message it was opened from (a moderator's view), which its outcome then
 * edits. Should it fail, the router's answer goes as a message of its own and leaves that message as it was.
 */
export async function deferFormUpdate(interaction: ModalMessageModalSubmitInteraction): Promise<void> {
	await interaction.deferUpdate();
	formsUpdatingInPlace.add(interaction);
}

/** Whether the interaction's answer updates a message in place: a component's, or a form's deferred so. */
export function updatesInPlace(interaction: RepliableInteraction): boolean {
	return interaction.isMessageComponent() || formsUpdatingInPlace.has(interaction);
}
