import { describe, expect, it } from 'vitest';
import { InteractionContextType, PermissionsBitField, PermissionFlagsBits } from 'discord.js';
import { messagePlaceOf, OUTSIDE_SCOPE, placeOf, type PlaceDeps } from '../../../src/app/place.js';

const GUILD = '111111111111111111';
const USER = '222222222222222222';
const CHANNEL = '444444444444444444';

function interaction(guildId: string | null, owners: Record<string, string>, context = InteractionContextType.Guild, permissions = 0n) {
	return {
		guildId,
		channelId: CHANNEL,
		context,
		authorizingIntegrationOwners: owners as never,
		memberPermissions: guildId === null ? null : new PermissionsBitField(permissions),
		guildLocale: null,
	};
}

/** A place's answers, read with a server that limits each member to 3 asks a day and instructs its channel. */
function deps(operatorGuildId?: string): PlaceDeps {
	return {
		config: { askUserPerDay: 7, operatorGuildId },
		settings: { asksPerDay: async () => 3, instructions: { forAsk: async () => 'be brief' } } as never,
		log: { warn() {} } as never,
	};
}

describe('placeOf', () => {
	it("is the server's own when its install authorized the interaction, whatever else did: its limit, instructions and moderators", async () => {
		for (const owners of [{ '0': GUILD }, { '0': GUILD, '1': USER }] as Array<Record<string, string>>) {
			const place = placeOf(interaction(GUILD, owners));
			expect(place.guildId).toBe(GUILD);
			expect(place.scope).toBe(GUILD);
			expect(await place.dailyLimit(deps())).toBe(3);
			expect(await place.instructions(deps(), undefined)).toBe('be brief');
			expect((await place.review(deps(), true))?.where).toEqual({ guildId: GUILD, channelId: CHANNEL });
		}
	});

	it('does not limit a member with Manage Server in a Veil server', async () => {
		const place = placeOf(interaction(GUILD, { '0': GUILD }, InteractionContextType.Guild, PermissionFlagsBits.ManageGuild));
		expect(await place.dailyLimit(deps())).toBeUndefined();
	});

	it("is outside Veil's servers in a server reached by a member's install, a DM and a group DM: no server's rules apply", async () => {
		const cases = [
			[interaction(GUILD, { '1': USER }), 'server'],
			[interaction(null, { '0': '0' }, InteractionContextType.BotDM), 'dm'],
			[interaction(null, { '1': USER }, InteractionContextType.BotDM), 'dm'],
			[interaction(null, { '1': USER }, InteractionContextType.PrivateChannel), 'group-dm'],
		] as const;
		for (const [outside, where] of cases) {
			const place = placeOf(outside);
			expect(place.guildId).toBeNull();
			expect(place.scope).toBe(OUTSIDE_SCOPE);
			expect(await place.dailyLimit(deps())).toBe(7);
			expect(await place.instructions(deps(), undefined)).toBeUndefined();
			expect(await place.review(deps(), false)).toBeUndefined();
			const review = await place.review(deps('999999999999999999'), false);
			expect(review).toMatchObject({ where: { guildId: '999999999999999999', outside: where }, private: true });
		}
	});

	it("never takes another server's install for this one", () => {
		expect(placeOf(interaction(GUILD, { '0': '333333333333333333' })).guildId).toBeNull();
	});
});

describe('messagePlaceOf', () => {
	it("answers a server channel's turn as an /ask there: its limit, instructions, and its moderators named and asked for the release's notice", async () => {
		const place = messagePlaceOf({ guildId: GUILD, channelId: CHANNEL, exempt: false, roleIds: [] });
		expect(place.scope).toBe(GUILD);
		expect(await place.dailyLimit(deps())).toBe(3);
		expect(await place.instructions(deps(), undefined)).toBe('be brief');
		expect(place.reviewers(deps())).toBe('server');
		const review = await place.review(deps(), false, async () => '555555555555555555');
		expect(review).toEqual({
			where: { guildId: GUILD, channelId: CHANNEL },
			private: false,
			noticeMessageId: '555555555555555555',
			guildLocale: null,
		});
		expect(await messagePlaceOf({ guildId: GUILD, channelId: CHANNEL, exempt: true, roleIds: [] }).dailyLimit(deps())).toBeUndefined();
	});

	it("answers a DM's turn as an /ask outside: ASK_USER_PER_DAY, no instructions, the operators' server or no one", async () => {
		const place = messagePlaceOf({ guildId: null, channelId: CHANNEL, exempt: false, roleIds: [] });
		expect(place.scope).toBe(OUTSIDE_SCOPE);
		expect(await place.dailyLimit(deps())).toBe(7);
		expect(await place.instructions(deps(), undefined)).toBeUndefined();
		expect(place.reviewers(deps())).toBe('none');
		expect(await place.review(deps(), false)).toBeUndefined();
		expect(place.reviewers(deps('999999999999999999'))).toBe('operators');
		expect(await place.review(deps('999999999999999999'), false)).toMatchObject({
			where: { guildId: '999999999999999999', outside: 'dm' },
			private: true,
			noticeMessageId: undefined,
		});
	});
});
