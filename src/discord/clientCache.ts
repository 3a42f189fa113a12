import { Options, type CacheFactory, type FetchChannelOptions } from 'discord.js';

/**
 * What discord.js keeps in memory for Veil: only what Veil reads, which is almost nothing. The server, channel, role
 * and message events its intents bring are taken from discord.js raw (gatewayScreen.ts), so it caches none of them;
 * what a command needs (a channel's overwrites, the server's roles) is fetched when it is needed, and what turns by
 * message need is kept per server by ServerFacts.
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
