import { EventEmitter } from 'node:events';
import type { KeyvStoreAdapter, StoredData } from 'keyv';
import type { SqliteQuery } from './sqliteGate.js';

/** keyv's table, in the layout of @keyv/sqlite, so a file written by earlier versions reads the same. */
export const SQLITE_KEYV_TABLE = 'CREATE TABLE IF NOT EXISTS keyv (key VARCHAR(255) PRIMARY KEY, value TEXT)';

type Row = { key: string; value: string };

/**
 * keyv's SQLite adapter over the process's one connection. @keyv/sqlite 4 opens a connection of its own and takes
 * no other (its `connect` option is typed but overwritten in its constructor), so the plain records would contend
 * with the atomic operations for the file's lock: this adapter speaks keyv's adapter contract on the shared
 * connection instead, each operation one statement (its writes one upsert or one delete).
 */
export class SqliteKeyvAdapter extends EventEmitter implements KeyvStoreAdapter {
	readonly opts = { dialect: 'sqlite', table: 'keyv' };
	namespace?: string;
	readonly #query: SqliteQuery;

	constructor(query: SqliteQuery) {
		super();
		this.#query = query;
	}

	async get<Value>(key: string): Promise<StoredData<Value> | undefined> {
		const rows = (await this.#query('SELECT value FROM keyv WHERE key = ?', key)) as Row[];
		return rows[0]?.value as StoredData<Value> | undefined;
	}

	async getMany<Value>(keys: string[]): Promise<Array<StoredData<Value | undefined>>> {
		const rows = (await this.#query('SELECT key, value FROM keyv WHERE key IN (SELECT value FROM json_each(?))', JSON.stringify(keys))) as Row[];
		const byKey = new Map(rows.map(({ key, value }) => [key, value]));
		return keys.map((key) => byKey.get(key) as StoredData<Value | undefined>);
	}

	async set(key: string, value: string): Promise<boolean> {
		await this.#query('INSERT INTO keyv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', key, value);
		return true;
	}

	/** One upsert of them all (keyv would otherwise write one statement each). */
	async setMany(entries: Array<{ key: string; value: string }>): Promise<void> {
		// `WHERE true` tells SQLite's parser the ON CONFLICT belongs to the INSERT, not to a join.
		await this.#query(
			`INSERT INTO keyv (key, value) SELECT json_extract(value, '$.key'), json_extract(value, '$.value') FROM json_each(?) WHERE true
			ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
			JSON.stringify(entries.map(({ key, value }) => ({ key, value }))),
		);
	}

	async delete(key: string): Promise<boolean> {
		return (await this.#query('DELETE FROM keyv WHERE key = ? RETURNING key', key)).length > 0;
	}

	async deleteMany(keys: string[]): Promise<boolean> {
		return (await this.#query('DELETE FROM keyv WHERE key IN (SELECT value FROM json_each(?)) RETURNING key', JSON.stringify(keys))).length > 0;
	}

	async has(key: string): Promise<boolean> {
		return (await this.#query('SELECT 1 FROM keyv WHERE key = ?', key)).length > 0;
	}

	async clear(): Promise<void> {
		await this.#query('DELETE FROM keyv WHERE key LIKE ?', this.namespace ? `${this.namespace}:%` : '%');
	}

	/** The connection is the process's, closed with the store as a whole. */
	async disconnect(): Promise<void> {}
}
