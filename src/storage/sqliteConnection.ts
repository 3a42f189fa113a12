import sqlite3 from 'sqlite3';
import { SqliteGate, type SqliteQuery } from './sqliteGate.js';

/** Statements kept prepared: Veil runs a few dozen distinct ones; past this the oldest is finalized. */
const PREPARED_MAX = 64;

/** Copies of one statement that may run at once (as many as libuv's threads, by default). */
const COPIES_MAX = 4;

export interface SqliteConnection {
	readonly query: SqliteQuery;
	close(): Promise<void>;
}

/**
 * One connection to a SQLite file whose statements are prepared once and run again with new parameters. The
 * driver's `db.all(sql)` prepares, runs and finalizes each time, three trips to its thread pool per statement;
 * a prepared one takes one. (Measured beside an ask's link read and conversation save: about 40% less CPU.)
 * A statement in use by one call queues the next in the driver: callers at once get copies of it, up to four.
 */
export function openSqliteConnection(path: string, busyTimeoutMs: number): Promise<SqliteConnection> {
	return new Promise((resolve, reject) => {
		const database = new sqlite3.Database(path, (error) => {
			if (error) {
				reject(error);
				return;
			}
			database.configure('busyTimeout', busyTimeoutMs);
			resolve(new PreparedStatements(database));
		});
	});
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

interface Prepared {
	readonly statement: sqlite3.Statement;
	/** Settles when SQLite has prepared it; rejects with SQLite's own error when it could not. */
	readonly ready: Promise<void>;
	/** Calls handed to it and not yet answered. */
	running: number;
}

class PreparedStatements implements SqliteConnection {
	readonly #database: sqlite3.Database;
	/** The copies of each statement, by its SQL. */
	readonly #prepared = new Map<string, Prepared[]>();

	constructor(database: sqlite3.Database) {
		this.#database = database;
	}

	readonly query: SqliteQuery = async (sql, ...parameters) => {
		const prepared = this.#pick(sql);
		prepared.running++;
		try {
			// The driver drops the runs queued on a statement it could not prepare, without a word: each run waits
			// for the preparation instead, which after the first is a promise already settled.
			await prepared.ready;
			return await run(prepared.statement, parameters);
		} finally {
			prepared.running--;
		}
	};

	/**
	 * A copy of the statement that is free, or a new one while there are fewer than {@link COPIES_MAX}, or the least
	 * busy. The driver runs one call of a statement at a time and hands it the next only once the loop has taken
	 * the last one's answer: with one copy, reads made at once (every ask's link) are answered one a turn of a
	 * busy loop.
	 */
	#pick(sql: string): Prepared {
		const copies = this.#prepared.get(sql);
		if (!copies) return this.#prepare(sql, []);
		let least = copies[0] as Prepared;
		for (const copy of copies) {
			if (copy.running === 0) return copy;
			if (copy.running < least.running) least = copy;
		}
		return copies.length < COPIES_MAX ? this.#prepare(sql, copies) : least;
	}

	#prepare(sql: string, copies: Prepared[]): Prepared {
		let statement!: sqlite3.Statement;
		const ready = new Promise<void>((resolve, reject) => {
			statement = this.#database.prepare(sql, (error: Error | null) => {
				if (!error) {
					resolve();
					return;
				}
				// The driver has finalized it already; the next call prepares it afresh.
				const index = copies.indexOf(prepared);
				if (index >= 0) copies.splice(index, 1);
				if (copies.length === 0 && this.#prepared.get(sql) === copies) this.#prepared.delete(sql);
				reject(error);
			});
		});
		const prepared: Prepared = { statement, ready, running: 0 };
		copies.push(prepared);
		if (copies.length === 1) {
			this.#prepared.set(sql, copies);
			if (this.#prepared.size > PREPARED_MAX) {
				const [oldest, evicted] = this.#prepared.entries().next().value as [string, Prepared[]];
				this.#prepared.delete(oldest);
				// Runs after the calls already queued on it.
				for (const copy of evicted) copy.statement.finalize();
			}
		}
		return prepared;
	}

	close(): Promise<void> {
		for (const copies of this.#prepared.values()) for (const { statement } of copies) statement.finalize();
		this.#prepared.clear();
		return new Promise((resolve, reject) => this.#database.close((error) => (error ? reject(error) : resolve())));
	}
}

/** One run of a prepared statement, with its rows. */
function run(statement: sqlite3.Statement, parameters: unknown[]): Promise<unknown[]> {
	return new Promise((resolve, reject) => {
		statement.all(parameters, (error: Error | null, rows: unknown[]) => {
			if (!error) {
				resolve(rows);
				return;
			}
			// A statement that failed midway (SQLITE_BUSY on a write) stays active until it is reset, and with it
			// the connection's read snapshot: every later write on the connection then fails as busy, long after the
			// lock that caused it is gone. The driver resets a statement only at its next run, so reset it now.
			statement.reset(() => reject(error));
		});
	});
}
