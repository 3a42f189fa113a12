import { once } from 'node:events';
import { Client, DiscordAPIError, Events, GatewayIntentBits, type Interaction, MessageFlags } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiscordEmulator, makeUser } from '../../sandbox/discord/emulator.js';

// The local Discord's AutoMod over a guest app's messages (sandbox/discord/guestAutomod.ts), seen through a real
// discord.js client: refused where Discord refuses, 400 with code 200000, and nowhere else.
let emulator: DiscordEmulator;
let client: Client;
let handle: (interaction: Interaction) => Promise<void>;
const failures: unknown[] = [];

beforeEach(async () => {
	emulator = await DiscordEmulator.start();
	client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: emulator.apiUrl, retries: 0 } });
	handle = async () => undefined;
	client.on(Events.InteractionCreate, (interaction) => void handle(interaction).catch((error: unknown) => failures.push(error)));
	const ready = once(client, Events.ClientReady);
	await client.login(emulator.token);
	await ready;
});

afterEach(async () => {
	await client.destroy();
	await emulator.stop();
	expect(failures.splice(0)).toEqual([]);
});

/** What a REST call was refused with: [status, code], or 'sent'. */
async function outcome(call: () => Promise<unknown>): Promise<[number, unknown] | 'sent'> {
	try {
		await call();
		return 'sent';
	} catch (error) {
		if (error instanceof DiscordAPIError) return [error.status, error.code];
		throw error;
	}
}

describe("the local Discord's AutoMod over a guest app's messages", () => {
	it("refuses a guest app's public edit, follow-up and reply by the server's keyword rule, with 400 code 200000", async () => {
		const elsewhere = emulator.addGuild({ name: 'Elsewhere', withoutBot: true });
		emulator.createAutomodRule(elsewhere.id, { trigger_metadata: { keyword_filter: ['*forbidden*'], allow_list: ['unforbidden'] } });
		const seen: Array<[number, unknown] | 'sent'> = [];
		handle = async (interaction) => {
			if (!interaction.isChatInputCommand()) return;
			if (interaction.commandName === 'reply') {
				seen.push(await outcome(() => interaction.reply({ content: 'a Forbidden word' })));
				return;
			}
			await interaction.deferReply();
			seen.push(await outcome(() => interaction.editReply({ content: 'the forbiddenness itself' })));
			seen.push(await outcome(() => interaction.editReply({ embeds: [{ title: 'fine', description: 'FORBIDDEN' }] })));
			seen.push(await outcome(() => interaction.editReply({ content: 'unforbidden is allowed' })));
			seen.push(await outcome(() => interaction.followUp({ content: 'forbidden again' })));
			seen.push(await outcome(() => interaction.followUp({ content: 'forbidden, but only to you', flags: MessageFlags.Ephemeral })));
		};
		const member = makeUser('member');
		const asked = emulator.slashCommand({ name: 'ask', user: member, guildId: elsewhere.id });
		await asked.waitForAnswer();
		await expect.poll(() => seen.length).toBe(5);
		const replied = emulator.slashCommand({ name: 'reply', user: member, guildId: elsewhere.id });
		await expect.poll(() => seen.length).toBe(6);
		expect(seen).toEqual([[400, 200000], [400, 200000], 'sent', [400, 200000], 'sent', [400, 200000]]);
		// A refusal changes nothing: the deferral's message holds the one edit that passed.
		expect(asked.state().original?.content).toBe('unforbidden is allowed');
		expect(replied.state().callbacks).toEqual([]);
	});

	it("leaves alone the bot's own server, DMs, ephemeral answers, exempt channels and roles, and rules that do not block", async () => {
		const home = emulator.defaultGuild;
		emulator.createAutomodRule(home.id, { trigger_metadata: { keyword_filter: ['forbidden'] } });
		const elsewhere = emulator.addGuild({ name: 'Elsewhere', withoutBot: true, channels: [{ name: 'general' }, { name: 'exempt' }] });
		const [general, exempt] = elsewhere.channels.map((channel) => channel.id) as [string, string];
		const role = emulator.addRole(elsewhere.id, { name: 'Trusted', permissions: 0n });
		const trusted = makeUser('trusted');
		emulator.setMemberRoles(elsewhere.id, trusted, [role.id]);
		emulator.createAutomodRule(elsewhere.id, {
			trigger_metadata: { keyword_filter: ['forbidden'] },
			exempt_channels: [exempt],
			exempt_roles: [role.id],
		});
		emulator.createAutomodRule(elsewhere.id, {
			trigger_metadata: { keyword_filter: ['alerted'] },
			actions: [{ type: 2, metadata: { channel_id: general } }],
		});
		emulator.createAutomodRule(elsewhere.id, { trigger_metadata: { keyword_filter: ['disabled'] }, enabled: false });
		const seen: Array<[number, unknown] | 'sent'> = [];
		handle = async (interaction) => {
			if (!interaction.isChatInputCommand()) return;
			const ephemeral = interaction.commandName === 'private';
			const content = ephemeral ? 'forbidden' : interaction.commandName === 'plain' ? 'alerted, disabled' : 'forbidden, alerted, disabled';
			seen.push(await outcome(() => interaction.reply({ content, flags: ephemeral ? MessageFlags.Ephemeral : undefined })));
		};
		const member = makeUser('member');
		const places = [
			{ name: 'ask', guildId: home.id },
			{ name: 'ask', guildId: home.id, installs: ['guild', 'user'] as const },
			{ name: 'ask', guildId: null },
			{ name: 'ask', guildId: elsewhere.id, channelId: exempt },
			{ name: 'ask', guildId: elsewhere.id, channelId: general, user: trusted },
			{ name: 'private', guildId: elsewhere.id, channelId: general },
			{ name: 'plain', guildId: elsewhere.id, channelId: general },
			// The same rule, for a member it does not exempt in a channel it does not exempt: refused.
			{ name: 'ask', guildId: elsewhere.id, channelId: general },
		];
		for (const [index, place] of places.entries()) {
			emulator.slashCommand({ user: member, ...place });
			await expect.poll(() => seen.length).toBe(index + 1);
		}
		expect(seen).toEqual(['sent', 'sent', 'sent', 'sent', 'sent', 'sent', 'sent', [400, 200000]]);
	});
});
