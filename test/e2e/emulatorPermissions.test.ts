import { once } from 'node:events';
import {
	Client,
	DiscordAPIError,
	Events,
	GatewayIntentBits,
	type Interaction,
	OverwriteType,
	PermissionFlagsBits,
	Routes,
	type TextChannel,
} from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiscordEmulator, makeUser, PLAIN_MEMBER_PERMISSIONS } from '../../sandbox/discord/emulator.js';

// The emulator's permission model and DMs, through a real discord.js client: what Veil's moderator checks and
// private releases stand on.

const P = PermissionFlagsBits;
let emulator: DiscordEmulator;
let client: Client;
let seen: Interaction[];

beforeEach(async () => {
	emulator = await DiscordEmulator.start();
	seen = [];
	client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: emulator.apiUrl } });
	client.on(Events.InteractionCreate, (interaction) => {
		seen.push(interaction);
		if (interaction.isRepliable()) void interaction.reply({ content: 'ok', allowedMentions: { parse: [] } });
	});
	const ready = once(client, Events.ClientReady);
	await client.login(emulator.token);
	await ready;
});

afterEach(async () => {
	await client.destroy();
	await emulator.stop();
});

/** A server with #general, a #staff channel only the Mods role sees, and #hidden that Veil cannot see. */
function staffServer() {
	const guild = emulator.addGuild({ channels: [{ name: 'general' }, { name: 'staff' }, { name: 'hidden' }] });
	const [general, staff, hidden] = guild.channels.map((channel) => channel.id) as [string, string, string];
	const mods = emulator.addRole(guild.id, { name: 'Mods', permissions: PLAIN_MEMBER_PERMISSIONS | P.ManageMessages });
	emulator.setChannelOverwrites(staff, [
		{ id: guild.id, type: OverwriteType.Role, allow: 0n, deny: P.ViewChannel },
		{ id: mods.id, type: OverwriteType.Role, allow: P.ViewChannel, deny: 0n },
		{ id: guild.botRoleId, type: OverwriteType.Role, allow: P.ViewChannel, deny: 0n },
	]);
	emulator.setChannelOverwrites(hidden, [{ id: guild.botRoleId, type: OverwriteType.Role, allow: 0n, deny: P.ViewChannel }]);
	return { guild, general, staff, hidden, mods };
}

async function permissionsOf(options: Parameters<DiscordEmulator['slashCommand']>[0]): Promise<{ permissions: bigint; roles: string[] }> {
	const handle = emulator.slashCommand(options);
	await handle.waitForAnswer();
	const member = handle.payload.member as { permissions: string; roles: string[] };
	const interaction = seen.find((i) => i.id === handle.id);
	// What discord.js reads is what the payload said.
	expect(interaction?.memberPermissions?.bitfield).toBe(BigInt(member.permissions));
	return { permissions: BigInt(member.permissions), roles: member.roles };
}

describe('permissions as Discord computes them', () => {
	it("computes member.permissions for the interaction's channel from roles and overwrites", async () => {
		const { guild, general, staff, mods } = staffServer();
		const moderator = makeUser('moderator');
		emulator.setMemberRoles(guild.id, moderator, [mods.id]);
		const perChannel = makeUser('per-channel');
		emulator.setChannelOverwrites(general, [{ id: perChannel.id, type: OverwriteType.Member, allow: P.ManageMessages, deny: 0n }]);

		const modHere = await permissionsOf({ name: 'x', user: moderator, channelId: general });
		expect(modHere.roles).toEqual([mods.id]);
		expect(modHere.permissions & P.ManageMessages).toBe(P.ManageMessages);
		expect((await permissionsOf({ name: 'x', user: moderator, channelId: staff })).permissions & P.ViewChannel).toBe(P.ViewChannel);

		const granted = await permissionsOf({ name: 'x', user: perChannel, channelId: general });
		expect(granted.permissions & P.ManageMessages).toBe(P.ManageMessages);
		const elsewhere = await permissionsOf({ name: 'x', user: perChannel, channelId: staff });
		expect(elsewhere.permissions & (P.ViewChannel | P.ManageMessages)).toBe(0n);

		// memberPermissions gives a role of the member's own, so REST tells the same story.
		const admin = makeUser('admin');
		const asAdmin = await permissionsOf({ name: 'x', user: admin, channelId: staff, memberPermissions: P.Administrator });
		expect(asAdmin.permissions & P.ManageMessages).toBe(P.ManageMessages);
		const roles = (await client.rest.get(Routes.guildRoles(guild.id))) as Array<{ id: string; permissions: string }>;
		expect(roles.find((role) => asAdmin.roles.includes(role.id))?.permissions).toBe(P.Administrator.toString());

		const owner = makeUser('owner');
		emulator.setOwner(guild.id, owner);
		expect((await permissionsOf({ name: 'x', user: owner, channelId: staff })).permissions & P.ManageMessages).toBe(P.ManageMessages);
	});

	it('serves the guild, its roles, a member, a channel and the channels Veil can view over REST', async () => {
		const { guild, general, staff, hidden, mods } = staffServer();
		const moderator = makeUser('moderator');
		emulator.setMemberRoles(guild.id, moderator, [mods.id]);

		const fetched = (await client.rest.get(Routes.guild(guild.id))) as { owner_id: string; roles: Array<{ id: string }> };
		expect(fetched.owner_id).toBe(guild.owner_id);
		expect(fetched.roles.map((role) => role.id)).toEqual(expect.arrayContaining([guild.id, guild.botRoleId, mods.id]));
		const member = (await client.rest.get(Routes.guildMember(guild.id, moderator.id))) as { roles: string[]; user: { id: string } };
		expect(member).toMatchObject({ roles: [mods.id], user: { id: moderator.id } });
		const channel = (await client.rest.get(Routes.channel(staff))) as { permission_overwrites: Array<{ id: string }> };
		expect(channel.permission_overwrites.map((overwrite) => overwrite.id)).toEqual([guild.id, mods.id, guild.botRoleId]);

		const listed = (await client.rest.get(Routes.guildChannels(guild.id))) as Array<{ id: string }>;
		expect(listed.map((c) => c.id)).toEqual([general, staff]);
		const refused = await client.rest.get(Routes.channel(hidden)).catch((error: unknown) => error);
		expect(refused).toBeInstanceOf(DiscordAPIError);
		expect((refused as DiscordAPIError).code).toBe(50001);
	});

	it('refuses a reply where the bot cannot read history, as Discord does', async () => {
		const guild = emulator.addGuild({ botPermissions: P.ViewChannel | P.SendMessages });
		const channel = (await client.channels.fetch(guild.channels[0]!.id)) as TextChannel;
		const first = await channel.send({ content: 'first', allowedMentions: { parse: [] } });
		const reply = await channel.send({ content: 'reply', reply: { messageReference: first.id } }).catch((error: unknown) => error);
		expect((reply as DiscordAPIError).code).toBe(50013);
		expect(emulator.channelMessages(channel.id).map((message) => message.content)).toEqual(['first']);
	});
});

describe('direct messages', () => {
	it('opens a DM and delivers to it; closed DMs answer 50007 and deliver nothing', async () => {
		const open = makeUser('open');
		const closed = makeUser('closed');
		await emulator.slashCommand({ name: 'x', user: open }).waitForAnswer();
		await emulator.slashCommand({ name: 'x', user: closed }).waitForAnswer();
		emulator.setDirectMessagesOpen(closed.id, false);

		await (await client.users.createDM(open.id)).send({ content: 'hello', allowedMentions: { parse: [] } });
		expect(emulator.directMessages(open.id).map((message) => message.content)).toEqual(['hello']);
		expect(emulator.requests.some((request) => request.method === 'POST' && request.path === '/users/@me/channels')).toBe(true);

		const refused = await (await client.users.createDM(closed.id)).send({ content: 'hello' }).catch((error: unknown) => error);
		expect(refused).toBeInstanceOf(DiscordAPIError);
		expect((refused as DiscordAPIError).code).toBe(50007);
		expect(emulator.directMessages(closed.id)).toEqual([]);
	});
});
