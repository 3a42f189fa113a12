import { redisIncrement } from './dailyCounter.js';
import { redisCountDistinct, redisReadTallies, redisTally, type TallyChange } from './tally.js';
import type { AtomicStore, IndexBounds, IndexEntry } from './atomicStore.js';
import type { RedisClient } from './redisBackend.js';

// Each script runs whole inside Redis: no other client's command lands between its read and its write.
const CLAIM = `
local held = redis.call('GET', KEYS[1])
if held then return held end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0`;

// ARGV[1] is '1' when a value is expected (ARGV[2]), '0' when the key must be empty.
const COMPARE_AND_SET = `
local held = redis.call('GET', KEYS[1])
if ARGV[1] == '1' then
	if held ~= ARGV[2] then return 0 end
elseif held then
	return 0
end
redis.call('SET', KEYS[1], ARGV[3])
return 1`;

/** Claims as SET-if-absent scripts, compare-and-set as a script, indexes as sorted sets. */
export class RedisAtomicStore implements AtomicStore {
	readonly #client: RedisClient;
	readonly #prefix: string;

	constructor(client: RedisClient, namespace: string) {
		this.#client = client;
		this.#prefix = `${namespace}:atomic:`;
	}

	async claim(key: string, value: string, ttlMs: number): Promise<string | undefined> {
		const held = await this.#client.eval(CLAIM, { keys: [this.#key(key)], arguments: [value, String(Math.max(1, Math.ceil(ttlMs)))] });
		return typeof held === 'string' ? held : undefined;
	}

	async release(key: string, value: string): Promise<void> {
		await this.#client.eval(RELEASE, { keys: [this.#key(key)], arguments: [value] });
	}

	async read(key: string): Promise<string | undefined> {
		return (await this.#client.get(this.#key(key))) ?? undefined;
	}

	async readPrefixed(prefix: string, signal?: AbortSignal): Promise<Array<{ key: string; value: string }>> {
		const found: Array<{ key: string; value: string }> = [];
		for await (const keys of this.#client.scanIterator({ MATCH: `${escapeGlob(this.#key(prefix))}*`, COUNT: 1000 })) {
			// A scan given up stops here rather than going on through the keyspace for no one.
			signal?.throwIfAborted();
			if (keys.length === 0) continue;
			const values = await this.#client.mGet(keys);
			for (const [n, key] of keys.entries()) {
				const value = values[n];
				// A key gone between the scan and the read, or an index under the prefix, is not a value.
				if (typeof value === 'string') found.push({ key: key.slice(this.#prefix.length), value });
			}
		}
		return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
	}

	async compareAndSet(key: string, expected: string | undefined, next: string): Promise<boolean> {
		const set = await this.#client.eval(COMPARE_AND_SET, {
			keys: [this.#key(key)],
			arguments: [expected === undefined ? '0' : '1', expected ?? '', next],
		});
		return set === 1;
	}

	async indexAdd(key: string, entries: readonly IndexEntry[], bounds: IndexBounds): Promise<void> {
		if (entries.length === 0) return;
		const name = this.#key(key);
		await this.#client
			.multi()
			.zAdd(
				name,
				entries.map(({ member, score }) => ({ value: member, score })),
			)
			.zRemRangeByScore(name, '-inf', bounds.minScore)
			.zRemRangeByRank(name, 0, -(bounds.limit + 1))
			.pExpire(name, Math.max(1, Math.ceil(bounds.ttlMs)))
			.exec();
	}

	async indexRead(key: string, minScore: number): Promise<IndexEntry[]> {
		const entries = await this.#client.zRangeWithScores(this.#key(key), '+inf', `(${minScore}`, { BY: 'SCORE', REV: true });
		return entries.map(({ value, score }) => ({ member: String(value), score }));
	}

	async indexRemove(key: string, members: readonly string[]): Promise<void> {
		if (members.length > 0) await this.#client.zRem(this.#key(key), [...members]);
	}

	async indexKeys(prefix: string, signal?: AbortSignal): Promise<string[]> {
		const found: string[] = [];
		for await (const keys of this.#client.scanIterator({ MATCH: `${escapeGlob(this.#key(prefix))}*`, COUNT: 1000, TYPE: 'zset' })) {
			signal?.throwIfAborted();
			for (const key of keys) found.push(key.slice(this.#prefix.length));
		}
		return found.sort();
	}

	async mapWrite(key: string, fields: ReadonlyArray<readonly [string, string | undefined]>, options?: { ifAbsent?: boolean }): Promise<void> {
		if (fields.length === 0) return;
		const name = this.#key(key);
		const batch = this.#client.multi();
		for (const [field, value] of fields) {
			if (value === undefined) batch.hDel(name, field);
			else if (options?.ifAbsent) batch.hSetNX(name, field, value);
			else batch.hSet(name, field, value);
		}
		await batch.exec();
	}

	async mapRead(key: string): Promise<Map<string, string>> {
		return new Map(Object.entries(await this.#client.hGetAll(this.#key(key))));
	}

	increment(key: string, expiresAt: number): Promise<number> {
		return redisIncrement(this.#client, this.#key(key), expiresAt);
	}

	/** Counters are plain keys that INCR made: one MGET. */
	async readCounts(keys: readonly string[]): Promise<number[]> {
		if (keys.length === 0) return [];
		const values = await this.#client.mGet(keys.map((key) => this.#key(key)));
		return values.map((value) => Number(value ?? 0) || 0);
	}

	tally(changes: readonly TallyChange[]): Promise<void> {
		return redisTally(this.#client, changes, (key) => this.#key(key));
	}

	readTallies(keys: readonly string[]): Promise<Array<Map<string, number>>> {
		return redisReadTallies(
			this.#client,
			keys.map((key) => this.#key(key)),
		);
	}

	countDistinct(groups: ReadonlyArray<readonly string[]>): Promise<number[]> {
		return redisCountDistinct(
			this.#client,
			groups.map((keys) => keys.map((key) => this.#key(key))),
		);
	}

	/** Redis expires keys by itself. */
	async sweepExpired(): Promise<number> {
		return 0;
	}

	/** The client is the process's, closed with the store as a whole. */
	async close(): Promise<void> {}

	#key(key: string): string {
		return `${this.#prefix}${key}`;
	}
}

/** `text` matched literally by a Redis glob pattern. */
function escapeGlob(text: string): string {
	return text.replace(/[*?[\]\\]/g, '\\$&');
}
