import { EventEmitter } from 'node:events';
import type { KeyvStoreAdapter, StoredData } from 'keyv';
import type { SqliteQuery } from './sqliteGate.js';

/** The table keyv's records live in, as @keyv/sqlite made it: files written by earlier versions open as they are. */
export const KEYV_TABLE = 'keyv';

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS ${KEYV_TABLE}(key VARCHAR(255) PRIMARY KEY, value TEXT )`;

type Row = { key: string; value: string };

/**
 * keyv's store adapter for SQLite, over Veil's own connection (see sqliteConnection.ts). @keyv/sqlite always opens
 * the file with node-sqlite3, another copy of SQLite; two copies must never open one file in one process (closing
 * either's file drops the other's locks), and a second native driver costs memory for nothing. The table and the
 * statements are @keyv/sqlite's own, so a file either wrote opens with the other. Expiry stays keyv's (in the value).
 */
export class SqliteKeyvAdapter extends EventEmitter implements Pick<KeyvStoreAdapter, 'get' | 'set' | 'delete' | 'clear' | 'getMany' | 'deleteMany' | 'has' | 'disconnect'> {
	readonly opts = { dialect: 'sqlite', table: KEYV_TABLE };
	namespace?: string | undefined;
	readonly #query: SqliteQuery;
	readonly #close: () => Promise<void>;

	private constructor(query: SqliteQuery, close: () => Promise<void>) {
		super();
		this.#query = query;
		this.#close = close;
	}

	/** Creates the table when the file has none, then adapts the connection. */
	static async open(connection: { query: SqliteQuery; close: () => Promise<void> }): Promise<SqliteKeyvAdapter> {
		await connection.query(CREATE_TABLE);
		return new SqliteKeyvAdapter(connection.query, connection.close);
	}

	async get<Value>(key: string): Promise<StoredData<Value> | undefined> {
		const rows = (await this.#query(`SELECT * FROM ${KEYV_TABLE} WHERE key = ?`, key)) as Row[];
		return rows[0]?.value as StoredData<Value> | undefined;
	}

	async getMany<Value>(keys: string[]): Promise<Array<StoredData<Value | undefined>>> {
		const rows = (await this.#query(`SELECT * FROM ${KEYV_TABLE} WHERE key IN (SELECT value FROM json_each(?))`, JSON.stringify(keys))) as Row[];
		const byKey = new Map(rows.map((row) => [row.key, row.value]));
		return keys.map((key) => byKey.get(key) as StoredData<Value | undefined>);
	}

	async set(key: string, value: unknown): Promise<void> {
		await this.#query(`INSERT INTO ${KEYV_TABLE} (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value);
	}

	/** One statement: whether a row went, from the row it returned. */
	async delete(key: string): Promise<boolean> {
		return (await this.#query(`DELETE FROM ${KEYV_TABLE} WHERE key = ? RETURNING key`, key)).length > 0;
	}

	async deleteMany(keys: string[]): Promise<boolean> {
		return (await this.#query(`DELETE FROM ${KEYV_TABLE} WHERE key IN (SELECT value FROM json_each(?)) RETURNING key`, JSON.stringify(keys))).length > 0;
	}

	async has(key: string): Promise<boolean> {
		return (await this.#query(`SELECT 1 FROM ${KEYV_TABLE} WHERE key = ?`, key)).length > 0;
	}

	async clear(): Promise<void> {
		await this.#query(`DELETE FROM ${KEYV_TABLE} WHERE key LIKE ?`, this.namespace ? `${this.namespace}:%` : '%');
	}

	disconnect(): Promise<void> {
		return this.#close();
	}
}
