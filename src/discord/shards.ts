import type { ClientOptions } from 'discord.js';
import type { ShardSettings } from '../config/shardIds.js';

/**
 * discord.js's own sharding options for this process: the configured slice of `SHARD_COUNT`, every shard of it, or,
 * with no count, as many as Discord recommends (`GET /gateway/bot`), all run here.
 */
export function clientShardOptions(settings: ShardSettings): Pick<ClientOptions, 'shards' | 'shardCount'> {
	const { shardCount, shardIds } = settings;
	if (shardCount === undefined) return { shards: 'auto' };
	return { shards: [...(shardIds ?? Array.from({ length: shardCount }, (_, id) => id))], shardCount };
}

/**
 * The Client reads `SHARD_COUNT` and `SHARDS` from the environment again whenever an option equals its default
 * (a shard count of 1, or `shards: 'auto'`), and an empty `SHARD_COUNT`, as a `.env` copied from `.env.example`
 * has, makes it throw. Veil has read both already (see the README's deployments), so they are dropped before it
 * looks.
 */
export function forgetShardEnvironment(env: NodeJS.ProcessEnv = process.env): void {
	delete env.SHARD_COUNT;
	delete env.SHARDS;
}
