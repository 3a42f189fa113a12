import type { AtomicStore } from '../storage/atomicStore.js';
import type { Store } from '../storage/store.js';
import { DAY_MS } from '../time/durations.js';

/** The counter of a server's case numbers, and where each number points to its flag (for the flag's retention). */
const counterKey = (guildId: string) => `flag-cases:${guildId}`;
const caseKey = (guildId: string, caseNumber: number) => `${guildId}:${caseNumber}`;
/** The counter is kept a century past its last use: case numbers are never given twice in a server. */
const COUNTER_LIFE_MS = 100 * 365 * DAY_MS;
/** `#12` or `12`: a case number (ids are 10 letters and digits, so up to 9 digits cannot be one). */
const CASE_REFERENCE = /^#?\s*(\d{1,9})$/;

/** The case number a moderator typed (`#12` or `12`), or undefined when it is not one (an id, say). */
export function parseCaseReference(reference: string): number | undefined {
	const digits = CASE_REFERENCE.exec(reference.trim())?.[1];
	return digits === undefined ? undefined : Number(digits);
}

/**
 * Each server's case numbers (`#1`, `#2`…), from one counter in the store: two processes never get the same one.
 * Each number points to its flag for as long as the flag is kept.
 */
export class FlagCases {
	readonly #store: Store;
	readonly #atomic: AtomicStore;
	readonly #retentionMs: number;

	constructor(store: Store, atomic: AtomicStore, retentionMs: number) {
		this.#store = store;
		this.#atomic = atomic;
		this.#retentionMs = retentionMs;
	}

	/** Gives the flag `id` the server's next case number, and returns it. */
	async assign(guildId: string, id: string, now: Date): Promise<number> {
		const caseNumber = await this.#atomic.increment(counterKey(guildId), now.getTime() + COUNTER_LIFE_MS);
		// One number, one write: no two flags ever write the same key.
		await this.#store.set('flag-cases', caseKey(guildId, caseNumber), id, this.#retentionMs);
		return caseNumber;
	}

	/** The id of the flag with this case number, or undefined (unknown, expired, or not a case number). */
	async idOf(guildId: string, caseNumber: number): Promise<string | undefined> {
		if (!Number.isSafeInteger(caseNumber) || caseNumber < 1) return undefined;
		const id = await this.#store.get('flag-cases', caseKey(guildId, caseNumber));
		return typeof id === 'string' ? id : undefined;
	}
}
