import type { AtomicStore } from '../storage/atomicStore.js';

/** The map of server id → asks a day, one record in the store. */
export const DAILY_LIMITS_KEY = 'daily-limits';
/**
 * A field every whole record holds, set when the record is made. A record without it was lost (evicted, restored
 * from an older copy) or never made: its absence cannot mean "no server has a limit".
 */
export const MADE_FIELD = '~made';

/** What a read of the record found: each limited server's limit, or that the record is not there to say. */
export type KnownLimits = { readonly whole: true; readonly limits: ReadonlyMap<string, number> } | { readonly whole: false };

/**
 * Each server's daily limit, kept in one record of its own (a Redis hash, SQLite rows) beside the servers'
 * settings: every ask needs its server's limit and nearly every server has none, so a process reads the whole
 * record at most every `maxAgeMs` (one read, one reader at a time) instead of a server's settings at each ask. A
 * change writes its one field: no list to rewrite, no compare-and-set.
 */
export class DailyLimits {
	readonly #atomic: AtomicStore;
	readonly #maxAgeMs: number;
	#known: { readonly limits: KnownLimits; readonly readAt: number } | undefined;
	#reading: Promise<KnownLimits> | undefined;

	constructor(atomic: AtomicStore, maxAgeMs: number) {
		this.#atomic = atomic;
		this.#maxAgeMs = maxAgeMs;
	}

	/** The record as read at most `maxAgeMs` before `now`, else read now (one read for every caller meanwhile). */
	current(now = Date.now()): Promise<KnownLimits> {
		if (this.#known && now - this.#known.readAt < this.#maxAgeMs) return Promise.resolve(this.#known.limits);
		this.#reading ??= this.#read().finally(() => (this.#reading = undefined));
		return this.#reading;
	}

	/** Sets (or, undefined, removes) the server's limit; this process sees it at once. */
	async set(guildId: string, asksPerDay: number | undefined): Promise<void> {
		await this.#atomic.mapWrite(DAILY_LIMITS_KEY, [[guildId, asksPerDay === undefined ? undefined : String(asksPerDay)]]);
		const known = this.#known?.limits;
		if (known?.whole) {
			const limits = new Map(known.limits);
			if (asksPerDay === undefined) limits.delete(guildId);
			else limits.set(guildId, asksPerDay);
			this.#known = { limits: { whole: true, limits }, readAt: this.#known?.readAt ?? 0 };
		}
	}

	/**
	 * Makes the record from `limits` (what the servers' settings say) unless it is whole already. Fields set meanwhile
	 * by a change are kept; the marker goes last, so a record is never called whole before its fields are in.
	 */
	async make(limits: ReadonlyMap<string, number>): Promise<void> {
		const fields = [...limits].map(([guildId, asksPerDay]) => [guildId, String(asksPerDay)] as const);
		await this.#atomic.mapWrite(DAILY_LIMITS_KEY, fields, { ifAbsent: true });
		await this.#atomic.mapWrite(DAILY_LIMITS_KEY, [[MADE_FIELD, new Date().toISOString()]], { ifAbsent: true });
		this.#known = undefined;
	}

	async #read(): Promise<KnownLimits> {
		// The time the read starts: whatever was stored before it, it sees.
		const readAt = Date.now();
		const stored = await this.#atomic.mapRead(DAILY_LIMITS_KEY);
		const limits: KnownLimits = stored.has(MADE_FIELD) ? { whole: true, limits: parseLimits(stored) } : { whole: false };
		this.#known = { limits, readAt };
		return limits;
	}
}

function parseLimits(stored: ReadonlyMap<string, string>): Map<string, number> {
	const limits = new Map<string, number>();
	for (const [field, value] of stored) {
		const asksPerDay = Number(value);
		if (field !== MADE_FIELD && Number.isSafeInteger(asksPerDay) && asksPerDay > 0) limits.set(field, asksPerDay);
	}
	return limits;
}
