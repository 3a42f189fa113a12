import type { AtomicStore } from '../storage/atomicStore.js';

/** The map of server id → asks a day (and `<server id>/role/<role id>` → a role's), one record in the store. */
export const DAILY_LIMITS_KEY = 'daily-limits';

/** A role's field in the record: its limit replaces the server's for its members (0: none). */
export const roleLimitField = (guildId: string, roleId: string): string => `${guildId}/role/${roleId}`;

/**
 * The limit a member's asks meet: the highest of their roles' limits when any of their roles has one (a role
 * without a limit, 0, wins: no limit), else the server's; undefined: none.
 */
export function limitFor(server: number | undefined, roleLimits: readonly number[]): number | undefined {
	if (roleLimits.length === 0) return server;
	return roleLimits.includes(0) ? undefined : Math.max(...roleLimits);
}
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

	/**
	 * Sets (or, undefined, removes) fields of the record: a server's limit under its id, a role's under
	 * {@link roleLimitField}. This process sees them at once.
	 */
	async set(changes: ReadonlyArray<readonly [field: string, asksPerDay: number | undefined]>): Promise<void> {
		if (changes.length === 0) return;
		await this.#atomic.mapWrite(
			DAILY_LIMITS_KEY,
			changes.map(([field, asksPerDay]) => [field, asksPerDay === undefined ? undefined : String(asksPerDay)] as const),
		);
		const known = this.#known?.limits;
		if (known?.whole) {
			const limits = new Map(known.limits);
			for (const [field, asksPerDay] of changes) {
				if (asksPerDay === undefined) limits.delete(field);
				else limits.set(field, asksPerDay);
			}
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
		// A role's 0 is a setting of its own (no limit for its members); a server's 0 is never stored.
		const least = field.includes('/role/') ? 0 : 1;
		if (field !== MADE_FIELD && Number.isSafeInteger(asksPerDay) && asksPerDay >= least) limits.set(field, asksPerDay);
	}
	return limits;
}
