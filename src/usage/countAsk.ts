import { askOutcomeOf, type AskOutcome } from '../operations/metrics.js';
import type { UsageCounts } from './usageCounts.js';
import { askOutcomeOfUsage, usageOutcomeOfError, type UsageOutcome } from './usageOutcome.js';

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
	deps: { readonly metrics: { recordAsk(outcome: AskOutcome): void }; readonly usage: Pick<UsageCounts, 'record'> },
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
