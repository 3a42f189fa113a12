import { PermissionFlagsBits, type APIOverwrite } from 'discord.js';
import type { ChannelModel, GuildModel } from './guildModel.js';

const P = PermissionFlagsBits;

/** What a plain member has in a channel: no moderation bits such as ManageMessages. */
export const PLAIN_MEMBER_PERMISSIONS = P.ViewChannel | P.SendMessages | P.ReadMessageHistory | P.UseApplicationCommands;

/** The bot role's default: enough to post answers with embeds and files, nothing more. */
export const DEFAULT_BOT_PERMISSIONS = P.ViewChannel | P.SendMessages | P.EmbedLinks | P.AttachFiles | P.ReadMessageHistory;

/** Discord sends these as app_permissions in a bot DM. */
export const DM_APP_PERMISSIONS =
	P.ViewChannel | P.SendMessages | P.EmbedLinks | P.AttachFiles | P.ReadMessageHistory | P.AddReactions | P.UseExternalEmojis;

export const ALL_PERMISSIONS = Object.values(P).reduce((all, bit) => all | bit, 0n);

/**
 * Discord's channel permission algorithm: base from roles, Administrator short-circuits, then the @everyone
 * overwrite, the member's role overwrites (all denies before all allows), then the member's own overwrite.
 */
export function channelPermissions(
	base: bigint,
	overwrites: readonly APIOverwrite[],
	guildId: string,
	roleIds: readonly string[],
	memberId: string,
): bigint {
	if ((base & P.Administrator) !== 0n) return ALL_PERMISSIONS;
	let perms = base;
	let roleDeny = 0n;
	let roleAllow = 0n;
	let member: APIOverwrite | undefined;
	for (const ow of overwrites) {
		if (ow.id === guildId) {
			perms = (perms & ~BigInt(ow.deny)) | BigInt(ow.allow);
		} else if (ow.type === 1) {
			if (ow.id === memberId) member = ow;
		} else if (roleIds.includes(ow.id)) {
			roleDeny |= BigInt(ow.deny);
			roleAllow |= BigInt(ow.allow);
		}
	}
	perms = (perms & ~roleDeny) | roleAllow;
	if (member) perms = (perms & ~BigInt(member.deny)) | BigInt(member.allow);
	return perms;
}

/** Whose permissions: a user id and the ids of their roles (never @everyone, which every member has). */
export interface PermissionHolder {
	readonly id: string;
	readonly roles: readonly string[];
}

/**
 * A member's permissions as Discord computes them, in a channel or (without one) server-wide: the owner has all;
 * otherwise @everyone's bits with the member's roles' bits, Administrator giving all, then the channel's overwrites.
 */
export function memberPermissionsIn(guild: GuildModel, member: PermissionHolder, channel?: ChannelModel): bigint {
	if (member.id === guild.owner_id) return ALL_PERMISSIONS;
	let base = 0n;
	for (const role of guild.roles) {
		if (role.id === guild.id || member.roles.includes(role.id)) base |= BigInt(role.permissions);
	}
	if (!channel || channel.type === 1) return (base & P.Administrator) !== 0n ? ALL_PERMISSIONS : base;
	// A thread has the permissions of its parent channel.
	const parent = channel.parent_id ? guild.channels.find((candidate) => candidate.id === channel.parent_id) : undefined;
	return channelPermissions(base, (parent ?? channel).permission_overwrites, guild.id, member.roles, member.id);
}

/** The bot's effective permissions in a channel: what app_permissions carries and what REST enforces. */
export function botChannelPermissions(guild: GuildModel, channel: ChannelModel, botId: string): bigint {
	// members[0] is always the bot (see GuildModel), which keeps this O(roles) on the REST hot path.
	return memberPermissionsIn(guild, { id: botId, roles: guild.members[0]?.roles ?? [] }, channel);
}
