import { VeilError } from '../errors/veilError.js';
import { askOutcomeOf, type AskOutcome } from '../operations/metrics.js';

/** Why an answer was held, as /usage server counts it: the model's ratings, a server's AutoMod, anything else. */
export const HELD_REASONS = ['ratings', 'automod', 'other'] as const;
export type HeldReason = (typeof HELD_REASONS)[number];

/** Why an ask was turned away: a limit (daily, pace, one at a time), a full line, no link, a file, anything else. */
export const REFUSED_REASONS = ['limits', 'busy', 'link', 'files', 'other'] as const;
export type RefusedReason = (typeof REFUSED_REASONS)[number];

/** How an ask ended, as its server's usage counts it: each ask ends in exactly one. */
export type UsageOutcome = 'shown' | `held:${HeldReason}` | `refused:${RefusedReason}` | 'failed';

export const USAGE_OUTCOMES: readonly UsageOutcome[] = [
	'shown',
	...HELD_REASONS.map((reason) => `held:${reason}` as const),
	...REFUSED_REASONS.map((reason) => `refused:${reason}` as const),
	'failed',
];

const KNOWN = new Set<string>(USAGE_OUTCOMES);

export function isUsageOutcome(text: string): text is UsageOutcome {
	return KNOWN.has(text);
}

/**
 * One reason per held answer, so the reasons add up to the held: a server's rule (or Discord's AutoMod) first, then
 * a rating that was not negligible or blocked, else another reason (missing ratings, an unusual finish).
 */
export function heldReasonOf(hideReasons: readonly string[]): HeldReason {
	if (hideReasons.includes('automod')) return 'automod';
	if (hideReasons.some((reason) => reason === 'not-negligible' || reason === 'blocked' || reason === 'block-reason')) return 'ratings';
	return 'other';
}

/** The outcome of an ask that ended with this error: a refusal by its kind, or a failure. */
export function usageOutcomeOfError(error: unknown): UsageOutcome {
	switch (askOutcomeOf(error)) {
		case 'limited':
			return 'refused:limits';
		case 'busy':
			return 'refused:busy';
		case 'refused':
			return error instanceof VeilError && error.code.startsWith('file') ? 'refused:files' : 'refused:other';
		// Cancelled by its asker: not answered, like an error (the operators' metrics tell the two apart).
		case 'cancelled':
		case 'shown':
		case 'hidden':
		case 'error':
			return 'failed';
	}
}

/** The operators' outcome of an ask that ended this way (`veil_asks_total{outcome}`). */
export function askOutcomeOfUsage(outcome: UsageOutcome): AskOutcome {
	if (outcome === 'shown') return 'shown';
	if (outcome === 'failed') return 'error';
	if (outcome.startsWith('held:')) return 'hidden';
	if (outcome === 'refused:limits') return 'limited';
	if (outcome === 'refused:busy') return 'busy';
	return 'refused';
}
