import { AttachmentBuilder } from 'discord.js';
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
