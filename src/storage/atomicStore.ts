import { PREFIXED_READ_TIMEOUT_MS, type StoreBound } from './storeBound.js';
import type { TallyChange } from './tally.js';

/** One member of a sorted index and its score (a time in ms, for flags). */
export interface IndexEntry {
	readonly member: string;
	readonly score: number;
}

/** How an index is kept: the newest `limit` entries above `minScore`, the whole index forgotten `ttlMs` after its last add. */
export interface IndexBounds {
	readonly limit: number;
	readonly minScore: number;
	readonly ttlMs: number;
}

/**
 * What keyv cannot do: changes the store itself makes atomic, so processes sharing one store (Redis, or one SQLite
 * file) never act twice on one thing nor lose one another's writes. Each operation is one Redis command or script,
 * or one SQLite statement.
 */
export interface AtomicStore {
	/**
	 * Sets `key` to `value` for `ttlMs` unless it already holds a value. Undefined when this call set it; otherwise
	 * the value already there (the claim of whoever came first).
	 */
	claim(key: string, value: string, ttlMs: number): Promise<string | undefined>;
	/** Deletes `key` if it still holds `value`: a claim given back because its action failed. */
	release(key: string, value: string): Promise<void>;
	/** The value under `key`, or undefined. */
	read(key: string): Promise<string | undefined>;
	/**
	 * Every value whose key starts with `prefix`, keys given as `read` takes them. A scan of the whole store: for a
	 * one-time look at start (a record made from what is stored), never on an ask's path. It stops once `signal`
	 * aborts (its bound gave up).
	 */
	readPrefixed(prefix: string, signal?: AbortSignal): Promise<Array<{ key: string; value: string }>>;
	/** Sets `key` to `next` only if it holds `expected` (undefined: nothing); true when it did. */
	compareAndSet(key: string, expected: string | undefined, next: string): Promise<boolean>;
	/** Adds (or re-scores) entries in a sorted index, then drops what `bounds` leaves out. */
	indexAdd(key: string, entries: readonly IndexEntry[], bounds: IndexBounds): Promise<void>;
	/** The entries scored above `minScore`, highest first. */
	indexRead(key: string, minScore: number): Promise<IndexEntry[]>;
	indexRemove(key: string, members: readonly string[]): Promise<void>;
	/** The keys of every index under `prefix`: a look at all of them, once at start (see readPrefixed). */
	indexKeys(prefix: string, signal?: AbortSignal): Promise<string[]>;
	/**
	 * Sets (a string) or removes (undefined) fields of the map `key`, all in one step; with `ifAbsent`, only fields
	 * not already set are set (a record built from older data never overwrites a newer change).
	 */
	mapWrite(key: string, fields: ReadonlyArray<readonly [field: string, value: string | undefined]>, options?: { ifAbsent?: boolean }): Promise<void>;
	/** The whole map `key` (empty when there is none): one read, however many fields. */
	mapRead(key: string): Promise<Map<string, string>>;
	/**
	 * Adds one to the counter `key` and returns its new value (1 for a new counter, or one past its expiry); the
	 * store forgets it at `expiresAt`. Two processes adding at once never get the same value.
	 */
	increment(key: string, expiresAt: number): Promise<number>;
	/** The counters `keys` as they stand (0 for one never counted or expired), in one read. */
	readCounts(keys: readonly string[]): Promise<number[]>;
	/**
	 * Makes every change of a batch of tallies (counting maps and sets of distinct members) in one step: one Redis
	 * script, one SQLite statement. Whatever the batch's size, one write.
	 */
	tally(changes: readonly TallyChange[]): Promise<void>;
	/** Each counting map's fields as they stand (empty for one never counted or expired), in one read. */
	readTallies(keys: readonly string[]): Promise<Array<Map<string, number>>>;
	/** How many distinct members each group of sets holds together (their union's size), in one read. */
	countDistinct(groups: ReadonlyArray<readonly string[]>): Promise<number[]>;
	/** Erases what has expired where the store does not by itself (SQLite); returns how many. */
	sweepExpired(now?: number): Promise<number>;
	close(): Promise<void>;
}

/**
 * Bounds every operation but close in the store's one time bound: a change is a write (through SQLite's gate, and
 * reported as "may not have been saved" when it may still land), a look is a read.
 */
export function boundAtomic(store: AtomicStore, bound: StoreBound): AtomicStore {
	return {
		claim: (key, value, ttlMs) => bound.write('claim', () => store.claim(key, value, ttlMs)),
		release: (key, value) => bound.write('release', () => store.release(key, value)),
		read: (key) => bound.read('read', () => store.read(key)),
		readPrefixed: (prefix) => bound.read('prefixed read', (signal) => store.readPrefixed(prefix, signal), PREFIXED_READ_TIMEOUT_MS),
		compareAndSet: (key, expected, next) => bound.write('compare-and-set', () => store.compareAndSet(key, expected, next)),
		indexAdd: (key, entries, bounds) => bound.write('index add', () => store.indexAdd(key, entries, bounds)),
		indexRead: (key, minScore) => bound.read('index read', () => store.indexRead(key, minScore)),
		indexRemove: (key, members) => bound.write('index remove', () => store.indexRemove(key, members)),
		indexKeys: (prefix) => bound.read('index keys', (signal) => store.indexKeys(prefix, signal), PREFIXED_READ_TIMEOUT_MS),
		mapWrite: (key, fields, options) => bound.write('map write', () => store.mapWrite(key, fields, options)),
		mapRead: (key) => bound.read('map read', () => store.mapRead(key)),
		increment: (key, expiresAt) => bound.write('increment', () => store.increment(key, expiresAt)),
		readCounts: (keys) => bound.read('counter read', () => store.readCounts(keys)),
		tally: (changes) => bound.write('tally', () => store.tally(changes)),
		readTallies: (keys) => bound.read('tally read', () => store.readTallies(keys)),
		countDistinct: (groups) => bound.read('distinct read', () => store.countDistinct(groups)),
		sweepExpired: (now) => bound.write('sweep', () => store.sweepExpired(now)),
		close: () => store.close(),
	};
}
