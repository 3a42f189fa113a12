import type { Logger } from '../logging/logger.js';
import { MemoryAtomicStore } from './memoryAtomicStore.js';
import { openSqliteAtomicStore } from './sqliteAtomicStore.js';
import { StoreError } from './storeError.js';
import { STORE_OPERATION_TIMEOUT_MS } from './storeBound.js';
import { recordStoreError } from '../operations/metrics.js';

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
	 * one-time look (a record made from what is stored), never on an ask's path.
	 */
	readPrefixed(prefix: string): Promise<Array<{ key: string; value: string }>>;
	/** Sets `key` to `next` only if it holds `expected` (undefined: nothing); true when it did. */
	compareAndSet(key: string, expected: string | undefined, next: string): Promise<boolean>;
	/** Adds (or re-scores) entries in a sorted index, then drops what `bounds` leaves out. */
	indexAdd(key: string, entries: readonly IndexEntry[], bounds: IndexBounds): Promise<void>;
	/** The entries scored above `minScore`, highest first. */
	indexRead(key: string, minScore: number): Promise<IndexEntry[]>;
	indexRemove(key: string, members: readonly string[]): Promise<void>;
	/**
	 * Adds one to the counter `key` and returns its new value (1 for a new counter, or one past its expiry); the
	 * store forgets it at `expiresAt`. Two processes adding at once never get the same value.
	 */
	increment(key: string, expiresAt: number): Promise<number>;
	/** Erases what has expired where the store does not by itself (SQLite); returns how many. */
	sweepExpired(now?: number): Promise<number>;
	close(): Promise<void>;
}

interface AtomicStoreOptions {
	/** Prefix of every key; tests give each run its own, as with the keyv store. */
	readonly namespace?: string;
	/** How long one operation may take before it fails with StoreError. */
	readonly operationTimeoutMs?: number;
}

/**
 * Opens the atomic side of the store named by STORE_URL, with its own connection (keyv's adapters expose neither
 * scripts nor sorted sets). Every operation is bounded in time like the keyv store's.
 */
export async function openAtomicStore(storeUrl: string, logger: Logger, options: AtomicStoreOptions = {}): Promise<AtomicStore> {
	const namespace = options.namespace ?? 'veil';
	const timeoutMs = options.operationTimeoutMs ?? STORE_OPERATION_TIMEOUT_MS;
	let store: AtomicStore;
	if (storeUrl.startsWith('sqlite://')) {
		store = await openSqliteAtomicStore(storeUrl, namespace, timeoutMs);
	} else if (/^rediss?:\/\//.test(storeUrl)) {
		// Loaded only when the store is Redis, as in openStore: its client (every command of @redis/client) costs a
		// SQLite deployment about 2.5 MB of heap and more of resident memory for nothing.
		const { openRedisAtomicStore } = await import('./redisAtomicStore.js');
		store = await openRedisAtomicStore(storeUrl, namespace, logger);
	} else {
		store = new MemoryAtomicStore();
	}
	return bounded(store, timeoutMs);
}

/** Wraps every operation but close in a time bound, turning any failure into a StoreError. */
function bounded(store: AtomicStore, timeoutMs: number): AtomicStore {
	const run = async <T>(what: string, operation: () => Promise<T>): Promise<T> => {
		let timer: NodeJS.Timeout | undefined;
		const timeout = new Promise<never>((_, reject) => {
			timer = setTimeout(() => reject(new StoreError(`store did not answer ${what} within ${timeoutMs} ms`)), timeoutMs);
		});
		try {
			return await Promise.race([operation(), timeout]);
		} catch (error) {
			recordStoreError();
			if (error instanceof StoreError) throw error;
			throw new StoreError(`store failed ${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
		} finally {
			clearTimeout(timer);
		}
	};
	return {
		claim: (key, value, ttlMs) => run('claim', () => store.claim(key, value, ttlMs)),
		release: (key, value) => run('release', () => store.release(key, value)),
		read: (key) => run('read', () => store.read(key)),
		readPrefixed: (prefix) => run('prefixed read', () => store.readPrefixed(prefix)),
		compareAndSet: (key, expected, next) => run('compare-and-set', () => store.compareAndSet(key, expected, next)),
		indexAdd: (key, entries, bounds) => run('index add', () => store.indexAdd(key, entries, bounds)),
		indexRead: (key, minScore) => run('index read', () => store.indexRead(key, minScore)),
		indexRemove: (key, members) => run('index remove', () => store.indexRemove(key, members)),
		increment: (key, expiresAt) => run('increment', () => store.increment(key, expiresAt)),
		sweepExpired: (now) => run('sweep', () => store.sweepExpired(now)),
		close: () => store.close(),
	};
}
