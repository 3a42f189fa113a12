import { resolve } from 'node:path';
import { Keyv, type KeyvStoreAdapter } from 'keyv';
import { openGatedSqliteConnection } from './sqliteConnection.js';
import { prepareSqliteFile } from './sqliteFile.js';
import { SqliteGate, type OperationClock, type SqliteQuery } from './sqliteGate.js';
import { StoreError } from './storeError.js';
import { STORE_OPERATION_TIMEOUT_MS } from './storeBound.js';
import { recordStoreError } from '../operations/metrics.js';
import type { Logger } from '../logging/logger.js';

/** The record kinds Veil keeps; each is a key prefix inside the one keyv namespace. */
type StoreArea = 'accounts' | 'flags' | 'flag-index' | 'settings' | 'conversations' | 'pending-questions';

export interface StoreOptions {
	/** keyv namespace; tests give each run its own so a shared Redis stays clean. */
	readonly namespace?: string;
	/** How long one operation may take before it fails with StoreError. */
	readonly operationTimeoutMs?: number;
}

/** What a backend adds to keyv: SQLite's statement gate and raw queries, or whether Redis is connected now. */
type Backend =
	| { readonly kind: 'sqlite'; readonly gate: SqliteGate; readonly query: SqliteQuery }
	| { readonly kind: 'redis'; readonly connected: () => boolean }
	| { readonly kind: 'memory' };

/**
 * A small key-value store over keyv, chosen by STORE_URL. Every operation is bounded in time and fails with
 * StoreError, so a store that hangs or breaks becomes a plain answer to the member, never an endless "thinking…".
 *
 * A write reported as failed must not happen later. Where that is certain (SQLite's gate; Redis not connected, so
 * the command is never sent) the error says the store did not answer; where the command may still be on its way
 * (Redis did not answer a command it was sent) the error says the change may not have been saved.
 */
export class Store {
	readonly kind: Backend['kind'];
	readonly #keyv: Keyv;
	readonly #timeoutMs: number;
	readonly #backend: Backend;

	constructor(backend: Backend, keyv: Keyv, timeoutMs: number) {
		this.kind = backend.kind;
		this.#keyv = keyv;
		this.#timeoutMs = timeoutMs;
		this.#backend = backend;
	}

	/**
	 * Erases records whose time to live has passed; returns how many. Redis expires keys by itself, but keyv's SQLite
	 * adapter only drops an expired row when it is read again, and a flag past its retention may never be: without
	 * this sweep its prompt and text would stay in the file.
	 */
	async sweepExpired(now = Date.now()): Promise<number> {
		const backend = this.#backend;
		if (backend.kind !== 'sqlite') return 0;
		const namespace = this.#keyv.namespace ?? '';
		const removed = await this.#write('sweep', () =>
			backend.query(`DELETE FROM keyv WHERE key LIKE ? AND json_extract(value, '$.expires') < ? RETURNING key`, `${namespace}:%`, now),
		);
		// The write-ahead log still holds earlier copies of the pages those rows were on: emptying it into the file
		// (where secure_delete has overwritten them) and truncating it leaves no copy behind.
		await this.#write('checkpoint', () => backend.query('PRAGMA wal_checkpoint(TRUNCATE)'));
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
		const ok = await this.#write(`set ${area}`, () => this.#keyv.set(`${area}:${key}`, value, ttlMs));
		if (ok === false) throw new StoreError(`store refused set ${area}`);
	}

	/** Stores each value, each forgotten after its own `ttlMs` when it has one: one statement on SQLite, one transaction on Redis. */
	async setMany(area: StoreArea, entries: ReadonlyArray<{ readonly key: string; readonly value: unknown; readonly ttlMs?: number }>): Promise<void> {
		if (entries.length === 0) return;
		const results = await this.#write(`set many ${area}`, () => this.#keyv.setMany(entries.map(({ key, value, ttlMs }) => ({ key: `${area}:${key}`, value, ttl: ttlMs }))));
		// Redis's adapter answers nothing: its transaction either ran or threw.
		if (Array.isArray(results) && results.some((ok) => ok === false)) throw new StoreError(`store refused set many ${area}`);
	}

	/** Deletes the record; true when there was one. */
	delete(area: StoreArea, key: string): Promise<boolean> {
		return this.#write(`delete ${area}`, () => this.#keyv.delete(`${area}:${key}`));
	}

	async close(): Promise<void> {
		await this.#keyv.disconnect().catch(() => undefined);
	}

	/** A write: refused at once when Redis is not connected, since a command sent later would land after the answer. */
	#write<T>(what: string, operation: () => Promise<T>): Promise<T> {
		if (this.#backend.kind === 'redis' && !this.#backend.connected()) {
			recordStoreError();
			return Promise.reject(new StoreError(`store not connected: ${what} not sent`));
		}
		return this.#bounded(what, operation, true);
	}

	async #bounded<T>(what: string, operation: () => Promise<T>, writes = false): Promise<T> {
		const clock: OperationClock = { deadline: Date.now() + this.#timeoutMs, inFlight: 0 };
		const backend = this.#backend;
		// Only a SQLite write takes its place in the gate's line: a read cannot land later, and a member's link must not
		// be read behind other members' conversation saves.
		const running = backend.kind === 'sqlite' && writes ? backend.gate.run(clock, operation) : operation();
		// Whether a write that failed may still be applied: a SQLite statement that errs wrote nothing, so only one
		// still running at the deadline leaves a doubt; a Redis command that was sent may be applied whatever the
		// client saw.
		const unsure = () => writes && (backend.kind !== 'sqlite' || clock.inFlight > 0);
		let timer: NodeJS.Timeout | undefined;
		const timeout = new Promise<never>((_, reject) => {
			timer = setTimeout(() => {
				reject(new StoreError(`store did not answer ${what} within ${this.#timeoutMs} ms`, { outcomeUnknown: unsure() }));
			}, this.#timeoutMs);
		});
		try {
			return await Promise.race([running, timeout]);
		} catch (error) {
			recordStoreError();
			if (error instanceof StoreError) throw error;
			const reason = error instanceof Error ? error.message : String(error);
			throw new StoreError(`store failed ${what}: ${reason}`, { cause: error, outcomeUnknown: writes && backend.kind === 'redis' });
		} finally {
			clearTimeout(timer);
		}
	}
}

/** Parses `sqlite://PATH` into a filesystem path: relative to the working directory, or absolute with three slashes. */
export function sqlitePath(storeUrl: string): string {
	return resolve(storeUrl.slice('sqlite://'.length));
}

/** Opens the store named by STORE_URL, creating the SQLite file (private to Veil's user) and its directory when needed. */
export async function openStore(storeUrl: string, logger: Logger, options: StoreOptions = {}): Promise<Store> {
	const namespace = options.namespace ?? 'veil';
	const timeoutMs = options.operationTimeoutMs ?? STORE_OPERATION_TIMEOUT_MS;
	let backend: Backend;
	let adapter: KeyvStoreAdapter | undefined;
	if (storeUrl.startsWith('sqlite://')) {
		const path = sqlitePath(storeUrl);
		prepareSqliteFile(path, logger);
		const connection = await openGatedSqliteConnection(path, timeoutMs);
		// Each back end's library is loaded only when the store uses it (the Redis client is large).
		const { default: KeyvSqlite } = await import('@keyv/sqlite');
		const sqliteAdapter = new KeyvSqlite({ uri: `sqlite://${path}`, busyTimeout: connection.gate.busyTimeoutMs });
		// keyv's adapter creates its table on a connection of its own, then runs its statements on ours, which
		// keeps them prepared (see sqliteConnection.ts).
		await sqliteAdapter.query('SELECT 1');
		await sqliteAdapter.close();
		sqliteAdapter.query = connection.query;
		sqliteAdapter.close = connection.close;
		// keyv writes many entries with the adapter's setMany when it has one (else one statement each): here one
		// upsert of them all, in the shape of the adapter's own set.
		const table = sqliteAdapter.opts.table ?? 'keyv';
		Object.assign(sqliteAdapter, {
			setMany: async (entries: Array<{ key: string; value: unknown }>) => {
				await connection.query(
					`INSERT INTO ${table} (key, value) SELECT json_extract(value, '$.key'), json_extract(value, '$.value') FROM json_each(?) WHERE true
					ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
					JSON.stringify(entries.map(({ key, value }) => ({ key, value }))),
				);
				return entries.map(() => true);
			},
		});
		backend = { kind: 'sqlite', gate: connection.gate, query: connection.query };
		// Deleted rows are overwritten, not just unlinked: an unlinked member's tokens and a dismissed flag's text
		// must not linger in free pages of the file.
		await backend.query('PRAGMA secure_delete = ON');
		// A write-ahead log: a read never waits behind a write (the link read before an ask's acknowledgement), and a
		// commit appends to the log instead of syncing the file twice. With synchronous NORMAL a commit survives a
		// crash of Veil; a power cut may lose the last few. The hourly sweep empties the log (see sweepExpired).
		await backend.query('PRAGMA journal_mode = WAL');
		await backend.query('PRAGMA synchronous = NORMAL');
		adapter = sqliteAdapter as unknown as KeyvStoreAdapter;
	} else if (/^rediss?:\/\//.test(storeUrl)) {
		// Without the offline queue, a command issued while the connection is down fails at once instead of waiting
		// to be replayed after a reconnection, long after the member was told it failed. Reconnection itself goes on.
		const { default: KeyvRedis, createClient, defaultReconnectStrategy } = await import('@keyv/redis');
		const client = createClient({ url: storeUrl, disableOfflineQueue: true, socket: { reconnectStrategy: defaultReconnectStrategy } });
		backend = { kind: 'redis', connected: () => client.isReady };
		adapter = new KeyvRedis(client, { throwOnConnectError: true, throwOnErrors: true });
	} else {
		backend = { kind: 'memory' };
		logger.warn('STORE_URL is memory://: links, flags and settings are lost when the bot stops');
	}
	const keyv = new Keyv({ ...(adapter ? { store: adapter } : {}), namespace, throwOnErrors: true });
	keyv.on('error', (error: unknown) => {
		logger.error({ err: error, store: backend.kind }, 'store error');
	});
	const store = new Store(backend, keyv, timeoutMs);
	// Touch the store once so a wrong URL or an unreachable Redis fails the start, not the first member's command.
	await store.get('settings', '__probe__').catch(async (error: unknown) => {
		await store.close();
		throw error;
	});
	logger.info({ store: backend.kind }, 'store ready');
	return store;
}
