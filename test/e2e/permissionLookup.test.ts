import { OverwriteType, PermissionFlagsBits, PermissionsBitField, REST } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberFactsFromPayload, PermissionLookup } from '../../src/discord/permissionLookup.js';
import { DiscordEmulator, makeUser, PLAIN_MEMBER_PERMISSIONS } from '../../sandbox/discord/emulator.js';

// The lookup over real HTTP against the local Discord, with no discord.js cache anywhere: only REST.

const P = PermissionFlagsBits;
let emulator: DiscordEmulator;
let rest: REST;

beforeAll(async () => {
	emulator = await DiscordEmulator.start();
	rest = new REST({ api: emulator.apiUrl }).setToken(emulator.token);
});
afterAll(async () => {
	await emulator.stop();
});

function server() {
	const guild = emulator.addGuild({ channels: [{ name: 'general' }, { name: 'staff' }, { name: 'hidden' }] });
	const [general, staff, hidden] = guild.channels.map((channel) => channel.id) as [string, string, string];
	const mods = emulator.addRole(guild.id, { name: 'Mods', permissions: PLAIN_MEMBER_PERMISSIONS | P.ManageMessages });
	emulator.setChannelOverwrites(staff, [
		{ id: guild.id, type: OverwriteType.Role, allow: 0n, deny: P.ViewChannel },
		{ id: mods.id, type: OverwriteType.Role, allow: P.ViewChannel, deny: 0n },
		{ id: guild.botRoleId, type: OverwriteType.Role, allow: P.ViewChannel, deny: P.SendMessages },
	]);
	emulator.setChannelOverwrites(hidden, [{ id: guild.botRoleId, type: OverwriteType.Role, allow: 0n, deny: P.ViewChannel }]);
	const moderator = makeUser('moderator');
	emulator.setMemberRoles(guild.id, moderator, [mods.id]);
	return { guild, general, staff, hidden, mods, moderator };
}

const requestsSince = (start: number) => emulator.requests.slice(start).map((request) => `${request.method} ${request.path}`);

describe('PermissionLookup', () => {
	it("computes a member's and Veil's permissions per channel, fetching each fact once", async () => {
		const { guild, general, staff, moderator } = server();
		const start = emulator.requests.length;
		const lookup = new PermissionLookup({ rest, guildId: guild.id, userId: moderator.id, botId: emulator.bot.id });
		expect((await lookup.memberIn(general)).has(P.ManageMessages)).toBe(true);
		expect((await lookup.memberIn(staff)).has([P.ViewChannel, P.ManageMessages])).toBe(true);
		expect((await lookup.botIn(staff)).has(P.ViewChannel)).toBe(true);
		expect((await lookup.botIn(staff)).has(P.SendMessages)).toBe(false);
		expect((await lookup.botIn(general)).has(P.SendMessages)).toBe(true);
		expect(requestsSince(start).sort()).toEqual(
			[
				`GET /guilds/${guild.id}`,
				`GET /guilds/${guild.id}/channels`,
				`GET /guilds/${guild.id}/members/${moderator.id}`,
				`GET /guilds/${guild.id}/members/${emulator.bot.id}`,
			].sort(),
		);
		const plain = makeUser('plain');
		emulator.setMemberRoles(guild.id, plain, []);
		expect((await new PermissionLookup({ rest, guildId: guild.id, userId: plain.id, botId: emulator.bot.id }).memberIn(staff)).bitfield).toBe(0n);
	});

	it("takes the member's roles from the interaction payload when it carries them", async () => {
		const { guild, staff, mods } = server();
		const member = makeUser('raw');
		const start = emulator.requests.length;
		const lookup = new PermissionLookup({
			rest,
			guildId: guild.id,
			userId: member.id,
			botId: emulator.bot.id,
			member: memberFactsFromPayload({ roles: [mods.id], permissions: '0', communication_disabled_until: null }),
		});
		expect((await lookup.memberIn(staff)).has(P.ManageMessages)).toBe(true);
		expect(requestsSince(start).some((line) => line.includes('/members/'))).toBe(false);
	});

	it('counts only the owner and administrators as able to act in a channel Veil cannot see, unless Discord said so', async () => {
		const { guild, hidden, moderator } = server();
		const lookup = (userId: string, known?: ConstructorParameters<typeof PermissionLookup>[0]['known']) =>
			new PermissionLookup({ rest, guildId: guild.id, userId, botId: emulator.bot.id, known });
		expect((await lookup(moderator.id).memberIn(hidden)).bitfield).toBe(0n);
		const owner = makeUser('owner');
		emulator.setOwner(guild.id, owner);
		expect((await lookup(owner.id).memberIn(hidden)).has(P.ManageMessages)).toBe(true);
		// An interaction from that very channel carries Discord's own answer for it.
		const said = new PermissionsBitField([P.ViewChannel, P.ManageMessages]).freeze();
		expect((await lookup(moderator.id, { channelId: hidden, member: said, bot: null }).memberIn(hidden)).has(P.ManageMessages)).toBe(true);
		expect((await lookup(moderator.id, { channelId: hidden, member: said, bot: null }).botIn(hidden)).bitfield).toBe(0n);
	});

	it('reads role ids only from a raw payload member, not from a cached GuildMember', () => {
		expect(memberFactsFromPayload({ roles: ['1', '2'], communication_disabled_until: '2030-01-01T00:00:00.000Z' })).toEqual({
			roleIds: ['1', '2'],
			timedOutUntil: new Date('2030-01-01T00:00:00.000Z'),
		});
		// A discord.js GuildMember keeps a role manager under `roles`, whose cache may be empty.
		expect(memberFactsFromPayload({ roles: { cache: new Map() } })).toBeUndefined();
		expect(memberFactsFromPayload(null)).toBeUndefined();
	});
});
