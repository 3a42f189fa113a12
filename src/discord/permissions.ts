import { PermissionFlagsBits, type RepliableInteraction } from 'discord.js';
import { UserInputError } from '../errors/veilError.js';
import { sentence, type Sentence } from '../i18n/translate.js';

/** An interaction from a server, as discord.js types it: its guildId, member and permissions are there. */
export type InServer = 'cached' | 'raw';

/** A permission as a handler requires it, and as its refusal names it: by Discord's name in the reader's language. */
export interface NamedPermission {
	readonly flag: bigint;
	readonly name: Sentence;
}

export const MANAGE_SERVER: NamedPermission = { flag: PermissionFlagsBits.ManageGuild, name: sentence('members.permissions.ManageGuild') };
export const MANAGE_MESSAGES: NamedPermission = { flag: PermissionFlagsBits.ManageMessages, name: sentence('members.permissions.ManageMessages') };

/**
 * What a handler requires before it runs, declared on it and checked by the router: declared at all, the handler runs
 * in a server only; with `permission`, only for a member who holds it there.
 */
export interface Preconditions {
	readonly permission?: NamedPermission;
}

/**
 * Refuses, with a UserInputError the router turns into the answer, unless the interaction comes from a server and
 * the member holds the required permission there now. It reads `interaction.memberPermissions`, which Discord
 * computes for this very interaction (roles and channel overwrites included), so a permission taken away since the
 * command was run, or since a button was posted, is already gone. `default_member_permissions` only hides a command
 * in the picker; this is the check that counts. The refusal names the permission and nothing else.
 */
export function checkPreconditions(
	interaction: RepliableInteraction,
	requires: Preconditions,
): asserts interaction is RepliableInteraction<InServer> {
	if (!interaction.inGuild()) throw new UserInputError({ answer: sentence('members.general.serversOnly'), code: 'not_in_guild' });
	const { permission } = requires;
	if (permission && interaction.memberPermissions?.has(permission.flag) !== true) {
		throw new UserInputError({ answer: sentence('members.general.missingPermission', { permission: permission.name }), code: 'missing_permission' });
	}
}
