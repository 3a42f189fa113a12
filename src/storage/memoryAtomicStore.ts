import type { AtomicStore, IndexBounds, IndexEntry } from './atomicStore.js';
import { MemoryCounters } from './dailyCounter.js';
import { MemoryTallies, type TallyChange } from './tally.js';

/**
 * The atomic store of `memory://` (tests): one process, so plain maps are atomic as long as no operation awaits
 * between its read and its write.
 */
export class MemoryAtomicStore implements AtomicStore {
	readonly #values = new Map<string, { value: string; expires: number }>();
	readonly #indexes = new Map<string, { entries: Map<string, number>; expires: number }>();
	readonly #counters = new MemoryCounters();
	readonly #tallies = new MemoryTallies();
	readonly #maps = new Map<string, Map<string, string>>();

	async claim(key: string, value: string, ttlMs: number): Promise<string | undefined> {
		const held = this.#value(key);
		if (held !== undefined) return held;
		this.#values.set(key, { value, expires: Date.now() + ttlMs });
		return undefined;
	}

	async release(key: string, value: string): Promise<void> {
		if (this.#value(key) === value) this.#values.delete(key);
	}

	async read(key: string): Promise<string | undefined> {
		return this.#value(key);
	}

	async readPrefixed(prefix: string): Promise<Array<{ key: string; value: string }>> {
		return [...this.#values.keys()]
			.filter((key) => key.startsWith(prefix))
			.flatMap((key) => {
				const value = this.#value(key);
				return value === undefined ? [] : [{ key, value }];
			});
	}

	async compareAndSet(key: string, expected: string | undefined, next: string): Promise<boolean> {
		if (this.#value(key) !== expected) return false;
		this.#values.set(key, { value: next, expires: Number.POSITIVE_INFINITY });
		return true;
	}

	async indexAdd(key: string, entries: readonly IndexEntry[], bounds: IndexBounds): Promise<void> {
		const index = this.#live(key) ?? new Map<string, number>();
		for (const { member, score } of entries) index.set(member, score);
		const kept = [...index]
			.filter(([, score]) => score > bounds.minScore)
			.sort(([, a], [, b]) => b - a)
			.slice(0, bounds.limit);
		this.#indexes.set(key, { entries: new Map(kept), expires: Date.now() + bounds.ttlMs });
	}

	async indexRead(key: string, minScore: number): Promise<IndexEntry[]> {
		return [...(this.#live(key) ?? [])]
			.filter(([, score]) => score > minScore)
			.sort(([, a], [, b]) => b - a)
			.map(([member, score]) => ({ member, score }));
	}

	async indexRemove(key: string, members: readonly string[]): Promise<void> {
		const index = this.#live(key);
		for (const member of members) index?.delete(member);
	}

	async mapWrite(key: string, fields: ReadonlyArray<readonly [string, string | undefined]>, options?: { ifAbsent?: boolean }): Promise<void> {
		const map = this.#maps.get(key) ?? new Map<string, string>();
		for (const [field, value] of fields) {
			if (value === undefined) map.delete(field);
			else if (!options?.ifAbsent || !map.has(field)) map.set(field, value);
		}
		this.#maps.set(key, map);
	}

	async mapRead(key: string): Promise<Map<string, string>> {
		return new Map(this.#maps.get(key));
	}

	async indexKeys(prefix: string): Promise<string[]> {
		return [...this.#indexes.keys()].filter((key) => key.startsWith(prefix) && this.#live(key) !== undefined).sort();
	}

	async increment(key: string, expiresAt: number): Promise<number> {
		return this.#counters.increment(key, expiresAt, Date.now());
	}

	async readCounts(keys: readonly string[]): Promise<number[]> {
		const now = Date.now();
		return keys.map((key) => this.#counters.read(key, now));
	}

	async tally(changes: readonly TallyChange[]): Promise<void> {
		this.#tallies.tally(changes, Date.now());
	}

	async readTallies(keys: readonly string[]): Promise<Array<Map<string, number>>> {
		return this.#tallies.read(keys, Date.now());
	}

	async countDistinct(groups: ReadonlyArray<readonly string[]>): Promise<number[]> {
		return this.#tallies.countDistinct(groups, Date.now());
	}

	async sweepExpired(now = Date.now()): Promise<number> {
		return this.#counters.sweep(now) + this.#tallies.sweep(now);
	}

	async close(): Promise<void> {}

	#value(key: string): string | undefined {
		const held = this.#values.get(key);
		if (held && held.expires <= Date.now()) this.#values.delete(key);
		return held && held.expires > Date.now() ? held.value : undefined;
	}

	#live(key: string): Map<string, number> | undefined {
		const index = this.#indexes.get(key);
		if (index && index.expires <= Date.now()) this.#indexes.delete(key);
		return index && index.expires > Date.now() ? index.entries : undefined;
	}
}
