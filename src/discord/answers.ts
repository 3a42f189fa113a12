import {
	MessageFlags,
	RateLimitError,
	type ActionRowBuilder,
	type APIActionRowComponent,
	type APIButtonComponentWithCustomId,
	type AttachmentBuilder,
	type ButtonBuilder,
	type RepliableInteraction,
} from 'discord.js';
import type { Logger } from '../logging/logger.js';

/** What a refusal says: its sentence, and the button it may carry (the link-first one). */
export interface Refusal {
	readonly content: string;
	readonly components?: ActionRowBuilder<ButtonBuilder>[];
}

/** An answer in a deferral's place: text, a row of buttons at most, and a file (a long answer's reply.md). */
export interface InPlace {
	readonly content: string;
	readonly components?: APIActionRowComponent<APIButtonComponentWithCustomId>[];
	readonly files?: AttachmentBuilder[];
}

/**
 * Puts an answer in the deferral's place. When Discord holds the edit route longer than Veil waits (a long rate
 * limit, see rateLimits.ts), the answer goes by the follow-up route, which Discord limits apart: the member gets
 * the answer itself rather than an apology for it.
 */
export async function answerInPlace(interaction: RepliableInteraction, message: InPlace, ephemeral: boolean, log: Logger): Promise<void> {
	try {
		await interaction.editReply(message);
	} catch (error) {
		if (!(error instanceof RateLimitError)) throw error;
		log.warn({ retryAfterMs: error.retryAfter }, 'the edit route is rate limited: the answer goes as a follow-up');
		await interaction.followUp({ ...message, flags: ephemeral ? MessageFlags.Ephemeral : undefined });
	}
}

/**
 * Answers in a landed deferral's place, to the member alone: a public "thinking…" must not turn into a public
 * refusal. Once edited it is an ordinary message, which can go, and the follow-up after it then keeps its own
 * (ephemeral) flag instead of the deferral's.
 */
export async function answerAlone(interaction: RepliableInteraction, ephemeral: boolean, refusal: Refusal): Promise<void> {
	const { content, components = [] } = refusal;
	if (ephemeral) {
		await interaction.editReply({ content, components });
		return;
	}
	await interaction.editReply({ content: '…' });
	await interaction.deleteReply();
	await interaction.followUp({ content, components, flags: MessageFlags.Ephemeral });
}
