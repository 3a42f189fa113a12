import { Options, type CacheFactory, type FetchChannelOptions } from 'discord.js';

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
