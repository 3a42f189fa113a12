import { DailyLimitError } from './admissionErrors.js';
import { DAY_MS, HOUR_MS } from '../time/durations.js';

/** Adds one to a counter in the store, atomically, and returns its new value; the store forgets it at `expiresAt`. */
export interface Counter {
	increment(key: string, expiresAt: number): Promise<number>;
	/** The counters as they stand; read only for an ask past the limit, to take off the asks given back. */
	readCounts?(keys: readonly string[]): Promise<number[]>;
}

/** An ask counted against a daily limit, to give back should it be cancelled before reaching the service. */
export interface CountedAsk {
	readonly key: string;
	readonly expiresAt: number;
}

/** The UTC day `now` falls in, as `YYYY-MM-DD`. */
export function utcDay(now: number): string {
	return new Date(now).toISOString().slice(0, 10);
}

/** The first millisecond of the next UTC day: when a daily count starts again. */
export function nextUtcMidnight(now: number): number {
	return (Math.floor(now / DAY_MS) + 1) * DAY_MS;
}

/** Who asks where, and what the server allows. */
export interface DailyAsk {
	/** The server that installed Veil; null: outside Veil's servers, counted under ASK_USER_PER_DAY. */
	readonly guildId: string | null;
	readonly memberId: string;
	/** The server's `asks_per_day`; 0 or unset means no limit. */
	readonly limit: number | undefined;
	/** Members with Manage Server are not counted. */
	readonly exempt: boolean;
	readonly now: number;
}

/**
 * `/settings limits asks_per_day`: each member's asks per server per UTC day, counted in the store so that every
 * process serving the server shares one count. The count goes up in one step of the store's own (never read, then
 * written), so two asks at once in two processes cannot both see the last free ask.
 */
export class DailyLimit {
	readonly #counter: Counter;

	constructor(counter: Counter) {
		this.#counter = counter;
	}

	/**
	 * Counts the ask, or throws {@link DailyLimitError} when it is past the limit. Unlimited or exempt: no store call,
	 * and nothing to give back (undefined).
	 */
	async count(ask: DailyAsk): Promise<CountedAsk | undefined> {
		const { limit, exempt, now } = ask;
		if (exempt || limit === undefined || limit <= 0) return undefined;
		const resetsAt = nextUtcMidnight(now);
		// The day is in the key, so a count never carries over; the expiry only tidies the store, an hour late so
		// processes whose clocks differ a little still share the day's count.
		const key = ask.guildId === null ? `asks-outside:${ask.memberId}:${utcDay(now)}` : `asks:${ask.guildId}:${ask.memberId}:${utcDay(now)}`;
		const count = await this.#counter.increment(key, resetsAt + HOUR_MS);
		if (count > limit && count - (await this.#givenBack(key)) > limit)
			throw new DailyLimitError(limit, resetsAt, ask.guildId === null ? 'outside' : 'server');
		return { key, expiresAt: resetsAt + HOUR_MS };
	}

	/**
	 * Gives back a counted ask that was cancelled before it reached the service. Counters only go up, in one step of
	 * the store's own, so what is given back is a count of its own, read only by an ask that finds itself past the limit.
	 */
	async giveBack({ key, expiresAt }: CountedAsk): Promise<void> {
		await this.#counter.increment(givenBackKey(key), expiresAt);
	}

	async #givenBack(key: string): Promise<number> {
		if (!this.#counter.readCounts) return 0;
		const [back = 0] = await this.#counter.readCounts([givenBackKey(key)]);
		return back;
	}
}

const givenBackKey = (key: string) => `${key}:given-back`;
