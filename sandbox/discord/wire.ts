import type { APIRole, RoleFlags } from 'discord.js';
import type { ChannelModel, GuildModel } from './guildModel.js';

/** The wire form of a channel: guild text channels as GUILD_CREATE carries them, DMs with their recipient. */
export function channelPayload(channel: ChannelModel): Record<string, unknown> {
	if (channel.type === 1) {
		return { id: channel.id, type: 1, last_message_id: null, flags: 0, recipients: channel.recipient ? [channel.recipient] : [] };
	}
	if (channel.type === 3) {
		return {
			id: channel.id,
			type: 3,
			name: channel.name || null,
			icon: null,
			owner_id: channel.recipients?.[0]?.id,
			last_message_id: null,
			flags: 0,
			recipients: channel.recipients ?? [],
		};
	}
	if (channel.type === 11) {
		return {
			id: channel.id,
			type: 11,
			guild_id: channel.guild_id,
			name: channel.name,
			parent_id: channel.parent_id,
			owner_id: channel.owner_id,
			last_message_id: null,
			rate_limit_per_user: 0,
			flags: 0,
			message_count: 0,
			member_count: 1,
			thread_metadata: channel.thread_metadata,
		};
	}
	return {
		id: channel.id,
		type: channel.type,
		guild_id: channel.guild_id,
		name: channel.name,
		position: channel.position,
		permission_overwrites: channel.permission_overwrites,
		parent_id: null,
		topic: channel.topic,
		nsfw: channel.nsfw,
		last_message_id: null,
		rate_limit_per_user: 0,
		flags: 0,
	};
}

/** GET /guilds/:id, and the part of GUILD_CREATE that is not gateway-only. */
export function guildPayload(guild: GuildModel): Record<string, unknown> {
	return {
		id: guild.id,
		name: guild.name,
		icon: null,
		icon_hash: null,
		splash: null,
		discovery_splash: null,
		owner_id: guild.owner_id,
		afk_channel_id: null,
		afk_timeout: 300,
		widget_enabled: false,
		widget_channel_id: null,
		verification_level: 0,
		default_message_notifications: 0,
		explicit_content_filter: 0,
		roles: guild.roles,
		emojis: [],
		stickers: [],
		features: [],
		mfa_level: 0,
		application_id: null,
		system_channel_id: null,
		system_channel_flags: 0,
		rules_channel_id: null,
		max_presences: null,
		max_members: 500_000,
		vanity_url_code: null,
		description: null,
		banner: null,
		premium_tier: 0,
		premium_subscription_count: 0,
		preferred_locale: guild.preferred_locale ?? 'en-US',
		public_updates_channel_id: null,
		max_video_channel_users: 25,
		max_stage_video_channel_users: 50,
		nsfw_level: 0,
		premium_progress_bar_enabled: false,
		safety_alerts_channel_id: null,
		incidents_data: null,
		// Fields Discord's published API requires though discord.js reads none of them.
		home_header: null,
		region: 'deprecated',
		nsfw: false,
	};
}

/** GUILD_CREATE: everything discord.js needs to cache the guild, its channels, roles and `guild.members.me`. */
export function guildCreatePayload(guild: GuildModel): Record<string, unknown> {
	const channels = guild.channels.filter((c) => !c.deleted).map(channelPayload);
	return {
		...guildPayload(guild),
		joined_at: guild.joined_at,
		large: false,
		unavailable: false,
		member_count: guild.members.length,
		members: guild.members,
		channels,
		threads: [],
		presences: [],
		voice_states: [],
		stage_instances: [],
		guild_scheduled_events: [],
		soundboard_sounds: [],
		lazy: true,
		hub_type: null,
	};
}

/** A role as Discord sends it; `botId` makes it the bot's managed role. */
export function rolePayload(id: string, name: string, position: number, permissions: bigint, botId?: string): APIRole {
	return {
		id,
		name,
		color: 0,
		colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
		hoist: false,
		icon: null,
		unicode_emoji: null,
		position,
		permissions: permissions.toString(),
		managed: botId !== undefined,
		mentionable: false,
		flags: 0 as RoleFlags,
		...(botId ? { tags: { bot_id: botId } } : {}),
	};
}
