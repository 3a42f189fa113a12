import { PermissionFlagsBits, PermissionsBitField, type RepliableInteraction } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { UserInputError } from '../../../src/errors/veilError.js';
import { render, t } from '../../../src/i18n/translate.js';
import { checkPreconditions, MANAGE_MESSAGES, MANAGE_SERVER } from '../../../src/discord/permissions.js';

// Only what checkPreconditions reads: where the interaction comes from and the permissions Discord sent with it.
function interaction(guildId: string | null, permissions: bigint[] | null): RepliableInteraction {
	return {
		guildId,
		inGuild: () => guildId !== null,
		memberPermissions: permissions === null ? null : new PermissionsBitField(permissions),
	} as unknown as RepliableInteraction;
}

/** The refusal `check` throws. */
function rejectionOf(check: () => void): UserInputError {
	try {
		check();
	} catch (error) {
		if (error instanceof UserInputError) return error;
	}
	throw new Error('no refusal');
}

describe('checkPreconditions', () => {
	it('passes a member who holds the permission now, or any member where none is required', () => {
		expect(() => checkPreconditions(interaction('1', [PermissionFlagsBits.ManageMessages]), { permission: MANAGE_MESSAGES })).not.toThrow();
		expect(() => checkPreconditions(interaction('1', [PermissionFlagsBits.Administrator]), { permission: MANAGE_SERVER })).not.toThrow();
		expect(() => checkPreconditions(interaction('1', [PermissionFlagsBits.SendMessages]), {})).not.toThrow();
	});

	it('refuses a member without it, naming the permission and nothing else', () => {
		const refuse = () => checkPreconditions(interaction('1', [PermissionFlagsBits.SendMessages]), { permission: MANAGE_MESSAGES });
		expect(refuse).toThrow(UserInputError);
		expect(refuse).toThrow('You need the Manage Messages permission in this server to do this.');
		expect(() => checkPreconditions(interaction('1', null), { permission: MANAGE_MESSAGES })).toThrow(UserInputError);
	});

	it("names the permission as Discord's client does in the reader's language", () => {
		const refusal = rejectionOf(() => checkPreconditions(interaction('1', [PermissionFlagsBits.SendMessages]), { permission: MANAGE_SERVER }));
		expect(render('de', refusal.answer)).toBe('Dafür brauchst du auf diesem Server die Berechtigung Server verwalten.');
		expect(render('ja', refusal.answer)).toContain('「サーバー管理」');
	});

	it('refuses outside a server, whether or not a permission is required', () => {
		expect(() => checkPreconditions(interaction(null, null), { permission: MANAGE_MESSAGES })).toThrow(t('en-US', 'members.general.serversOnly'));
		expect(() => checkPreconditions(interaction(null, null), {})).toThrow(t('en-US', 'members.general.serversOnly'));
	});
});
