import { Keyv, type KeyvStoreAdapter } from 'keyv';
import type { Logger } from '../logging/logger.js';
import { boundAtomic, type AtomicStore } from './atomicStore.js';
import { MemoryAtomicStore } from './memoryAtomicStore.js';
import { SQLITE_ATOMIC_SCHEMA, SqliteAtomicStore } from './sqliteAtomicStore.js';
import { SQLITE_KEYV_TABLE, SqliteKeyvAdapter } from './sqliteKeyvAdapter.js';
import { openBackend, type StoreBackend } from './storeBackend.js';
import { STORE_OPERATION_TIMEOUT_MS, StoreBound } from './storeBound.js';
import { Store } from './store.js';

export interface StoreOptions {
	/** Prefix of every key; tests give each run its own so a shared Redis stays clean. */
	readonly namespace?: string;
	/** How long one operation may take before it fails with StoreError. */
	readonly operationTimeoutMs?: number;
	/** Told of every operation that failed or timed out: the bot's metrics count them. */
	readonly onError?: () => void;
}

/** The store a process uses: plain records through keyv and the atomic operations, over one connection. */
export interface Storage {
	readonly store: Store;
	readonly atomic: AtomicStore;
	readonly backend: StoreBackend;
	close(): Promise<void>;
}

/**
 * Opens the store named by STORE_URL: one connection (see StoreBackend), given to keyv's adapter and to the
 * atomic operations, both bounded by one {@link StoreBound}.
 */
export async function openStorage(storeUrl: string, logger: Logger, options: StoreOptions = {}): Promise<Storage> {
	const namespace = options.namespace ?? 'veil';
	const bound = new StoreBound(
		await openBackend(storeUrl, logger, options.operationTimeoutMs ?? STORE_OPERATION_TIMEOUT_MS),
		options.operationTimeoutMs ?? STORE_OPERATION_TIMEOUT_MS,
		options.onError,
	);
	const backend = bound.backend;
	try {
		const { adapter, atomic } = await sides(backend, namespace);
		const keyv = new Keyv({ ...(adapter ? { store: adapter } : {}), namespace, throwOnErrors: true });
		keyv.on('error', (error: unknown) => logger.error({ err: error, store: backend.kind }, 'store error'));
		const store = new Store(backend, keyv, bound);
		// Touch the store once so a wrong URL or an unreachable store fails the start, not the first member's command.
		await store.get('accounts', '__probe__');
		logger.info({ store: backend.kind }, 'store ready');
		return { store, atomic: { ...boundAtomic(atomic, bound), close: () => backend.close() }, backend, close: () => backend.close() };
	} catch (error) {
		await backend.close().catch(() => undefined);
		throw error;
	}
}

/** keyv's adapter (none for memory://: keyv's own map) and the atomic operations, on the backend's connection. */
async function sides(backend: StoreBackend, namespace: string): Promise<{ adapter?: KeyvStoreAdapter; atomic: AtomicStore }> {
	switch (backend.kind) {
		case 'sqlite': {
			const { query } = backend;
			// Deleted rows are overwritten, not just unlinked: an unlinked member's tokens and a dismissed flag's text
			// must not linger in free pages of the file.
			await query('PRAGMA secure_delete = ON');
			// A write-ahead log: a read never waits behind a write (the link read before an ask's acknowledgement), and
			// a commit appends to the log instead of syncing the file twice. With synchronous NORMAL a commit survives a
			// crash of Veil; a power cut may lose the last few. The hourly sweep empties the log (see sweepExpired).
			await query('PRAGMA journal_mode = WAL');
			await query('PRAGMA synchronous = NORMAL');
			for (const statement of [SQLITE_KEYV_TABLE, ...SQLITE_ATOMIC_SCHEMA]) await query(statement);
			return { adapter: new SqliteKeyvAdapter(query), atomic: new SqliteAtomicStore(query, namespace) };
		}
		case 'redis': {
			const [{ default: KeyvRedis }, { RedisAtomicStore }] = await Promise.all([import('@keyv/redis'), import('./redisAtomicStore.js')]);
			const adapter = new KeyvRedis(backend.client, { throwOnConnectError: true, throwOnErrors: true });
			return { adapter: adapter as unknown as KeyvStoreAdapter, atomic: new RedisAtomicStore(backend.client, namespace) };
		}
		case 'memory':
			return { atomic: new MemoryAtomicStore() };
	}
}

/** The plain-record side of a store of its own (tests, tools). */
export async function openStore(storeUrl: string, logger: Logger, options: StoreOptions = {}): Promise<Store> {
	return (await openStorage(storeUrl, logger, options)).store;
}

/** The atomic side of a store of its own (tests, tools). */
export async function openAtomicStore(storeUrl: string, logger: Logger, options: StoreOptions = {}): Promise<AtomicStore> {
	return (await openStorage(storeUrl, logger, options)).atomic;
}
