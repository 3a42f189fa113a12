import { MessageFlags, type ActionRowBuilder, type ButtonBuilder, type RepliableInteraction } from 'discord.js';
import { NO_MENTIONS } from './mentions.js';

/** What a refusal says: its sentence, and the button it may carry (the link-first one). */
export interface Refusal {
	readonly content: string;
	readonly components?: ActionRowBuilder<ButtonBuilder>[];
}

/**
 * Answers a refusal in a landed deferral's place, to the member alone: a public "thinking…" must not turn into a
 * public refusal. Once edited it is an ordinary message, which can go, and the follow-up after it then keeps its own
 * (ephemeral) flag instead of the deferral's.
 */
export async function refuseAlone(interaction: RepliableInteraction, ephemeral: boolean, refusal: Refusal): Promise<void> {
	const { content, components = [] } = refusal;
	if (ephemeral) {
		await interaction.editReply({ content, components, allowedMentions: NO_MENTIONS });
		return;
	}
	await interaction.editReply({ content: '…', allowedMentions: NO_MENTIONS });
	await interaction.deleteReply();
	await interaction.followUp({ content, components, flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS });
}
