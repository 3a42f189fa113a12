import { AttachmentBuilder, type MessageMentionOptions } from 'discord.js';
import { describeRatings, flaggedRatings, upstreamLabel, type HideReason, type Verdict } from './safetyVerdict.js';
import { MESSAGE_LIMIT, splitReply } from './splitReply.js';

/** Model text never pings anyone: every message Veil sends carries this. */
export const NO_MENTIONS: MessageMentionOptions = Object.freeze({ parse: [] }) as MessageMentionOptions;

/** Past this many messages' worth, the answer goes as one message plus the whole text as a file. */
export const MAX_MESSAGES = 4;
export const ATTACHMENT_NAME = 'reply.md';

const CUT_SHORT_NOTE = '\n-# ✂️ Cut short: the model reached its length limit.';
const ATTACHED_NOTE = `\n-# The whole answer is attached as ${ATTACHMENT_NAME}.`;
const EMPTY_ANSWER = 'The model returned an empty answer. Try rephrasing your prompt.';

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

const REASON_TEXT: Partial<Record<HideReason, (verdict: HiddenVerdict) => string>> = {
	'no-candidate': () => 'the model returned no answer',
	'prompt-ratings-missing': () => 'the safety ratings of the prompt were missing',
	'reply-ratings-missing': () => 'the safety ratings of the answer were missing',
	'category-missing': () => 'a safety category was not rated',
	'category-duplicated': () => 'a safety category was rated twice',
	'unknown-category': () => 'an unrecognised safety category was rated',
	'block-reason': (verdict) => `the service blocked the prompt (${upstreamLabel(verdict.blockReason ?? '')})`,
	'finish-reason': (verdict) => `the model stopped early (${verdict.finishReason === undefined ? 'no reason given' : upstreamLabel(verdict.finishReason)})`,
};

type HiddenVerdict = Extract<Verdict, { kind: 'hidden' }>;

/** Why a reply was hidden, in a member's words: the flagged ratings by category and probability, then other reasons. */
export function hiddenReasons(verdict: HiddenVerdict): string[] {
	const ratings = describeRatings(flaggedRatings(verdict.ratings));
	const others = verdict.reasons.flatMap((reason) => REASON_TEXT[reason]?.(verdict) ?? []);
	return [...ratings, ...others];
}

/** The member's answer when the reply is hidden: why, by category and probability, never the text. */
export function hiddenNotice(verdict: HiddenVerdict, flagId: string | undefined): OutgoingMessage {
	const lines = [
		"🛡️ **This answer was hidden.** The model's safety checks did not clear it, so Veil kept it back" +
			(flagId ? " for this server's moderators to review." : '.'),
		`**Why:** ${hiddenReasons(verdict).join(' · ')}`,
	];
	if (flagId) lines.push(`-# Reference for moderators: \`${flagId}\``);
	return { content: truncate(lines.join('\n'), MESSAGE_LIMIT), allowedMentions: NO_MENTIONS };
}

/** Shortens `text` to `limit` characters with an ellipsis, never splitting a surrogate pair. */
export function truncate(text: string, limit: number): string {
	if (text.length <= limit) return text;
	let cut = limit - 1;
	const code = text.charCodeAt(cut - 1);
	if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
	return `${text.slice(0, cut)}…`;
}
