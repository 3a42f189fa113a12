import { HELD_REASONS, REFUSED_REASONS, type HeldReason, type RefusedReason, type UsageOutcome } from './usageOutcome.js';
import type { DayUsage, ServerUsage } from './usageCounts.js';

/** How many channels /usage server names. */
export const BUSIEST_CHANNELS = 5;

/** Asks by how they ended: each ask in exactly one of shown, held (by reason), refused (by reason) or failed. */
export interface OutcomeTotals {
	readonly asks: number;
	readonly shown: number;
	readonly held: number;
	readonly heldBy: Readonly<Record<HeldReason, number>>;
	readonly refused: number;
	readonly refusedBy: Readonly<Record<RefusedReason, number>>;
	readonly failed: number;
}

/** What /usage server shows, oldest day first. */
export interface ServerReport {
	readonly from: string;
	readonly to: string;
	readonly totals: OutcomeTotals;
	/** Members who asked on any of the days. */
	readonly askers: number;
	/** Held answers among the answers the model gave (shown and held); undefined before the first. */
	readonly heldShare: number | undefined;
	readonly busiest: ReadonlyArray<{ readonly channelId: string; readonly asks: number }>;
	readonly days: ReadonlyArray<{ readonly day: string; readonly asks: number; readonly askers: number }>;
}

/** The totals of some asks, given as outcome → count. */
export function totalsOf(counts: Iterable<readonly [UsageOutcome, number]>): OutcomeTotals {
	const heldBy = Object.fromEntries(HELD_REASONS.map((reason) => [reason, 0])) as Record<HeldReason, number>;
	const refusedBy = Object.fromEntries(REFUSED_REASONS.map((reason) => [reason, 0])) as Record<RefusedReason, number>;
	let shown = 0;
	let failed = 0;
	for (const [outcome, count] of counts) {
		if (outcome === 'shown') shown += count;
		else if (outcome === 'failed') failed += count;
		else if (outcome.startsWith('held:')) heldBy[outcome.slice(5) as HeldReason] += count;
		else refusedBy[outcome.slice(8) as RefusedReason] += count;
	}
	const held = sum(Object.values(heldBy));
	const refused = sum(Object.values(refusedBy));
	return { asks: shown + held + refused + failed, shown, held, heldBy, refused, refusedBy, failed };
}

/** A server's usage as /usage server shows it. */
export function serverReport(usage: ServerUsage): ServerReport {
	const oldestFirst = [...usage.days].reverse();
	const totals = totalsOf(oldestFirst.flatMap(outcomesOf));
	const perChannel = new Map<string, number>();
	for (const day of oldestFirst) {
		for (const [channelId, outcomes] of day.channels) perChannel.set(channelId, (perChannel.get(channelId) ?? 0) + sum(outcomes.values()));
	}
	const busiest = [...perChannel]
		.map(([channelId, asks]) => ({ channelId, asks }))
		.sort((a, b) => b.asks - a.asks || (a.channelId < b.channelId ? -1 : 1))
		.slice(0, BUSIEST_CHANNELS);
	const answered = totals.shown + totals.held;
	return {
		from: oldestFirst[0]?.day ?? '',
		to: oldestFirst.at(-1)?.day ?? '',
		totals,
		askers: usage.askers,
		heldShare: answered === 0 ? undefined : totals.held / answered,
		busiest,
		days: oldestFirst.map((day) => ({ day: day.day, asks: sum(outcomesOf(day).map(([, count]) => count)), askers: day.askers })),
	};
}

/** Every channel's outcomes of one day, as outcome → count pairs. */
export function outcomesOf(day: DayUsage): Array<readonly [UsageOutcome, number]> {
	return [...day.channels.values()].flatMap((outcomes) => [...outcomes]);
}

function sum(values: Iterable<number>): number {
	let total = 0;
	for (const value of values) total += value;
	return total;
}
