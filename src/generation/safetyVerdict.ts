import { candidateText, HARM_CATEGORIES, type GenerationResponse, type SafetyRating } from './generationResponse.js';

/** Which list a rating came from: `promptFeedback.safetyRatings` or `candidates[0].safetyRatings`. */
type RatingSource = 'prompt' | 'reply';

/** One rating as the upstream gave it, kept for the moderators and for the hidden-reply answer. */
export type RatingLine = { source: RatingSource; category: string; probability: string; blocked: boolean };

/**
 * Every reason a reply can be hidden, in the order a verdict lists them. A verdict names each reason once, however
 * many ratings caused it, so the list does not depend on the order the upstream sent the ratings in.
 */
const HIDE_REASONS = [
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
	'automod',
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
			/** With the reason `automod`: the server's rule that held a reply the ratings cleared. */
			rule?: RuleHold;
	  };

/** Which of a server's AutoMod rules held a reply, and the keyword or pattern that matched (for moderators only). */
export interface RuleHold {
	readonly ruleId: string;
	readonly ruleName: string;
	readonly keyword: string;
}

/** The keyword a hold names when the rule was too costly to read the answer against: there was no match to name. */
export const TOO_COSTLY_KEYWORD = '';

export const SAFE_PROBABILITY = 'NEGLIGIBLE';
export const SHOWN_FINISH_REASONS: ReadonlySet<string> = new Set(['STOP', 'MAX_TOKENS']);
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

/** The verdict on a reply the ratings cleared but a server's AutoMod rule holds: hidden, with the ratings as given. */
export function holdByRule(response: GenerationResponse, rule: RuleHold): Extract<Verdict, { kind: 'hidden' }> {
	return {
		kind: 'hidden',
		reasons: ['automod'],
		ratings: [...toLines('prompt', response.promptFeedback?.safetyRatings), ...toLines('reply', response.candidates?.[0]?.safetyRatings)],
		finishReason: response.candidates?.[0]?.finishReason,
		blockReason: response.promptFeedback?.blockReason,
		rule,
	};
}
