import { describe, expect, it } from 'vitest';
import { InteractionContextType } from 'discord.js';
import { askPlaceOf, scopeOf } from '../../../src/asking/askContext.js';
import { readableText } from '../../../src/asking/messageText.js';

const GUILD = '111111111111111111';
const USER = '222222222222222222';
const owners = (map: Record<string, string>) => ({ ...map }) as never;

describe('askPlaceOf', () => {
	it("is the server's own when its install authorized the interaction, whatever else did", () => {
		for (const map of [{ '0': GUILD }, { '0': GUILD, '1': USER }] as Array<Record<string, string>>) {
			const place = askPlaceOf({ guildId: GUILD, context: InteractionContextType.Guild, authorizingIntegrationOwners: owners(map) });
			expect(place).toEqual({ kind: 'server', guildId: GUILD });
			expect(scopeOf(place)).toBe(GUILD);
		}
	});

	it("is outside Veil's servers in a server reached by a member's install, a DM and a group DM", () => {
		expect(askPlaceOf({ guildId: GUILD, context: InteractionContextType.Guild, authorizingIntegrationOwners: owners({ '1': USER }) })).toEqual({
			kind: 'outside',
			where: 'server',
		});
		expect(askPlaceOf({ guildId: null, context: InteractionContextType.BotDM, authorizingIntegrationOwners: owners({ '0': '0' }) })).toEqual({
			kind: 'outside',
			where: 'dm',
		});
		expect(askPlaceOf({ guildId: null, context: InteractionContextType.BotDM, authorizingIntegrationOwners: owners({ '1': USER }) })).toEqual({
			kind: 'outside',
			where: 'dm',
		});
		const group = askPlaceOf({ guildId: null, context: InteractionContextType.PrivateChannel, authorizingIntegrationOwners: owners({ '1': USER }) });
		expect(group).toEqual({ kind: 'outside', where: 'group-dm' });
		expect(scopeOf(group)).toBe('outside');
	});

	it("never takes another server's install for this one", () => {
		expect(
			askPlaceOf({ guildId: GUILD, context: InteractionContextType.Guild, authorizingIntegrationOwners: owners({ '0': '333333333333333333' }) }).kind,
		).toBe('outside');
	});
});

describe('readableText', () => {
	const message = (content: string | null, embeds: object[] = [], snapshots: object[] = []) =>
		({ content, embeds, messageSnapshots: new Map(snapshots.map((snapshot, i) => [String(i), snapshot])) }) as never;
	const embed = (title?: string, description?: string, fields: Array<{ name: string; value: string }> = []) => ({ title, description, fields });

	it("reads the content first, then a forward's snapshot, then the embeds", () => {
		expect(readableText(message('own words', [embed('t')]))).toBe('own words');
		expect(readableText(message('', [], [{ content: 'forwarded words', embeds: [] }]))).toBe('forwarded words');
		expect(readableText(message(null, [embed('Title', 'Body', [{ name: 'High', value: '21' }]), embed(undefined, 'Second')]))).toBe(
			'Title\nBody\nHigh: 21\n\nSecond',
		);
		expect(readableText(message('', [], [{ content: '', embeds: [embed('Forwarded embed')] }]))).toBe('Forwarded embed');
	});

	it('is empty for a message with nothing readable', () => {
		expect(readableText(message('  ', [embed(undefined, ' ')]))).toBe('');
		expect(readableText(message(null))).toBe('');
	});
});
