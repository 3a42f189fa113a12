import type { SqliteQuery } from './sqliteGate.js';

// Counters the store itself adds to in one step: keyv can only read, then write, and two processes doing that at
// once would both write the same count. Each counter carries the moment it is forgotten.

/** The SQLite table of counters, beside keyv's own in the same file. */
export const SQLITE_COUNTER_TABLE =
	'CREATE TABLE IF NOT EXISTS veil_counters (key TEXT PRIMARY KEY, n INTEGER NOT NULL, expires INTEGER NOT NULL) WITHOUT ROWID';

/**
 * One statement, which SQLite runs whole under its write lock. A row past its expiry that the sweep has not yet
 * erased starts again from 1. (In an UPDATE every SET expression reads the row as it was.)
 */
export async function sqliteIncrement(query: SqliteQuery, key: string, expiresAt: number, now: number): Promise<number> {
	const rows = (await query(
		`INSERT INTO veil_counters (key, n, expires) VALUES (?, 1, ?)
		ON CONFLICT (key) DO UPDATE SET
			n = CASE WHEN veil_counters.expires <= ? THEN 1 ELSE veil_counters.n + 1 END,
			expires = CASE WHEN veil_counters.expires <= ? THEN excluded.expires ELSE veil_counters.expires END
		RETURNING n`,
		key,
		expiresAt,
		now,
		now,
	)) as Array<{ n: number }>;
	const count = rows[0]?.n;
	if (typeof count !== 'number') throw new Error('the counter statement returned no count');
	return count;
}

/** Counters as they stand (0: none, or expired), in one statement. */
export async function sqliteReadCounts(query: SqliteQuery, keys: readonly string[], now: number): Promise<number[]> {
	if (keys.length === 0) return [];
	const rows = (await query(
		`SELECT key, n FROM veil_counters WHERE key IN (${keys.map(() => '?').join(', ')}) AND expires > ?`,
		...keys,
		now,
	)) as Array<{ key: string; n: number }>;
	const counts = new Map(rows.map(({ key, n }) => [key, n]));
	return keys.map((key) => counts.get(key) ?? 0);
}

/** Erases the counters past their expiry under `prefix`; returns how many. */
export async function sqliteSweepCounters(query: SqliteQuery, prefix: string, now: number): Promise<number> {
	const removed = await query('DELETE FROM veil_counters WHERE key LIKE ? AND expires <= ? RETURNING key', `${prefix}%`, now);
	return removed.length;
}

// INCR and the expiry in one script, so a counter is never left without its expiry between two commands.
const INCREMENT = `
local n = redis.call('INCR', KEYS[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[1])
return n`;

/** What the counter needs of the Redis client. */
export interface RedisClient {
	eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

export async function redisIncrement(client: RedisClient, key: string, expiresAt: number): Promise<number> {
	const count = await client.eval(INCREMENT, { keys: [key], arguments: [String(Math.ceil(expiresAt))] });
	if (typeof count !== 'number') throw new Error('the counter script returned no count');
	return count;
}

/** For `memory://`: one process, so a plain map is atomic enough. */
export class MemoryCounters {
	readonly #counts = new Map<string, { n: number; expires: number }>();

	increment(key: string, expiresAt: number, now: number): number {
		const held = this.#counts.get(key);
		const next = held && held.expires > now ? { n: held.n + 1, expires: held.expires } : { n: 1, expires: expiresAt };
		this.#counts.set(key, next);
		return next.n;
	}

	read(key: string, now: number): number {
		const held = this.#counts.get(key);
		return held && held.expires > now ? held.n : 0;
	}

	sweep(now: number): number {
		let removed = 0;
		for (const [key, { expires }] of this.#counts) {
			if (expires <= now) {
				this.#counts.delete(key);
				removed++;
			}
		}
		return removed;
	}
}
