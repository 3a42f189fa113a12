import type { AtomicStore } from '../storage/atomicStore.js';
import { SAFE_PROBABILITY } from '../generation/safetyVerdict.js';
import { DAY_MS, HOUR_MS } from '../time/durations.js';
import type { FlagDecision, FlagRecord } from './storedFlag.js';

const MINUTE_MS = 60_000;
/** Upper bounds of the time-to-decision buckets; the last bucket is everything longer. */
export const DECISION_BUCKETS_MS = [5 * MINUTE_MS, 15 * MINUTE_MS, HOUR_MS, 4 * HOUR_MS, 12 * HOUR_MS, DAY_MS, 3 * DAY_MS, 7 * DAY_MS, Infinity];
/** Why a flag was held, as the stats count it: each rating category, AutoMod, or another reason. */
const OTHER = 'other';
const AUTOMOD = 'automod';
const CATEGORIES = ['HARM_CATEGORY_HARASSMENT', 'HARM_CATEGORY_HATE_SPEECH', 'HARM_CATEGORY_SEXUALLY_EXPLICIT', 'HARM_CATEGORY_DANGEROUS_CONTENT'];
export const HELD_REASONS = [...CATEGORIES, AUTOMOD, OTHER] as const;
/** The decisions on held answers; a reported answer's (Remove, Keep) are not part of the held answers' figures. */
type HeldDecision = Exclude<FlagDecision, 'removed' | 'kept'>;
const DECISIONS: readonly HeldDecision[] = ['released', 'dismissed', 'reviewed'];
/** What members add to cases, counted by the day they added it. */
const NOTED = ['reported', 'review-asked'] as const;

export interface FlagStatsSummary {
	readonly days: number;
	readonly held: number;
	readonly byReason: ReadonlyMap<string, number>;
	readonly decided: Readonly<Record<HeldDecision, number>>;
	readonly pending: number;
	/** The upper bound of the bucket holding the median time to a decision (Infinity: past a week); undefined: none decided. */
	readonly medianUnderMs: number | undefined;
	/** Reports of shown answers, and the askers' requests for a review of held ones. */
	readonly reports: number;
	readonly reviewRequests: number;
}

const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);

/**
 * Per-server counters of held answers and decisions, by the UTC day the flag was held: `/flagged stats` reads a
 * fixed number of them per day asked for, however many flags there are, and never scans the flags. Each counter
 * is one atomic increment, so processes sharing the store never lose a count; each is forgotten with the flags of
 * its day. A counter that fails to count is lost (the flag itself is kept): the stats are a summary, not a record.
 */
export class FlagStats {
	constructor(
		private readonly atomic: AtomicStore,
		private readonly retentionMs: number,
	) {}

	/** Counts a flag just held: once in all, and once under each reason it was held for. */
	async held(flag: FlagRecord): Promise<void> {
		const created = Date.parse(flag.createdAt);
		await Promise.all(['all', ...heldReasons(flag)].map((reason) => this.#count(flag.guildId, created, `held:${reason}`)));
	}

	/** Counts a decision, under the day its flag was held, with the time it took. */
	async decided(flag: FlagRecord): Promise<void> {
		if (!flag.decision) return;
		if (flag.report) {
			await this.#count(flag.guildId, Date.parse(flag.createdAt), `decided:${flag.decision.kind}`);
			return;
		}
		const created = Date.parse(flag.createdAt);
		const took = Date.parse(flag.decision.at) - created;
		const bucket = DECISION_BUCKETS_MS.findIndex((bound) => took < bound);
		await Promise.all([this.#count(flag.guildId, created, `decided:${flag.decision.kind}`), this.#count(flag.guildId, created, `took:${bucket}`)]);
	}

	/** Counts a member's report of a shown answer, or an asker's request for a review, on the day it was made. */
	async noted(guildId: string, what: (typeof NOTED)[number], at = Date.now()): Promise<void> {
		await this.#count(guildId, at, `noted:${what}`);
	}

	/** The last `days` UTC days (today included) of a server, from its counters. */
	async summary(guildId: string, days: number, now = Date.now()): Promise<FlagStatsSummary> {
		const names = [
			'held:all',
			...HELD_REASONS.map((reason) => `held:${reason}`),
			...DECISIONS.map((kind) => `decided:${kind}`),
			...DECISION_BUCKETS_MS.map((_, i) => `took:${i}`),
			...NOTED.map((what) => `noted:${what}`),
		];
		const dayKeys = Array.from({ length: days }, (_, n) => dayOf(now - n * DAY_MS));
		const wanted = dayKeys.flatMap((day) => names.map((name) => ({ name, key: key(guildId, day, name) })));
		// One read of every counter: at most 23 a day for the days asked, however many flags there are.
		const counts = await this.atomic.readCounts(wanted.map((counter) => counter.key));
		const totals = new Map<string, number>();
		wanted.forEach(({ name }, at) => totals.set(name, (totals.get(name) ?? 0) + (counts[at] ?? 0)));
		const get = (name: string) => totals.get(name) ?? 0;
		const decided = { released: get('decided:released'), dismissed: get('decided:dismissed'), reviewed: get('decided:reviewed') };
		const decidedCount = decided.released + decided.dismissed + decided.reviewed;
		let medianUnderMs: number | undefined;
		let seen = 0;
		for (const [i, bound] of DECISION_BUCKETS_MS.entries()) {
			seen += get(`took:${i}`);
			if (decidedCount > 0 && seen * 2 >= decidedCount) {
				medianUnderMs = bound;
				break;
			}
		}
		const held = get('held:all');
		return {
			days,
			held,
			byReason: new Map(HELD_REASONS.map((reason) => [reason, get(`held:${reason}`)] as const).filter(([, count]) => count > 0)),
			decided,
			pending: Math.max(0, held - decidedCount),
			medianUnderMs,
			reports: get('noted:reported'),
			reviewRequests: get('noted:review-asked'),
		};
	}

	#count(guildId: string, createdAt: number, name: string): Promise<number> {
		const day = dayOf(createdAt);
		return this.atomic.increment(key(guildId, day, name), Date.parse(`${day}T00:00:00Z`) + DAY_MS + this.retentionMs);
	}
}

const key = (guildId: string, day: string, name: string) => `flag-stats:${guildId}:${day}:${name}`;

/** The reasons a flag was held for: each flagged rating's category, AutoMod, or `other` (blocked, stopped, missing). */
function heldReasons(flag: FlagRecord): string[] {
	const reasons = new Set<string>();
	for (const line of flag.ratings) {
		if (line.probability !== SAFE_PROBABILITY || line.blocked) reasons.add(CATEGORIES.includes(line.category) ? line.category : OTHER);
	}
	if (flag.automod) reasons.add(AUTOMOD);
	if (reasons.size === 0) reasons.add(OTHER);
	return [...reasons];
}
