import type { Keyv } from 'keyv';
import type { StoreBackend } from './storeBackend.js';
import type { StoreBound } from './storeBound.js';
import { StoreError } from './storeError.js';

/** The record kinds Veil keeps; each is a key prefix inside the one keyv namespace. */
type StoreArea = 'accounts' | 'flags' | 'flag-index' | 'settings' | 'conversations' | 'pending-questions';

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
		const results = await this.#bound.write(`set many ${area}`, () => this.#keyv.setMany(entries.map(({ key, value, ttlMs }) => ({ key: `${area}:${key}`, value, ttl: ttlMs }))));
		// Redis's adapter answers nothing: its transaction either ran or threw.
		if (Array.isArray(results) && results.some((ok) => ok === false)) throw new StoreError(`store refused set many ${area}`);
	}

	/** Deletes the record; true when there was one. */
	delete(area: StoreArea, key: string): Promise<boolean> {
		return this.#bound.write(`delete ${area}`, () => this.#keyv.delete(`${area}:${key}`));
	}

	/** Closes the store's connection, which the atomic operations share. */
	close(): Promise<void> {
		return this.#backend.close();
	}
}

