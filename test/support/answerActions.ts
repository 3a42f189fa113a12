import type { APIUser } from 'discord.js';
import type { EmulatorMessage, InteractionState } from '../../sandbox/discord/emulator.js';
import type { Harness } from './harness.js';
import { answerMessages, buttonsOf, settled } from './conversations.js';

// Shared steps of the answer actions' end-to-end tests: the buttons on a shown answer, pressed as a member.

/** The custom_id on `message` that starts with `prefix` (`ask:regen:`, `ask:version:`…); throws when there is none. */
export function buttonId(message: EmulatorMessage | undefined, prefix: string, which: 'first' | 'last' = 'first'): string {
	const ids = buttonsOf(message).filter((customId) => customId.startsWith(prefix));
	const id = which === 'first' ? ids[0] : ids.at(-1);
	if (!id) throw new Error(`no ${prefix} button: ${JSON.stringify(message?.components)}`);
	return id;
}

/** The message carrying an answer's buttons: its last. */
export function buttonMessage(state: InteractionState): EmulatorMessage {
	const message = answerMessages(state).at(-1);
	if (!message) throw new Error('the answer has no message');
	return message;
}

/** The message as the local Discord holds it now (after edits by later presses). */
export function current(harness: Harness, message: EmulatorMessage): EmulatorMessage {
	const now = harness.discord.message(message.id);
	if (!now) throw new Error(`message ${message.id} is gone`);
	return now;
}

/** Presses the button `customId` on `message` as `user` and waits until the bot has finished with the press. */
export function press(harness: Harness, message: EmulatorMessage, customId: string, user: APIUser): Promise<InteractionState> {
	return settled(harness, harness.discord.button({ customId, message: current(harness, message), user }));
}

/** Whether a button is disabled on the message. */
export function disabled(message: EmulatorMessage, customId: string): boolean {
	for (const row of (message.components ?? []) as Array<{ components?: Array<{ custom_id?: string; disabled?: boolean }> }>) {
		for (const component of row.components ?? []) if (component.custom_id === customId) return component.disabled === true;
	}
	throw new Error(`no button ${customId}`);
}

/** The label of the button where ◀ ▶ stand (`2/3`), or undefined when the message shows one version. */
export function versionsAt(message: EmulatorMessage): string | undefined {
	for (const row of (message.components ?? []) as Array<{ components?: Array<{ custom_id?: string; label?: string }> }>) {
		for (const component of row.components ?? []) if (component.custom_id?.startsWith('ask:versions:')) return component.label;
	}
	return undefined;
}
