import type { PermissionResolvable, RepliableInteraction } from 'discord.js';
import { UserInputError } from '../answers/veilError.js';
import { sentence } from '../i18n/translate.js';

/**
 * Refuses, with a UserInputError the router turns into the answer, unless the interaction comes from a server and
 * the member holds `permission` there now. It reads `interaction.memberPermissions`, which Discord computes for
 * this very interaction (roles and channel overwrites included), so a permission taken away since the command was
 * run, or since a button was posted, is already gone. `default_member_permissions` only hides a command in the
 * picker; this is the check that counts. The refusal names the permission and nothing else.
 *
 * @returns the server's id, for scoping whatever the caller reads next
 */
export function requirePermission(
	interaction: RepliableInteraction,
	permission: PermissionResolvable,
	permissionName: string,
): string {
	if (!interaction.inGuild()) throw new UserInputError({ answer: sentence('members.general.serversOnly'), code: 'not_in_guild' });
	if (!interaction.memberPermissions?.has(permission)) {
		throw new UserInputError({ answer: sentence('members.general.missingPermission', { permission: permissionName }), code: 'missing_permission' });
	}
	return interaction.guildId;
}
