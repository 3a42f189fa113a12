import { createHmac } from 'node:crypto';
import type { Logger } from '../logging/logger.js';
import type { AtomicStore } from '../storage/atomicStore.js';
import type { TallyChange } from '../storage/tally.js';
import { WriteBatch } from '../storage/writeBatch.js';
import { DAY_MS } from '../time/durations.js';
import { isUsageOutcome, type AskTally, type UsageOutcome } from './usageOutcome.js';

/** The days /usage shows a member, today included; their counts are kept one day longer. */
export const MEMBER_DAYS = 7;
/** How long the first ask of a batch waits for others to join its write. */
const TALLY_WINDOW_MS = 100;
const TALLY_BATCH_MAX = 256;
/** The scope of asks outside Veil's servers: no server id is ever this. */
const OUTSIDE = 'outside';

/** One UTC day of a server: each channel's asks by outcome, and how many members asked. */
export interface DayUsage {
	readonly day: string;
	readonly channels: ReadonlyMap<string, ReadonlyMap<UsageOutcome, number>>;
	readonly askers: number;
}

/** A server's days, today first, and the members who asked on any of them. */
export interface ServerUsage {
	readonly days: readonly DayUsage[];
	readonly askers: number;
}

/** The UTC day `at` falls in, as `YYYY-MM-DD`. */
export const dayOf = (at: number): string => new Date(at).toISOString().slice(0, 10);
const dayStart = (day: string): number => Date.parse(`${day}T00:00:00Z`);

/**
 * The counts behind /usage: per server and UTC day, each channel's asks by how they ended and a set of who asked
 * (a one-way hash of the member, so the set counts members without naming them); per member and day, their asks
 * here. Every ask's changes go in one write, and the asks ending within {@link TALLY_WINDOW_MS} of each other share
 * it (one Redis script, one SQLite statement). A server's records are kept as long as its flags; a member's
 * {@link MEMBER_DAYS} days. A write that fails loses those counts (the log says so): they are a summary, never a
 * reason to fail an answer.
 */
export class UsageCounts {
	readonly #atomic: AtomicStore;
	readonly #retentionMs: number;
	readonly #log: Logger;
	readonly #hashKey: Buffer;
	readonly #onServerAsk: (outcome: UsageOutcome) => void;
	readonly #batch: WriteBatch<{ readonly key: string; readonly changes: readonly TallyChange[] }>;

	/**
	 * `hashKey` keys the one-way hash of who asked (the tokens' key: every process has it, no one outside does), so
	 * the store's sets cannot be matched against member ids. `onServerAsk` is told each ask counted in a server.
	 */
	constructor(options: { atomic: AtomicStore; retentionDays: number; log: Logger; hashKey: Buffer; onServerAsk?: (outcome: UsageOutcome) => void }) {
		const { atomic, retentionDays, log } = options;
		this.#hashKey = options.hashKey;
		this.#onServerAsk = options.onServerAsk ?? (() => undefined);
		this.#atomic = atomic;
		this.#retentionMs = retentionDays * DAY_MS;
		this.#log = log;
		this.#batch = new WriteBatch((items) => this.#atomic.tally(items.flatMap((item) => item.changes)), {
			windowMs: TALLY_WINDOW_MS,
			maxItems: TALLY_BATCH_MAX,
		});
	}

	/** Counts one ask, in the background. */
	record(ask: AskTally): void {
		if (ask.guildId !== null) this.#onServerAsk(ask.outcome);
		const changes = this.#changesOf(ask);
		if (changes.length === 0) return;
		this.#batch.add({ key: ask.guildId ?? OUTSIDE, changes }).catch((error: unknown) => this.#log.warn({ err: error }, 'could not count an ask'));
	}

	/** Writes the counts still waiting in memory for their batch, now: a stopping process calls it before closing the store. */
	flush(): Promise<void> {
		return this.#batch.flush();
	}

	/** The member's asks in `guildId` (null: outside Veil's servers) on each of the last {@link MEMBER_DAYS} days, today first. */
	async member(guildId: string | null, memberId: string, now = Date.now()): Promise<number[]> {
		const scope = guildId ?? OUTSIDE;
		await this.#batch.settled(scope);
		const days = lastDays(MEMBER_DAYS, now);
		const tallies = await this.#atomic.readTallies(days.map((day) => memberKey(scope, memberId, day)));
		return tallies.map((fields) => fields.get('asks') ?? 0);
	}

	/**
	 * A server's last `days` UTC days, today first, and how many members asked over all of them: one read of their
	 * tallies and one of their askers.
	 */
	async server(guildId: string, days: number, now = Date.now()): Promise<ServerUsage> {
		await this.#batch.settled(guildId);
		const wanted = lastDays(days, now);
		const askerKeys = wanted.map((day) => askersKey(guildId, day));
		const [tallies, askers] = await Promise.all([
			this.#atomic.readTallies(wanted.map((day) => serverKey(guildId, day))),
			this.#atomic.countDistinct([...askerKeys.map((key) => [key]), askerKeys]),
		]);
		return {
			days: wanted.map((day, n) => ({ day, channels: byChannel(tallies[n] ?? new Map()), askers: askers[n] ?? 0 })),
			askers: askers[wanted.length] ?? 0,
		};
	}

	#changesOf({ guildId, channelId, memberId, outcome, countsForMember, at }: AskTally): TallyChange[] {
		const day = dayOf(at);
		const scope = guildId ?? OUTSIDE;
		const changes: TallyChange[] = [];
		if (countsForMember) {
			changes.push({ key: memberKey(scope, memberId, day), field: 'asks', by: 1, expiresAt: dayStart(day) + (MEMBER_DAYS + 1) * DAY_MS });
		}
		if (guildId !== null) {
			const expiresAt = dayStart(day) + DAY_MS + this.#retentionMs;
			changes.push(
				{ key: serverKey(guildId, day), field: `${channelId ?? 'unknown'}|${outcome}`, by: 1, expiresAt },
				{ key: askersKey(guildId, day), member: askerHash(this.#hashKey, guildId, memberId), expiresAt },
			);
		}
		return changes;
	}
}

/** The last `count` UTC days, today first. */
function lastDays(count: number, now: number): string[] {
	return Array.from({ length: count }, (_, n) => dayOf(now - n * DAY_MS));
}

const serverKey = (guildId: string, day: string) => `usage:${guildId}:${day}`;
const askersKey = (guildId: string, day: string) => `usage-askers:${guildId}:${day}`;
const memberKey = (scope: string, memberId: string, day: string) => `usage-member:${scope}:${memberId}:${day}`;

/**
 * Who asked, as a server's sets hold it: the same member in the same server hashes alike (so the days' sets count
 * together), and without the key the hash names no one.
 */
function askerHash(key: Buffer, guildId: string, memberId: string): string {
	return createHmac('sha256', key).update(`usage-asker:${guildId}:${memberId}`).digest('base64url').slice(0, 22);
}

function byChannel(fields: ReadonlyMap<string, number>): Map<string, Map<UsageOutcome, number>> {
	const channels = new Map<string, Map<UsageOutcome, number>>();
	for (const [field, count] of fields) {
		const split = field.lastIndexOf('|');
		const outcome = field.slice(split + 1);
		if (split < 0 || !isUsageOutcome(outcome) || count <= 0) continue;
		const channel = field.slice(0, split);
		const outcomes = channels.get(channel) ?? new Map<UsageOutcome, number>();
		outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + count);
		channels.set(channel, outcomes);
	}
	return channels;
}
