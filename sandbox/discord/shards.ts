import { randomInt } from 'node:crypto';

/** The shard count the local Discord recommends in `GET /gateway/bot`. */
export const RECOMMENDED_SHARDS = 4;

/** Identify buckets per 5 s: high enough that a process's shards all identify at once, as Discord allows big bots. */
export const MAX_CONCURRENCY = 16;

const DISCORD_EPOCH = 1_420_070_400_000n;

/** The shard a guild's events go to: `(guild_id >> 22) % shard_count`, as Discord routes them. */
export function shardOf(guildId: string, shardCount: number): number {
	return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

/** A fresh guild id (a snowflake of now) that belongs to `shard` of `shardCount`. */
export function guildIdOnShard(shard: number, shardCount: number): string {
	const count = BigInt(shardCount);
	const now = BigInt(Date.now()) - DISCORD_EPOCH;
	const ms = now - (now % count) + BigInt(shard);
	return ((ms << 22n) | BigInt(randomInt(1 << 22))).toString();
}
