import { Events, GatewayDispatchEvents, Options, type CacheFactory, type Client, type FetchChannelOptions } from 'discord.js';

/**
 * What discord.js keeps in memory for Veil: only what Veil reads, which is almost nothing. Veil takes no gateway
 * intent but Auto Moderation Configuration (rule events only, read raw: see AutomodRuleCache), so Discord sends no
 * server, channel, role or member data and discord.js caches none of it; what a command needs (a channel's
 * overwrites, the server's roles) is fetched when it is needed.
 * What would still gather is everyone who ever used a command (a user, and a member per server) and the messages
 * Veil sends: none of them is read again, so none is kept. The bot's own user is, as discord.js expects.
 */
export const makeCache: CacheFactory = Options.cacheWithLimits({
	UserManager: { maxSize: 0, keepOverLimit: (user) => user.id === user.client.user.id },
	GuildMemberManager: 0,
	MessageManager: 0,
});

/**
 * How Veil fetches a channel it only sends to: whether or not discord.js knows its server (one joined since the
 * start is unknown), and without keeping it.
 */
export const FETCH_TO_SEND: FetchChannelOptions = { allowUnknownGuild: true, cache: false };

/**
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
