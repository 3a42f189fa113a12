import type { APIGuildMember, APIOverwrite, APIRole, APIUser } from 'discord.js';

// The shapes of a guild and its channels, apart from model.ts: model.ts imports the helpers that read them
// (permissions, wire, automod), which would otherwise import them back from it, a cycle.

export interface ChannelModel {
	id: string;
	/** 0 guild text, 1 DM, 3 group DM, 11 public thread. */
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
	/** A thread's channel; its permissions are the parent's (the thread's own overwrites list stays empty). */
	parent_id?: string;
	/** Who started a thread. */
	owner_id?: string;
	/** A thread's state: an archived thread takes no message until unarchived. */
	thread_metadata?: { archived: boolean; locked: boolean; auto_archive_duration: number; archive_timestamp: string };
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
