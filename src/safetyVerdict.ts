import { escapeMarkdown } from 'discord.js';
import { candidateText, HARM_CATEGORIES, type GenerationResponse, type SafetyRating } from './generationResponse.js';

/** Which list a rating came from: `promptFeedback.safetyRatings` or `candidates[0].safetyRatings`. */
export type RatingSource = 'prompt' | 'reply';

/** One rating as the upstream gave it, kept for the moderators and for the hidden-reply answer. */
export type RatingLine = { source: RatingSource; category: string; probability: string; blocked: boolean };

/**
 * Every reason a reply can be hidden, in the order a verdict lists them. A verdict names each reason once, however
 * many ratings caused it, so the list does not depend on the order the upstream sent the ratings in.
 */
export const HIDE_REASONS = [
	'no-candidate',
	'prompt-ratings-missing',
	'reply-ratings-missing',
	'category-missing',
	'category-duplicated',
	'unknown-category',
	'not-negligible',
	'blocked',
	'block-reason',
	'finish-reason',
] as const;

export type HideReason = (typeof HIDE_REASONS)[number];

/** What to do with a reply: show its text, or hide it and say why. */
export type Verdict =
	| { kind: 'shown'; text: string; cutShort: boolean }
	| {
			kind: 'hidden';
			reasons: HideReason[];
			ratings: RatingLine[];
			finishReason: string | undefined;
			blockReason: string | undefined;
	  };

const SAFE_PROBABILITY = 'NEGLIGIBLE';
const SHOWN_FINISH_REASONS: ReadonlySet<string> = new Set(['STOP', 'MAX_TOKENS']);
const KNOWN_CATEGORIES: ReadonlySet<string> = new Set(HARM_CATEGORIES);

/**
 * Decides whether a generated reply may be shown. Fail closed: the reply is shown only when both rating lists name
 * each of the four harm categories exactly once, all at exactly `NEGLIGIBLE` and none blocked, there is no
 * `promptFeedback.blockReason` (an empty string counts as present: the upstream said something, and we cannot
 * tell what), and the first candidate finished with `STOP` or `MAX_TOKENS` (the latter marks it cut short).
 * Anything else, including a value this code has never seen, hides it.
 *
 * A shown reply may have empty text; the caller decides how to say the model answered nothing.
 */
export function judgeResponse(response: GenerationResponse): Verdict {
	const candidate = response.candidates?.[0];
	const promptRatings = response.promptFeedback?.safetyRatings;
	const replyRatings = candidate?.safetyRatings;
	const blockReason = response.promptFeedback?.blockReason;
	const finishReason = candidate?.finishReason;

	const reasons = new Set<HideReason>();
	if (candidate === undefined) {
		reasons.add('no-candidate');
	} else {
		if (replyRatings === undefined) reasons.add('reply-ratings-missing');
		else checkRatings(replyRatings, reasons);
		if (finishReason === undefined || !SHOWN_FINISH_REASONS.has(finishReason)) reasons.add('finish-reason');
	}
	if (promptRatings === undefined) reasons.add('prompt-ratings-missing');
	else checkRatings(promptRatings, reasons);
	if (blockReason !== undefined) reasons.add('block-reason');

	if (reasons.size === 0) {
		return { kind: 'shown', text: candidateText(response), cutShort: finishReason === 'MAX_TOKENS' };
	}
	return {
		kind: 'hidden',
		reasons: HIDE_REASONS.filter((reason) => reasons.has(reason)),
		ratings: [...toLines('prompt', promptRatings), ...toLines('reply', replyRatings)],
		finishReason,
		blockReason,
	};
}

function checkRatings(ratings: readonly SafetyRating[], reasons: Set<HideReason>): void {
	const seen = new Map<string, number>();
	for (const rating of ratings) {
		seen.set(rating.category, (seen.get(rating.category) ?? 0) + 1);
		if (!KNOWN_CATEGORIES.has(rating.category)) reasons.add('unknown-category');
		if (rating.probability !== SAFE_PROBABILITY) reasons.add('not-negligible');
		if (rating.blocked === true) reasons.add('blocked');
	}
	for (const category of HARM_CATEGORIES) {
		const count = seen.get(category) ?? 0;
		if (count === 0) reasons.add('category-missing');
		if (count > 1) reasons.add('category-duplicated');
	}
}

function toLines(source: RatingSource, ratings: readonly SafetyRating[] | undefined): RatingLine[] {
	return (ratings ?? []).map((rating) => ({
		source,
		category: rating.category,
		probability: rating.probability,
		blocked: rating.blocked === true,
	}));
}

const CATEGORY_LABELS: Readonly<Record<string, string>> = {
	HARM_CATEGORY_HARASSMENT: 'Harassment',
	HARM_CATEGORY_SEXUALLY_EXPLICIT: 'Sexually explicit',
	HARM_CATEGORY_HATE_SPEECH: 'Hate speech',
	HARM_CATEGORY_DANGEROUS_CONTENT: 'Dangerous content',
};

// Upstream strings end up in a Discord message with its own length limit; an unknown one is shown, but not all of it.
const MAX_VERBATIM = 64;

/** An upstream string shown as it came, shortened, with Discord markdown escaped so it cannot format or link. */
export function upstreamLabel(value: string): string {
	if (value === '') return '(empty)';
	const codePoints = Array.from(value);
	return escapeMarkdown(codePoints.length > MAX_VERBATIM ? `${codePoints.slice(0, MAX_VERBATIM - 1).join('')}…` : value);
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

/** The reasons beside the ratings, as moderators read them: a block reason, a finish other than STOP or MAX_TOKENS. */
export function describeStopReasons(flag: { blockReason?: string | undefined; finishReason?: string | undefined }): string[] {
	const { blockReason, finishReason } = flag;
	return [
		...(blockReason === undefined ? [] : [`Prompt blocked: ${upstreamLabel(blockReason)}`]),
		...(finishReason !== undefined && SHOWN_FINISH_REASONS.has(finishReason)
			? []
			: [`Finish reason: ${finishReason === undefined ? '(none)' : upstreamLabel(finishReason)}`]),
	];
}
