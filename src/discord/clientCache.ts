import { Events, Options, type CacheFactory, type Client, type FetchChannelOptions } from 'discord.js';

/**
 * What discord.js keeps in memory for Veil: only what Veil reads, which is almost nothing. Veil takes no gateway
 * intent (interactions need none), so Discord sends no server, channel, role or member data and discord.js caches
 * none of it; what a command needs (a channel's overwrites, the server's roles) is fetched when it is needed.
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
 * READY lists every server of a shard, and discord.js turns each entry into a Guild object (about 3 KB, a dozen empty
 * managers). With no intent nothing more ever arrives about them and Veil reads none (an interaction carries what it
 * needs), so each shard's list is counted and the objects dropped. Returns the number of servers, for the log.
 */
export function dropGuildStubs(client: Client): () => number {
	const perShard = new Map<number, number>();
	client.on(Events.ShardReady, (shardId, unavailable) => {
		perShard.set(shardId, unavailable?.size ?? 0);
		client.guilds.cache.clear();
	});
	return () => [...perShard.values()].reduce((sum, count) => sum + count, 0);
}
