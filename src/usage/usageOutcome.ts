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

/** One ask as its usage counts it. */
export interface AskTally {
	/** The server that installed Veil; null outside Veil's servers (only the member's own count is kept). */
	readonly guildId: string | null;
	readonly channelId: string | null;
	readonly memberId: string;
	readonly outcome: UsageOutcome;
	/** Whether it counts in the member's asks of the day: it got as far as the daily limit and was not refused by it. */
	readonly countsForMember: boolean;
	readonly at: number;
}

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

/**
 * How far an ask got, as its usage needs it: `countsForMember` turns true once the daily limit let it through (or a
 * store that failed let it through without the limit). A refusal before that (the link, pace, a full line, the limit
 * itself) is counted in the server's usage but is not one of the member's asks of the day.
 */
export interface AskProgress {
	countsForMember: boolean;
}

/** How an ask ended: as its usage counts it, cancelled by its asker, or with an error it threw. */
export type AskEnding = UsageOutcome | 'cancelled' | { readonly error: unknown };

/** Where an ask was made and by whom: a server that added Veil (null outside), its channel, the member. */
export interface AskWhere {
	readonly guildId: string | null;
	readonly channelId: string | null;
	readonly memberId: string;
}

/**
 * Counts one ask once, by how it ended, in the operators' metrics (`veil_asks_total`) and in its usage (/usage, the
 * member's; /usage server, the server's): the same for every path that answers a member (/ask, Follow up, Ask Veil,
 * a turn by message). A cancelled ask is one the operators count apart, and usage as not answered.
 */
export function countAsk(
	deps: { readonly metrics: { recordAsk(outcome: AskOutcome): void }; readonly usage: { record(ask: AskTally): void } },
	where: AskWhere,
	ending: AskEnding,
	progress: AskProgress,
	at = Date.now(),
): void {
	const [metric, outcome]: [AskOutcome, UsageOutcome] =
		typeof ending === 'object'
			? [askOutcomeOf(ending.error), usageOutcomeOfError(ending.error)]
			: ending === 'cancelled'
				? ['cancelled', 'failed']
				: [askOutcomeOfUsage(ending), ending];
	deps.metrics.recordAsk(metric);
	deps.usage.record({ ...where, outcome, countsForMember: progress.countsForMember, at });
}
