import type { SqliteQuery } from './sqliteGate.js';
import type { RedisClient } from './redisBackend.js';

/**
 * One change of a tally: adds `by` to a field of the counting map `key`, or (`member`) makes `member` one of the
 * set `key`, whose size is a count of distinct members. Either is forgotten at `expiresAt`.
 */
export type TallyChange =
	| { readonly key: string; readonly field: string; readonly by: number; readonly expiresAt: number }
	| { readonly key: string; readonly member: string; readonly expiresAt: number };

/** The SQLite table of tallies: a counting map's fields, and a set's members as rows counting 0. */
export const SQLITE_TALLY_TABLE =
	'CREATE TABLE IF NOT EXISTS veil_tallies (key TEXT NOT NULL, field TEXT NOT NULL, n INTEGER NOT NULL, expires INTEGER NOT NULL, PRIMARY KEY (key, field)) WITHOUT ROWID';

/**
 * Every change in one statement, which SQLite runs whole under its write lock: rows are upserted one after another,
 * so two changes of one field in a batch both count. A set's member adds 0: it is counted as a row, once. A field
 * past its expiry that the sweep has not yet erased starts again.
 */
export async function sqliteTally(query: SqliteQuery, changes: readonly TallyChange[], now: number): Promise<void> {
	if (changes.length === 0) return;
	const rows = changes.map((change) =>
		'member' in change
			? { k: change.key, f: change.member, n: 0, e: change.expiresAt }
			: { k: change.key, f: change.field, n: change.by, e: change.expiresAt },
	);
	await query(
		`INSERT INTO veil_tallies (key, field, n, expires)
		SELECT json_extract(value, '$.k'), json_extract(value, '$.f'), json_extract(value, '$.n'), json_extract(value, '$.e') FROM json_each(?) WHERE true
		ON CONFLICT (key, field) DO UPDATE SET
			n = CASE WHEN veil_tallies.expires <= ? THEN excluded.n ELSE veil_tallies.n + excluded.n END,
			expires = max(veil_tallies.expires, excluded.expires)`,
		JSON.stringify(rows),
		now,
	);
}

/** Each counting map's live fields, in one statement. */
export async function sqliteReadTallies(query: SqliteQuery, keys: readonly string[], now: number): Promise<Array<Map<string, number>>> {
	if (keys.length === 0) return [];
	const rows = (await query(
		`SELECT key, field, n FROM veil_tallies WHERE key IN (SELECT value FROM json_each(?)) AND expires > ?`,
		JSON.stringify(keys),
		now,
	)) as Array<{ key: string; field: string; n: number }>;
	const maps = new Map(keys.map((key) => [key, new Map<string, number>()]));
	for (const { key, field, n } of rows) maps.get(key)?.set(field, n);
	return keys.map((key) => maps.get(key) ?? new Map());
}

/** How many distinct members each group of sets holds together, in one statement. */
export async function sqliteCountDistinct(query: SqliteQuery, groups: ReadonlyArray<readonly string[]>, now: number): Promise<number[]> {
	if (groups.length === 0) return [];
	const rows = (await query(
		`SELECT j.g AS g, COUNT(DISTINCT t.field) AS n
		FROM (SELECT json_extract(value, '$.g') AS g, json_extract(value, '$.k') AS k FROM json_each(?)) AS j
		JOIN veil_tallies AS t ON t.key = j.k AND t.expires > ?
		GROUP BY j.g`,
		JSON.stringify(groups.flatMap((keys, g) => keys.map((k) => ({ g, k })))),
		now,
	)) as Array<{ g: number; n: number }>;
	const counts = new Map(rows.map(({ g, n }) => [g, n]));
	return groups.map((_, g) => counts.get(g) ?? 0);
}

/** Erases the tallies past their expiry under `prefix`; returns how many rows. */
export async function sqliteSweepTallies(query: SqliteQuery, prefix: string, now: number): Promise<number> {
	const removed = await query('DELETE FROM veil_tallies WHERE key LIKE ? AND expires <= ? RETURNING key', `${prefix}%`, now);
	return removed.length;
}

// Every change of a batch in one script: each key its HINCRBY or SADD and its expiry, so none is left without one.
const TALLY = `
for i = 1, #KEYS do
	local at = (i - 1) * 3
	if ARGV[at + 2] == '' then
		redis.call('SADD', KEYS[i], ARGV[at + 1])
	else
		redis.call('HINCRBY', KEYS[i], ARGV[at + 1], ARGV[at + 2])
	end
	redis.call('PEXPIREAT', KEYS[i], ARGV[at + 3])
end
return #KEYS`;

/** Counting maps are hashes, sets are sets; `name` gives a key its namespace. */
export async function redisTally(client: RedisClient, changes: readonly TallyChange[], name: (key: string) => string): Promise<void> {
	if (changes.length === 0) return;
	const args = changes.flatMap((change) =>
		'member' in change
			? [change.member, '', String(Math.ceil(change.expiresAt))]
			: [change.field, String(change.by), String(Math.ceil(change.expiresAt))],
	);
	await client.eval(TALLY, { keys: changes.map((change) => name(change.key)), arguments: args });
}

export async function redisReadTallies(client: RedisClient, keys: readonly string[]): Promise<Array<Map<string, number>>> {
	// Issued together, the client sends them in one write.
	const hashes = await Promise.all(keys.map((key) => client.hGetAll(key)));
	return hashes.map((hash) => new Map(Object.entries(hash).map(([field, n]) => [field, Number(n) || 0])));
}

// The size of each group's union, counted inside Redis: only the counts come back, never the members.
const COUNT_DISTINCT = `
local counts = {}
local at = 0
for g = 1, #ARGV do
	local size = tonumber(ARGV[g])
	if size == 0 then
		counts[g] = 0
	else
		counts[g] = #redis.call('SUNION', unpack(KEYS, at + 1, at + size))
	end
	at = at + size
end
return counts`;

export async function redisCountDistinct(client: RedisClient, groups: ReadonlyArray<readonly string[]>): Promise<number[]> {
	if (groups.length === 0) return [];
	const counts = await client.eval(COUNT_DISTINCT, { keys: groups.flat(), arguments: groups.map((keys) => String(keys.length)) });
	if (!Array.isArray(counts)) throw new Error('the distinct count script returned no counts');
	return counts.map((n) => Number(n) || 0);
}

/** For `memory://`: one process, plain maps. */
export class MemoryTallies {
	readonly #maps = new Map<string, { fields: Map<string, number>; expires: number }>();
	readonly #sets = new Map<string, { members: Set<string>; expires: number }>();

	tally(changes: readonly TallyChange[], now: number): void {
		for (const change of changes) {
			if ('member' in change) {
				const held = this.#sets.get(change.key);
				const set = held && held.expires > now ? held : { members: new Set<string>(), expires: change.expiresAt };
				set.members.add(change.member);
				set.expires = change.expiresAt;
				this.#sets.set(change.key, set);
			} else {
				const held = this.#maps.get(change.key);
				const map = held && held.expires > now ? held : { fields: new Map<string, number>(), expires: change.expiresAt };
				map.fields.set(change.field, (map.fields.get(change.field) ?? 0) + change.by);
				map.expires = change.expiresAt;
				this.#maps.set(change.key, map);
			}
		}
	}

	read(keys: readonly string[], now: number): Array<Map<string, number>> {
		return keys.map((key) => {
			const held = this.#maps.get(key);
			return new Map<string, number>(held && held.expires > now ? held.fields : []);
		});
	}

	countDistinct(groups: ReadonlyArray<readonly string[]>, now: number): number[] {
		return groups.map((keys) => {
			const union = new Set<string>();
			for (const key of keys) {
				const held = this.#sets.get(key);
				if (held && held.expires > now) for (const member of held.members) union.add(member);
			}
			return union.size;
		});
	}

	sweep(now: number): number {
		let removed = 0;
		for (const store of [this.#maps, this.#sets] as const) {
			for (const [key, { expires }] of store) {
				if (expires <= now) {
					store.delete(key);
					removed++;
				}
			}
		}
		return removed;
	}
}
