import type { APIGuildMember, APIUser, GuildMemberFlags, UserFlags } from 'discord.js';
import { snowflake } from './ids.js';

const knownUsers = new Map<string, APIUser>();

/** What Discord sends of every user though discord.js types it optional (Discord's published API requires it). */
export const PLAIN_USER_FIELDS: Pick<APIUser, 'public_flags' | 'flags' | 'primary_guild'> = {
	public_flags: 0 as UserFlags,
	flags: 0 as UserFlags,
	primary_guild: null,
};

/** Users made by {@link makeUser}, so an emulator can resolve them in USER options without being told. */
export function lookupMadeUser(id: string): APIUser | undefined {
	return knownUsers.get(id);
}

/** A distinct Discord user (new snowflake on every call) with the fields discord.js reads. */
export function makeUser(username: string): APIUser {
	const user: APIUser = {
		id: snowflake(),
		username,
		global_name: username.charAt(0).toUpperCase() + username.slice(1),
		discriminator: '0',
		avatar: null,
		bot: false,
		...PLAIN_USER_FIELDS,
	};
	knownUsers.set(user.id, user);
	return user;
}

/** A guild member as Discord sends it, joined now, with these roles. */
export function memberPayload(user: APIUser, roles: string[]): APIGuildMember {
	return {
		user,
		nick: null,
		avatar: null,
		banner: null,
		roles,
		joined_at: new Date().toISOString(),
		premium_since: null,
		deaf: false,
		mute: false,
		flags: 0 as GuildMemberFlags,
		pending: false,
		communication_disabled_until: null,
	};
}
