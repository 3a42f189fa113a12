import type { APIGuildMember, APIOverwrite, APIRole, APIUser } from 'discord.js';

// The shapes of a guild and its channels, apart from model.ts: model.ts imports the helpers that read them
// (permissions, wire, automod), which would otherwise import them back from it, a cycle.

export interface ChannelModel {
	id: string;
	/** 0 guild text, 1 DM, 3 group DM. */
	type: number;
	name: string;
	guild_id: string | null;
	position: number;
	permission_overwrites: APIOverwrite[];
	topic: string | null;
	nsfw: boolean;
	/** Set by deleteChannel: REST calls then answer 404 Unknown Channel. */
	deleted: boolean;
	/** The other side of a DM channel. */
	recipient?: APIUser;
	/** The members of a group DM (the bot is never one: it only answers there through a member's install). */
	recipients?: APIUser[];
}

export interface GuildModel {
	id: string;
	name: string;
	owner_id: string;
	/** roles[0] is @everyone (id = guild id), roles[1] the bot's managed role. */
	roles: APIRole[];
	botRoleId: string;
	channels: ChannelModel[];
	/** members[0] is the bot; interaction users are added as they appear. */
	members: APIGuildMember[];
	joined_at: string;
	/**
	 * A server the bot is not in (see GuildOptions.withoutBot): no GUILD_CREATE, its guild and channel routes answer
	 * 403 Missing Access, and only a member's own install of the app reaches it.
	 */
	withoutBot?: boolean;
	/** The server's language (Community settings); absent: en-US. */
	preferred_locale?: string;
}
