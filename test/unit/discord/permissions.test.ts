import { PermissionFlagsBits, PermissionsBitField, type RepliableInteraction } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { UserInputError } from '../../../src/answers/veilError.js';
import { t } from '../../../src/i18n/translate.js';
import { requirePermission } from '../../../src/discord/permissions.js';

// Only what requirePermission reads: where the interaction comes from and the permissions Discord sent with it.
function interaction(guildId: string | null, permissions: bigint[] | null): RepliableInteraction {
	return {
		guildId,
		inGuild: () => guildId !== null,
		memberPermissions: permissions === null ? null : new PermissionsBitField(permissions),
	} as unknown as RepliableInteraction;
}

describe('requirePermission', () => {
	it('returns the server id when the member holds the permission now', () => {
		expect(requirePermission(interaction('1', [PermissionFlagsBits.ManageMessages]), PermissionFlagsBits.ManageMessages, 'Manage Messages')).toBe('1');
		expect(requirePermission(interaction('1', [PermissionFlagsBits.Administrator]), PermissionFlagsBits.ManageGuild, 'Manage Server')).toBe('1');
	});

	it('refuses a member without it, naming the permission and nothing else', () => {
		const refuse = () => requirePermission(interaction('1', [PermissionFlagsBits.SendMessages]), PermissionFlagsBits.ManageMessages, 'Manage Messages');
		expect(refuse).toThrow(UserInputError);
		expect(refuse).toThrow('You need the Manage Messages permission in this server to do this.');
		expect(() => requirePermission(interaction('1', null), PermissionFlagsBits.ManageMessages, 'Manage Messages')).toThrow(UserInputError);
	});

	it('refuses outside a server', () => {
		expect(() => requirePermission(interaction(null, null), PermissionFlagsBits.ManageMessages, 'Manage Messages')).toThrow(t('en-US', 'members.general.serversOnly'));
	});
});
