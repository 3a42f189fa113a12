import type { AtomicStore, IndexBounds, IndexEntry } from './atomicStore.js';
import type { SqliteQuery as Query } from './sqliteGate.js';
import { sqliteIncrement, sqliteReadCounts, sqliteSweepCounters, SQLITE_COUNTER_TABLE } from './dailyCounter.js';
import { sqliteCountDistinct, sqliteReadTallies, sqliteSweepTallies, sqliteTally, SQLITE_TALLY_TABLE, type TallyChange } from './tally.js';

/** The atomic side's tables, beside keyv's in the same file. */
export const SQLITE_ATOMIC_SCHEMA = [
	// Claims and compare-and-set values; `expires` NULL: kept until changed.
	'CREATE TABLE IF NOT EXISTS veil_values (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires INTEGER)',
	'CREATE TABLE IF NOT EXISTS veil_index (key TEXT NOT NULL, member TEXT NOT NULL, score REAL NOT NULL, expires INTEGER NOT NULL, PRIMARY KEY (key, member)) WITHOUT ROWID',
	'CREATE TABLE IF NOT EXISTS veil_maps (key TEXT NOT NULL, field TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (key, field)) WITHOUT ROWID',
	SQLITE_COUNTER_TABLE,
	SQLITE_TALLY_TABLE,
];

/**
 * Claims, compare-and-set values and sorted indexes as rows, each change one statement: SQLite runs a statement
 * whole under its write lock, so processes sharing the file cannot interleave inside one. Its changes go through
 * the connection's gate as writes (see boundAtomic), so one reported as failed never lands later.
 */
export class SqliteAtomicStore implements AtomicStore {
	readonly #query: Query;
	readonly #prefix: string;

	constructor(query: Query, namespace: string) {
		this.#query = query;
		this.#prefix = `${namespace}:`;
	}

	claim(key: string, value: string, ttlMs: number): Promise<string | undefined> {
		return this.#claim(key, value, ttlMs);
	}

	release(key: string, value: string): Promise<void> {
		return this.#release(key, value);
	}

	read(key: string): Promise<string | undefined> {
		return this.#read(key);
	}

	async readPrefixed(prefix: string): Promise<Array<{ key: string; value: string }>> {
		const name = this.#key(prefix);
		// substr, not LIKE: a key's own % and _ stay literal.
		const rows = (await this.#query(
			'SELECT key, value FROM veil_values WHERE substr(key, 1, ?) = ? AND (expires IS NULL OR expires > ?) ORDER BY key',
			name.length,
			name,
			Date.now(),
		)) as Array<{ key: string; value: string }>;
		return rows.map(({ key, value }) => ({ key: key.slice(this.#prefix.length), value }));
	}

	compareAndSet(key: string, expected: string | undefined, next: string): Promise<boolean> {
		return this.#compareAndSet(key, expected, next);
	}

	indexAdd(key: string, entries: readonly IndexEntry[], bounds: IndexBounds): Promise<void> {
		return this.#indexAdd(key, entries, bounds);
	}

	indexRead(key: string, minScore: number): Promise<IndexEntry[]> {
		return this.#indexRead(key, minScore);
	}

	indexRemove(key: string, members: readonly string[]): Promise<void> {
		return this.#indexRemove(key, members);
	}

	async indexKeys(prefix: string): Promise<string[]> {
		const name = this.#key(prefix);
		const rows = (await this.#query('SELECT DISTINCT key FROM veil_index WHERE substr(key, 1, ?) = ? ORDER BY key', name.length, name)) as Array<{
			key: string;
		}>;
		return rows.map(({ key }) => key.slice(this.#prefix.length));
	}

	async mapWrite(key: string, fields: ReadonlyArray<readonly [string, string | undefined]>, options?: { ifAbsent?: boolean }): Promise<void> {
		if (fields.length === 0) return;
		// Sets and removals are a statement each: Veil changes one field at a time, or only sets.
		const name = this.#key(key);
		const sets = fields.filter(([, value]) => value !== undefined).map(([field, value]) => ({ field, value }));
		const removals = fields.filter(([, value]) => value === undefined).map(([field]) => field);
		if (sets.length > 0) {
			await this.#query(
				`INSERT INTO veil_maps (key, field, value)
				SELECT ?, json_extract(value, '$.field'), json_extract(value, '$.value') FROM json_each(?) WHERE true
				ON CONFLICT (key, field) DO ${options?.ifAbsent ? 'NOTHING' : 'UPDATE SET value = excluded.value'}`,
				name,
				JSON.stringify(sets),
			);
		}
		if (removals.length > 0) {
			await this.#query('DELETE FROM veil_maps WHERE key = ? AND field IN (SELECT value FROM json_each(?))', name, JSON.stringify(removals));
		}
	}

	async mapRead(key: string): Promise<Map<string, string>> {
		const rows = (await this.#query('SELECT field, value FROM veil_maps WHERE key = ?', this.#key(key))) as Array<{ field: string; value: string }>;
		return new Map(rows.map(({ field, value }) => [field, value]));
	}

	increment(key: string, expiresAt: number): Promise<number> {
		return sqliteIncrement(this.#query, this.#key(key), expiresAt, Date.now());
	}

	async readCounts(keys: readonly string[]): Promise<number[]> {
		return sqliteReadCounts(
			this.#query,
			keys.map((key) => this.#key(key)),
			Date.now(),
		);
	}

	tally(changes: readonly TallyChange[]): Promise<void> {
		return sqliteTally(
			this.#query,
			changes.map((change) => ({ ...change, key: this.#key(change.key) })),
			Date.now(),
		);
	}

	async readTallies(keys: readonly string[]): Promise<Array<Map<string, number>>> {
		return sqliteReadTallies(
			this.#query,
			keys.map((key) => this.#key(key)),
			Date.now(),
		);
	}

	async countDistinct(groups: ReadonlyArray<readonly string[]>): Promise<number[]> {
		return sqliteCountDistinct(
			this.#query,
			groups.map((keys) => keys.map((key) => this.#key(key))),
			Date.now(),
		);
	}

	sweepExpired(now?: number): Promise<number> {
		return this.#sweepExpired(now);
	}

	async #claim(key: string, value: string, ttlMs: number): Promise<string | undefined> {
		const name = this.#key(key);
		// A claim released between the two statements is simply tried again.
		for (let attempt = 0; attempt < 3; attempt++) {
			const now = Date.now();
			const won = await this.#query(
				`INSERT INTO veil_values (key, value, expires) VALUES (?, ?, ?)
				ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires = excluded.expires
				WHERE veil_values.expires IS NOT NULL AND veil_values.expires <= ?
				RETURNING key`,
				name,
				value,
				now + ttlMs,
				now,
			);
			if (won.length > 0) return undefined;
			const held = await this.#read(key);
			if (held !== undefined) return held;
		}
		throw new Error('a claim kept changing hands');
	}

	async #release(key: string, value: string): Promise<void> {
		await this.#query('DELETE FROM veil_values WHERE key = ? AND value = ?', this.#key(key), value);
	}

	async #read(key: string): Promise<string | undefined> {
		const rows = (await this.#query(
			'SELECT value FROM veil_values WHERE key = ? AND (expires IS NULL OR expires > ?)',
			this.#key(key),
			Date.now(),
		)) as Array<{
			value: string;
		}>;
		return rows[0]?.value;
	}

	async #compareAndSet(key: string, expected: string | undefined, next: string): Promise<boolean> {
		const name = this.#key(key);
		const now = Date.now();
		const changed =
			expected === undefined
				? await this.#query(
						`INSERT INTO veil_values (key, value, expires) VALUES (?, ?, NULL)
						ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires = NULL
						WHERE veil_values.expires IS NOT NULL AND veil_values.expires <= ?
						RETURNING key`,
						name,
						next,
						now,
					)
				: await this.#query(
						'UPDATE veil_values SET value = ?, expires = NULL WHERE key = ? AND value = ? AND (expires IS NULL OR expires > ?) RETURNING key',
						next,
						name,
						expected,
						now,
					);
		return changed.length > 0;
	}

	async #indexAdd(key: string, entries: readonly IndexEntry[], bounds: IndexBounds): Promise<void> {
		if (entries.length === 0) return;
		const name = this.#key(key);
		// `WHERE true` tells SQLite's parser the ON CONFLICT belongs to the INSERT, not to a join.
		await this.#query(
			`INSERT INTO veil_index (key, member, score, expires)
			SELECT ?, json_extract(value, '$.member'), json_extract(value, '$.score'), ? FROM json_each(?) WHERE true
			ON CONFLICT (key, member) DO UPDATE SET score = excluded.score, expires = excluded.expires`,
			name,
			Date.now() + bounds.ttlMs,
			JSON.stringify(entries),
		);
		await this.#query(
			`DELETE FROM veil_index WHERE key = ? AND (score <= ? OR member NOT IN (
				SELECT member FROM veil_index WHERE key = ? ORDER BY score DESC LIMIT ?))`,
			name,
			bounds.minScore,
			name,
			bounds.limit,
		);
	}

	async #indexRead(key: string, minScore: number): Promise<IndexEntry[]> {
		const rows = (await this.#query(
			'SELECT member, score FROM veil_index WHERE key = ? AND score > ? ORDER BY score DESC',
			this.#key(key),
			minScore,
		)) as Array<{
			member: string;
			score: number;
		}>;
		return rows.map(({ member, score }) => ({ member, score }));
	}

	async #indexRemove(key: string, members: readonly string[]): Promise<void> {
		if (members.length === 0) return;
		await this.#query('DELETE FROM veil_index WHERE key = ? AND member IN (SELECT value FROM json_each(?))', this.#key(key), JSON.stringify(members));
	}

	async #sweepExpired(now = Date.now()): Promise<number> {
		const values = await this.#query('DELETE FROM veil_values WHERE key LIKE ? AND expires <= ? RETURNING key', `${this.#prefix}%`, now);
		const entries = await this.#query('DELETE FROM veil_index WHERE key LIKE ? AND expires <= ? RETURNING key', `${this.#prefix}%`, now);
		const counters = await sqliteSweepCounters(this.#query, this.#prefix, now);
		const tallies = await sqliteSweepTallies(this.#query, this.#prefix, now);
		return values.length + entries.length + counters + tallies;
	}

	/** The connection is the process's, closed with the store as a whole. */
	async close(): Promise<void> {}

	#key(key: string): string {
		return `${this.#prefix}${key}`;
	}
}
