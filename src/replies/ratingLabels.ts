import { escapeMarkdown } from 'discord.js';
import { SAFE_PROBABILITY, SHOWN_FINISH_REASONS, type RatingLine } from '../generation/safetyVerdict.js';
import { messages } from '../answers/messages.js';
import type { FlagRecord } from '../moderation/storedFlag.js';

const CATEGORY_LABELS = messages.ratings.categories;

// The service's enum values are upper-case words joined by underscores. Anything else could carry a masked link
// (`[text](url)`, which markdown escaping leaves clickable) or a mention into a public notice, so it is not shown.
const ENUM_VALUE = /^[A-Z0-9_]{1,64}$/;

/** An upstream enum value shown as it came (underscores escaped so they don't italicise), or `(unrecognised)`. */
export function upstreamLabel(value: string): string {
	if (value === '') return messages.ratings.empty;
	return ENUM_VALUE.test(value) ? escapeMarkdown(value) : messages.ratings.unrecognised;
}

/** A harm category as a member reads it (`HARM_CATEGORY_HATE_SPEECH` → `Hate speech`); an unknown name kept as sent. */
export function categoryLabel(category: string): string {
	return Object.hasOwn(CATEGORY_LABELS, category) ? (CATEGORY_LABELS[category] as string) : upstreamLabel(category);
}

/** Short labels such as `Harassment: MEDIUM (reply)` or `Hate speech: NEGLIGIBLE, blocked (prompt)`, one per line. */
export function describeRatings(ratings: readonly RatingLine[]): string[] {
	return ratings.map(
		(line) =>
			`${categoryLabel(line.category)}: ${upstreamLabel(line.probability)}${line.blocked ? ', blocked' : ''} (${line.source})`,
	);
}

/** The lines that stopped the reply: any probability other than exactly `NEGLIGIBLE`, or blocked. */
export function flaggedRatings(ratings: readonly RatingLine[]): RatingLine[] {
	return ratings.filter((line) => line.probability !== SAFE_PROBABILITY || line.blocked);
}

/**
 * The reasons beside the ratings, as moderators read them: the server's AutoMod rule that held it, a block reason, a
 * finish other than STOP or MAX_TOKENS.
 */
export function describeStopReasons(flag: {
	blockReason?: string | undefined;
	finishReason?: string | undefined;
	automod?: { ruleName: string; keyword: string } | undefined;
}): string[] {
	const { blockReason, finishReason, automod } = flag;
	return [
		...(automod === undefined ? [] : [messages.automodModeration.flagReason(escapeMarkdown(automod.ruleName), inlineKeyword(automod.keyword))]),
		...(blockReason === undefined ? [] : [messages.ratings.promptBlocked(upstreamLabel(blockReason))]),
		...(finishReason !== undefined && SHOWN_FINISH_REASONS.has(finishReason)
			? []
			: [messages.ratings.finishReason(finishReason === undefined ? undefined : upstreamLabel(finishReason))]),
	];
}

/** Where a flag was asked, for moderators: its channel, or for one from outside Veil's servers, the kind of place. */
export function flagPlace(flag: Pick<FlagRecord, 'channelId' | 'outside'>): string {
	return flag.outside ? messages.moderation.outsidePlace[flag.outside] : `<#${flag.channelId}>`;
}

/** A keyword or pattern as inline code, whatever backticks it holds. */
export function inlineKeyword(keyword: string): string {
	const plain = keyword.replaceAll('`', 'ˋ');
	return `\`${plain}\``;
}
