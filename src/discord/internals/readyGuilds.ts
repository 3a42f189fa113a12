import { Events, GatewayDispatchEvents, type Client } from 'discord.js';

/**
 * Reaches past discord.js's public API; checked against discord.js 14.28.1 (its WebSocketManager and READY handler).
 * It relies on discord.js emitting each gateway dispatch as `Events.Raw`, the packet object itself, before its own
 * handler reads the packet, and on the READY handler building a Guild for each entry of `d.guilds`.
 * test/unit/discord/internals/readyGuilds.test.ts fails when either changes.
 *
 * READY lists every server of a shard, and discord.js would turn each entry into a Guild object (about 3 KB, a dozen
 * empty managers) before Veil could drop it: 7.5 MB of garbage at 2,500 servers, and memory the process keeps
 * afterwards. With no Guilds intent nothing more ever arrives about them and Veil reads none (an interaction carries what it
 * needs), so the list is counted and emptied when the packet is emitted raw, before discord.js handles it. The
 * shard's own bookkeeping (the servers it waits for, none without the Guilds intent) has read the list already.
 * Returns the number of servers, for the log.
 */
export function dropGuildStubs(client: Client): () => number {
	const perShard = new Map<number, number>();
	client.on(Events.Raw, (packet: { t?: string | null; d?: { guilds?: unknown[] } }, shardId: number) => {
		if (packet.t !== GatewayDispatchEvents.Ready || !Array.isArray(packet.d?.guilds)) return;
		perShard.set(shardId, packet.d.guilds.length);
		packet.d.guilds = [];
	});
	// Whatever still reached the cache (nothing, unless discord.js changes how READY is handled) goes too.
	client.on(Events.ShardReady, () => client.guilds.cache.clear());
	return () => [...perShard.values()].reduce((sum, count) => sum + count, 0);
}
