import {
	AttachmentBuilder,
	MessageFlags,
	RateLimitError,
	type ActionRowBuilder,
	type APIActionRowComponent,
	type APIButtonComponentWithCustomId,
	type ButtonBuilder,
	type RepliableInteraction,
} from 'discord.js';
import type { Logger } from '../logging/logger.js';
import { MESSAGE_LIMIT, splitReply } from './splitReply.js';
import type { SupportedLocale } from '../i18n/locales.js';
import { t } from '../i18n/translate.js';

/** Past this many messages' worth, the answer goes as one message plus the whole text as a file. */
const MAX_MESSAGES = 4;
export const ATTACHMENT_NAME = 'reply.md';

/** One message of an answer; it pings no one by the client's default (see app/bot.ts). */
export interface OutgoingMessage {
	content: string;
	files?: AttachmentBuilder[];
}

/**
 * The messages of a shown answer, in order: split at paragraph, line or word boundaries within Discord's 2000
 * characters, or, past four messages, the first part plus the whole text as `reply.md`. `header` (for example a
 * moderator's release line) opens the first message. Veil's own lines (cut short, attached) are in `locale`; the
 * model's text is never translated.
 */
export function answerMessages(text: string, cutShort: boolean, locale: SupportedLocale, header = '', maxMessages = MAX_MESSAGES): OutgoingMessage[] {
	const prefix = header ? `${header}\n` : '';
	const suffix = cutShort ? `\n-# ${t(locale, 'members.ask.cutShort')}` : '';
	if (text.trim() === '') return [{ content: `${prefix}${t(locale, 'members.ask.emptyAnswer')}${suffix}` }];

	const chunks = splitReply(text, MESSAGE_LIMIT - prefix.length - suffix.length);
	if (chunks.length > maxMessages) {
		const attachedNote = `\n-# ${t(locale, 'members.ask.attached', { fileName: ATTACHMENT_NAME })}`;
		const [first = ''] = splitReply(text, MESSAGE_LIMIT - prefix.length - suffix.length - attachedNote.length);
		return [
			{
				content: `${prefix}${first}${suffix}${attachedNote}`,
				files: [new AttachmentBuilder(Buffer.from(text, 'utf8'), { name: ATTACHMENT_NAME })],
			},
		];
	}
	return chunks.map((chunk, index) => ({
		content: `${index === 0 ? prefix : ''}${chunk}${index === chunks.length - 1 ? suffix : ''}`,
	}));
}

/**
 * A version of an answer as one message, for the message that carries its buttons (Regenerate, ◀ ▶): the whole text
 * when it fits, else its beginning with the whole text attached as `reply.md`, as a very long answer goes.
 */
export function oneAnswerMessage(text: string, cutShort: boolean, locale: SupportedLocale): OutgoingMessage {
	const [message] = answerMessages(text, cutShort, locale, '', 1);
	return message ?? { content: t(locale, 'members.ask.emptyAnswer') };
}

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
