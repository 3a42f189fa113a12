import { KeyedLock } from './keyedLock.js';
import { StoreError } from './storeError.js';

const READ_STATEMENT = /^\s*SELECT\b/i;

export type SqliteQuery = (sql: string, ...parameters: unknown[]) => Promise<unknown[]>;

/** One store operation as the gate sees it: when it must be over, and whether a statement of it is running. */
export interface OperationClock {
	readonly deadline: number;
	inFlight: number;
}

/**
 * Keeps a SQLite write that Veil reported as failed from happening later. A statement blocked by another
 * connection's lock waits up to `busyTimeoutMs` (SQLite's busy_timeout) and then fails without writing; that alone
 * is not enough, because statements queued behind a blocked one would each start their own wait after the caller
 * had been told. So writing operations run one at a time on the connection (a read cannot land later, so callers
 * run it beside them, outside the line), and
 * a statement starts only while its whole wait still fits before its operation's deadline; past that it is refused,
 * unsent.
 */
export class SqliteGate {
	readonly busyTimeoutMs: number;
	readonly #queue = new KeyedLock();
	#current: OperationClock | undefined;

	constructor(busyTimeoutMs: number) {
		this.busyTimeoutMs = busyTimeoutMs;
	}

	/** Runs `operation` once every earlier one has ended, its statements timed by `clock`. */
	run<T>(clock: OperationClock, operation: () => Promise<T>): Promise<T> {
		return this.#queue.run('connection', async () => {
			this.#current = clock;
			try {
				return await operation();
			} finally {
				this.#current = undefined;
			}
		});
	}

	/** The adapter's query, refusing any statement that could still be waiting for a lock at its deadline. */
	wrap(query: SqliteQuery): SqliteQuery {
		return async (sql, ...parameters) => {
			// A read, whichever operation it belongs to, is never timed against a write's deadline.
			if (READ_STATEMENT.test(sql)) return query(sql, ...parameters);
			const clock = this.#current;
			// Twice the wait: the statement's own work and the answer's way back need time before the deadline too.
			if (clock && clock.deadline - Date.now() < 2 * this.busyTimeoutMs) {
				throw new StoreError('store did not answer in time: statement not started');
			}
			if (clock) clock.inFlight++;
			try {
				return await query(sql, ...parameters);
			} finally {
				if (clock) clock.inFlight--;
			}
		};
	}
}
