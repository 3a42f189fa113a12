import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Keyv, type KeyvStoreAdapter } from 'keyv';
import { StoreError } from './storeError.js';
import type { Logger } from '../logging/logger.js';

/** The record kinds Veil keeps; each is a key prefix inside the one keyv namespace. */
export type StoreArea = 'accounts' | 'flags' | 'flag-index' | 'settings' | 'conversations' | 'pending-questions';

export interface StoreOptions {
	/** keyv namespace; tests give each run its own so a shared Redis stays clean. */
	readonly namespace?: string;
	/** How long one operation may take before it fails with StoreError. */
	readonly operationTimeoutMs?: number;
}

/**
 * A small key-value store over keyv, chosen by STORE_URL. Every operation is bounded in time and fails with
 * StoreError, so a store that hangs or breaks becomes a plain answer to the member, never an endless "thinking…".
 */
export class Store {
	readonly kind: 'sqlite' | 'redis' | 'memory';
	readonly #keyv: Keyv;
	readonly #timeoutMs: number;
	readonly #sqlite: SqliteQuery | undefined;

	constructor(kind: Store['kind'], keyv: Keyv, timeoutMs: number, sqlite?: SqliteQuery) {
		this.kind = kind;
		this.#keyv = keyv;
		this.#timeoutMs = timeoutMs;
		this.#sqlite = sqlite;
	}

	/**
	 * Erases records whose time to live has passed; returns how many. Redis expires keys by itself, but keyv's SQLite
	 * adapter only drops an expired row when it is read again, and a flag past its retention may never be: without
	 * this sweep its prompt and text would stay in the file.
	 */
	async sweepExpired(now = Date.now()): Promise<number> {
		const sqlite = this.#sqlite;
		if (!sqlite) return 0;
		const namespace = this.#keyv.namespace ?? '';
		const removed = await this.#bounded('sweep', () =>
			sqlite(`DELETE FROM keyv WHERE key LIKE ? AND json_extract(value, '$.expires') < ? RETURNING key`, `${namespace}:%`, now),
		);
		// The write-ahead log still holds earlier copies of the pages those rows were on: emptying it into the file
		// (where secure_delete has overwritten them) and truncating it leaves no copy behind.
		await this.#bounded('checkpoint', () => sqlite('PRAGMA wal_checkpoint(TRUNCATE)'));
		return removed.length;
	}

	/** The raw value under `area:key`, or undefined. Callers parse it (zod) at this edge. */
	get(area: StoreArea, key: string): Promise<unknown> {
		return this.#bounded(`get ${area}`, () => this.#keyv.get(`${area}:${key}`));
	}

	async getMany(area: StoreArea, keys: readonly string[]): Promise<unknown[]> {
		if (keys.length === 0) return [];
		return this.#bounded(`getMany ${area}`, () => this.#keyv.getMany(keys.map((key) => `${area}:${key}`)));
	}

	/** Stores `value`; with `ttlMs` the store forgets it after that long. */
	async set(area: StoreArea, key: string, value: unknown, ttlMs?: number): Promise<void> {
		const ok = await this.#bounded(`set ${area}`, () => this.#keyv.set(`${area}:${key}`, value, ttlMs));
		if (ok === false) throw new StoreError(`store refused set ${area}`);
	}

	/** Deletes the record; true when there was one. */
	delete(area: StoreArea, key: string): Promise<boolean> {
		return this.#bounded(`delete ${area}`, () => this.#keyv.delete(`${area}:${key}`));
	}

	async close(): Promise<void> {
		await this.#keyv.disconnect().catch(() => undefined);
	}

	async #bounded<T>(what: string, operation: () => Promise<T>): Promise<T> {
		let timer: NodeJS.Timeout | undefined;
		const timeout = new Promise<never>((_, reject) => {
			timer = setTimeout(() => reject(new StoreError(`store did not answer ${what} within ${this.#timeoutMs} ms`)), this.#timeoutMs);
		});
		try {
			return await Promise.race([operation(), timeout]);
		} catch (error) {
			if (error instanceof StoreError) throw error;
			throw new StoreError(`store failed ${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
		} finally {
			clearTimeout(timer);
		}
	}
}

type SqliteQuery = (sql: string, ...parameters: unknown[]) => Promise<unknown[]>;

/** Parses `sqlite://PATH` into a filesystem path: relative to the working directory, or absolute with three slashes. */
export function sqlitePath(storeUrl: string): string {
	return resolve(storeUrl.slice('sqlite://'.length));
}

/** Opens the store named by STORE_URL, creating the SQLite file's directory when needed. */
export async function openStore(storeUrl: string, logger: Logger, options: StoreOptions = {}): Promise<Store> {
	const namespace = options.namespace ?? 'veil';
	const timeoutMs = options.operationTimeoutMs ?? 1000;
	let kind: Store['kind'];
	let adapter: KeyvStoreAdapter | undefined;
	let sqlite: SqliteQuery | undefined;
	if (storeUrl.startsWith('sqlite://')) {
		kind = 'sqlite';
		const path = sqlitePath(storeUrl);
		mkdirSync(dirname(path), { recursive: true });
		// Each back end's library is loaded only when the store uses it (the Redis client is large).
		const { default: KeyvSqlite } = await import('@keyv/sqlite');
		const sqliteAdapter = new KeyvSqlite({ uri: `sqlite://${path}`, busyTimeout: 5000 });
		sqlite = sqliteAdapter.query as SqliteQuery;
		// Deleted rows are overwritten, not just unlinked: an unlinked member's tokens and a dismissed flag's text
		// must not linger in free pages of the file.
		await sqlite('PRAGMA secure_delete = ON');
		// A write-ahead log: a read never waits behind a write (the link read before an ask's acknowledgement), and a
		// commit appends to the log instead of syncing the file twice. With synchronous NORMAL a commit survives a
		// crash of Veil; a power cut may lose the last few. The hourly sweep empties the log (see sweepExpired).
		await sqlite('PRAGMA journal_mode = WAL');
		await sqlite('PRAGMA synchronous = NORMAL');
		adapter = sqliteAdapter as unknown as KeyvStoreAdapter;
	} else if (/^rediss?:\/\//.test(storeUrl)) {
		kind = 'redis';
		const { default: KeyvRedis } = await import('@keyv/redis');
		adapter = new KeyvRedis(storeUrl, { throwOnConnectError: true, throwOnErrors: true });
	} else {
		kind = 'memory';
		logger.warn('STORE_URL is memory://: links, flags and settings are lost when the bot stops');
	}
	const keyv = new Keyv({ ...(adapter ? { store: adapter } : {}), namespace, throwOnErrors: true });
	keyv.on('error', (error: unknown) => {
		logger.error({ err: error, store: kind }, 'store error');
	});
	const store = new Store(kind, keyv, timeoutMs, sqlite);
	// Touch the store once so a wrong URL or an unreachable Redis fails the start, not the first member's command.
	await store.get('settings', '__probe__').catch(async (error: unknown) => {
		await store.close();
		throw error;
	});
	logger.info({ store: kind }, 'store ready');
	return store;
}
