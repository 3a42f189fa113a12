import type { APIApplicationCommandInteractionDataOption } from 'discord.js';
import type { ChannelModel, DiscordState, GuildModel } from './model.js';
import { DM_APP_PERMISSIONS, memberPermissionsIn } from './permissions.js';
import { lookupMadeUser } from './users.js';
import { channelPayload } from './wire.js';

/**
 * `data.resolved` for a command's options, as Discord fills it: USER (with a member in guilds), CHANNEL (with the
 * invoker's permissions there), ROLE, MENTIONABLE and ATTACHMENT. Unknown users or channels throw: Discord could not send them.
 */
export function resolveOptions(
	state: DiscordState,
	options: readonly APIApplicationCommandInteractionDataOption[],
	ctx: {
		guild: GuildModel | undefined;
		invokerId: string;
		here: ChannelModel;
		channel: (id: string) => ChannelModel;
		attachment?: (id: string) => unknown;
	},
): Record<string, Record<string, unknown>> | undefined {
	const { guild, invokerId } = ctx;
	const resolved: Record<string, Record<string, unknown>> = {};
	const put = (kind: string, id: string, value: unknown) => {
		(resolved[kind] ??= {})[id] = value;
	};
	const user = (id: string) => {
		const found = state.users.get(id) ?? lookupMadeUser(id);
		if (!found) throw new Error(`slashCommand: unknown user ${id} in a USER option (make it with makeUser)`);
		put('users', id, found);
		if (guild) {
			const { user: _user, ...member } = state.ensureMember(guild.id, found);
			const permissions = memberPermissionsIn(guild, { id, roles: member.roles }, ctx.here);
			put('members', id, { ...member, roles: [...member.roles], permissions: permissions.toString() });
		}
	};
	const role = (id: string): boolean => {
		const found = guild?.roles.find((r) => r.id === id);
		if (found) put('roles', id, found);
		return Boolean(found);
	};
	const walk = (list: readonly APIApplicationCommandInteractionDataOption[]) => {
		for (const option of list) {
			if ('options' in option && option.options) walk(option.options);
			if (!('value' in option)) continue;
			const value = String(option.value);
			if (option.type === 6) user(value);
			else if (option.type === 11) {
				const file = ctx.attachment?.(value);
				if (!file) throw new Error(`slashCommand: unknown attachment ${value} in an ATTACHMENT option (make it with attach)`);
				put('attachments', value, file);
			} else if (option.type === 8) role(value);
			else if (option.type === 9) {
				if (!role(value)) user(value);
			} else if (option.type === 7) {
				const channel = ctx.channel(value);
				const invoker = guild ? state.member(guild.id, invokerId) : undefined;
				const permissions = guild && invoker ? memberPermissionsIn(guild, { id: invokerId, roles: invoker.roles }, channel) : DM_APP_PERMISSIONS;
				const { permission_overwrites: _overwrites, ...rest } = channelPayload(channel);
				put('channels', value, { ...rest, permissions: permissions.toString() });
			}
		}
	};
	walk(options);
	return Object.keys(resolved).length ? resolved : undefined;
}
