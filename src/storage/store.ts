import type { Keyv } from 'keyv';
import type { StoreBackend } from './storeBackend.js';
import { PREFIXED_READ_TIMEOUT_MS, type StoreBound } from './storeBound.js';
import { StoreError } from './storeError.js';

/** The record kinds Veil keeps; each is a key prefix inside the one keyv namespace. */
type StoreArea =
	'accounts' | 'flags' | 'flag-index' | 'flag-cases' | 'flag-modlog' | 'settings' | 'conversations' | 'pending-questions' | 'answer-votes';

/**
 * A small key-value store over keyv, on the process's one store connection (see openStorage). Every operation is
 * bounded in time by the {@link StoreBound} the atomic operations share, and fails with StoreError, so a store that
 * hangs or breaks becomes a plain answer to the member, never an endless "thinking…".
 */
export class Store {
	readonly kind: StoreBackend['kind'];
	readonly #keyv: Keyv;
	readonly #bound: StoreBound;
	readonly #backend: StoreBackend;

	constructor(backend: StoreBackend, keyv: Keyv, bound: StoreBound) {
		this.kind = backend.kind;
		this.#keyv = keyv;
		this.#bound = bound;
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
		const removed = await this.#bound.write('sweep', () =>
			backend.query(`DELETE FROM keyv WHERE key LIKE ? AND json_extract(value, '$.expires') < ? RETURNING key`, `${namespace}:%`, now),
		);
		// The write-ahead log still holds earlier copies of the pages those rows were on: emptying it into the file
		// (where secure_delete has overwritten them) and truncating it leaves no copy behind.
		await this.#bound.write('checkpoint', () => backend.query('PRAGMA wal_checkpoint(TRUNCATE)'));
		return removed.length;
	}

	/** The raw value under `area:key`, or undefined. Callers parse it (zod) at this edge. */
	get(area: StoreArea, key: string): Promise<unknown> {
		return this.#bound.read(`get ${area}`, () => this.#keyv.get(`${area}:${key}`));
	}

	async getMany(area: StoreArea, keys: readonly string[]): Promise<unknown[]> {
		if (keys.length === 0) return [];
		return this.#bound.read(`getMany ${area}`, () => this.#keyv.getMany(keys.map((key) => `${area}:${key}`)));
	}

	/** Stores `value`; with `ttlMs` the store forgets it after that long. */
	async set(area: StoreArea, key: string, value: unknown, ttlMs?: number): Promise<void> {
		const ok = await this.#bound.write(`set ${area}`, () => this.#keyv.set(`${area}:${key}`, value, ttlMs));
		if (ok === false) throw new StoreError(`store refused set ${area}`);
	}

	/** Stores each value, each forgotten after its own `ttlMs` when it has one: one statement on SQLite, one transaction on Redis. */
	async setMany(area: StoreArea, entries: ReadonlyArray<{ readonly key: string; readonly value: unknown; readonly ttlMs?: number }>): Promise<void> {
		if (entries.length === 0) return;
		const results = await this.#bound.write(`set many ${area}`, () =>
			this.#keyv.setMany(entries.map(({ key, value, ttlMs }) => ({ key: `${area}:${key}`, value, ttl: ttlMs }))),
		);
		// Redis's adapter answers nothing: its transaction either ran or threw.
		if (Array.isArray(results) && results.some((ok) => ok === false)) throw new StoreError(`store refused set many ${area}`);
	}

	/** Deletes the record; true when there was one. */
	delete(area: StoreArea, key: string): Promise<boolean> {
		return this.#bound.write(`delete ${area}`, () => this.#keyv.delete(`${area}:${key}`));
	}

	/**
	 * Every live record of `area` as [key, value]: a look at all of them, for a one-time move of records an earlier
	 * version kept here (made at start, never on an ask's path; on Redis a scan of the namespace's keys).
	 */
	entries(area: StoreArea): Promise<Array<[key: string, value: unknown]>> {
		return this.#bound.read(`entries ${area}`, (signal) => this.#entries(area, signal), PREFIXED_READ_TIMEOUT_MS);
	}

	async #entries(area: StoreArea, signal: AbortSignal): Promise<Array<[key: string, value: unknown]>> {
		const namespace = this.#keyv.namespace ?? '';
		const prefix = `${namespace}:${area}:`;
		const backend = this.#backend;
		let raw: Array<[string, string]> = [];
		if (backend.kind === 'sqlite') {
			// A range of the primary key: ';' is the character after ':'.
			const rows = (await backend.query('SELECT key, value FROM keyv WHERE key >= ? AND key < ?', prefix, `${prefix.slice(0, -1)};`)) as Array<{
				key: string;
				value: string;
			}>;
			raw = rows.map(({ key, value }) => [key.slice(prefix.length), value]);
		} else if (backend.kind === 'redis') {
			// @keyv/redis puts its namespace and '::' before keyv's own prefix.
			const redisPrefix = `${namespace}::${prefix}`;
			for await (const keys of backend.client.scanIterator({ MATCH: `${redisPrefix.replace(/[*?[\]\\]/g, '\\$&')}*`, COUNT: 1000 })) {
				signal.throwIfAborted();
				if (keys.length === 0) continue;
				const values = await backend.client.mGet(keys);
				keys.forEach((key, n) => {
					const value = values[n];
					if (typeof value === 'string') raw.push([key.slice(redisPrefix.length), value]);
				});
			}
		} else if (this.#keyv.iterator) {
			// memory://: keyv's own map, whose iterator gives keys without the namespace and values as stored.
			const found: Array<[string, unknown]> = [];
			for await (const [key, value] of this.#keyv.iterator(undefined)) {
				if (typeof key === 'string' && key.startsWith(`${area}:`)) found.push([key.slice(area.length + 1), value]);
			}
			return found;
		}
		const now = Date.now();
		return raw.flatMap(([key, text]) => {
			const stored = parseStored(text);
			return stored && (stored.expires === undefined || stored.expires > now) ? [[key, stored.value] as [string, unknown]] : [];
		});
	}

	/** Closes the store's connection, which the atomic operations share. */
	close(): Promise<void> {
		return this.#backend.close();
	}
}

/** keyv's stored form: `{ value, expires }` as JSON. */
function parseStored(text: string): { value: unknown; expires?: number } | undefined {
	try {
		const parsed = JSON.parse(text) as { value?: unknown; expires?: unknown } | null;
		if (parsed === null || typeof parsed !== 'object' || !('value' in parsed)) return undefined;
		return { value: parsed.value, expires: typeof parsed.expires === 'number' ? parsed.expires : undefined };
	} catch {
		return undefined;
	}
}
