import { AttachmentBuilder, type MessageMentionOptions } from 'discord.js';
import { NO_MENTIONS } from '../discord/mentions.js';
import { MESSAGE_LIMIT, splitReply } from './splitReply.js';
import { SOURCE_LOCALE } from '../i18n/locales.js';
import { t } from '../i18n/translate.js';

/** Past this many messages' worth, the answer goes as one message plus the whole text as a file. */
const MAX_MESSAGES = 4;
export const ATTACHMENT_NAME = 'reply.md';

const CUT_SHORT_NOTE = `\n-# ${t(SOURCE_LOCALE, 'members.ask.cutShort')}`;
const ATTACHED_NOTE = `\n-# ${t(SOURCE_LOCALE, 'members.ask.attached', { fileName: ATTACHMENT_NAME })}`;
const EMPTY_ANSWER = t(SOURCE_LOCALE, 'members.ask.emptyAnswer');

export interface OutgoingMessage {
	content: string;
	files?: AttachmentBuilder[];
	allowedMentions: MessageMentionOptions;
}

/**
 * The messages of a shown answer, in order: split at paragraph, line or word boundaries within Discord's 2000
 * characters, or, past four messages, the first part plus the whole text as `reply.md`. `header` (for example a
 * moderator's release line) opens the first message.
 */
export function answerMessages(text: string, cutShort: boolean, header = ''): OutgoingMessage[] {
	const prefix = header ? `${header}\n` : '';
	const suffix = cutShort ? CUT_SHORT_NOTE : '';
	if (text.trim() === '') return [{ content: `${prefix}${EMPTY_ANSWER}${suffix}`, allowedMentions: NO_MENTIONS }];

	const chunks = splitReply(text, MESSAGE_LIMIT - prefix.length - suffix.length);
	if (chunks.length > MAX_MESSAGES) {
		const [first = ''] = splitReply(text, MESSAGE_LIMIT - prefix.length - suffix.length - ATTACHED_NOTE.length);
		return [
			{
				content: `${prefix}${first}${suffix}${ATTACHED_NOTE}`,
				files: [new AttachmentBuilder(Buffer.from(text, 'utf8'), { name: ATTACHMENT_NAME })],
				allowedMentions: NO_MENTIONS,
			},
		];
	}
	return chunks.map((chunk, index) => ({
		content: `${index === 0 ? prefix : ''}${chunk}${index === chunks.length - 1 ? suffix : ''}`,
		allowedMentions: NO_MENTIONS,
	}));
}
