import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { SqliteGate, type SqliteQuery } from './sqliteGate.js';

/** Statements kept prepared: Veil runs a few dozen distinct ones; past this the oldest is let go. */
const PREPARED_MAX = 64;

/** SQLite's own busy handler's pauses between tries at a lock (sqliteDefaultBusyCallback), then 100 ms each. */
const BUSY_PAUSES_MS = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100];

export interface SqliteConnection {
	readonly query: SqliteQuery;
	close(): Promise<void>;
}

/**
 * One connection to a SQLite file, run on the event loop's own thread: a statement of Veil's takes some tens of
 * microseconds, less than a trip to a thread pool and back, and an ask that reads a link and saves a conversation
 * then wakes the process twice less. Statements are prepared once and run again with new parameters.
 *
 * SQLite itself never waits for a lock here (its busy timeout is 0), since that wait would stop the whole process.
 * A statement that meets another connection's lock is tried again after the pauses SQLite's own handler takes,
 * between other work, for up to `busyTimeoutMs`; then it fails with SQLite's "database is locked", having written
 * nothing, as with SQLite's busy_timeout.
 */
export function openSqliteConnection(path: string, busyTimeoutMs: number): Promise<SqliteConnection> {
	try {
		return Promise.resolve(new PreparedStatements(new Database(path, { timeout: 0 }), busyTimeoutMs));
	} catch (error) {
		return Promise.reject(error as Error);
	}
}

/** A connection whose statements go through its own {@link SqliteGate}, the way both SQLite stores use one. */
export interface GatedSqliteConnection extends SqliteConnection {
	readonly gate: SqliteGate;
}

/**
 * Opens a connection for operations that must end within `timeoutMs`: a lock held by another connection fails a
 * statement after a quarter of that bound (see SqliteGate), and the gate keeps any statement from starting too late.
 */
export async function openGatedSqliteConnection(path: string, timeoutMs: number): Promise<GatedSqliteConnection> {
	const gate = new SqliteGate(Math.max(1, Math.floor(timeoutMs / 4)));
	const connection = await openSqliteConnection(path, gate.busyTimeoutMs);
	return { gate, query: gate.wrap(connection.query), close: () => connection.close() };
}

/** SQLITE_BUSY and its extended codes: another connection holds the lock a statement needs. */
const isBusy = (error: unknown): boolean => typeof (error as { code?: unknown } | null)?.code === 'string' && (error as { code: string }).code.startsWith('SQLITE_BUSY');

/** better-sqlite3 binds numbers, strings, bigints, buffers and null; the old driver also took booleans and undefined. */
const bindable = (value: unknown): unknown => (value === undefined ? null : typeof value === 'boolean' ? Number(value) : value);

class PreparedStatements implements SqliteConnection {
	readonly #database: Database.Database;
	readonly #busyTimeoutMs: number;
	readonly #prepared = new Map<string, Database.Statement>();

	constructor(database: Database.Database, busyTimeoutMs: number) {
		this.#database = database;
		this.#busyTimeoutMs = busyTimeoutMs;
	}

	readonly query: SqliteQuery = async (sql, ...parameters) => {
		const values = parameters.map(bindable);
		const started = Date.now();
		for (let attempt = 0; ; attempt++) {
			try {
				return this.#run(sql, values);
			} catch (error) {
				const pause = BUSY_PAUSES_MS[Math.min(attempt, BUSY_PAUSES_MS.length - 1)] as number;
				const left = this.#busyTimeoutMs - (Date.now() - started);
				if (!isBusy(error) || left <= 0) throw error;
				await sleep(Math.min(pause, left));
			}
		}
	};

	#run(sql: string, values: unknown[]): unknown[] {
		const statement = this.#prepare(sql);
		if (statement.reader) return statement.all(...values);
		statement.run(...values);
		return [];
	}

	#prepare(sql: string): Database.Statement {
		const known = this.#prepared.get(sql);
		if (known) return known;
		const statement = this.#database.prepare(sql);
		this.#prepared.set(sql, statement);
		if (this.#prepared.size > PREPARED_MAX) this.#prepared.delete(this.#prepared.keys().next().value as string);
		return statement;
	}

	close(): Promise<void> {
		this.#prepared.clear();
		this.#database.close();
		return Promise.resolve();
	}
}
