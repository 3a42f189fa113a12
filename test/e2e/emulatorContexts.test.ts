import { once } from 'node:events';
import {
	ApplicationIntegrationType,
	Client,
	DiscordAPIError,
	Events,
	GatewayIntentBits,
	type Interaction,
	InteractionContextType,
	MessageFlags,
	MessageReferenceType,
} from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiscordEmulator, makeUser } from '../../sandbox/discord/emulator.js';

// The local Discord's user installs, DMs, group DMs, servers without the app, forced ephemeral replies, the
// follow-up cap and forwards, each as Discord documents it, seen through a real discord.js client.
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

describe('the local Discord, outside the servers the app is in', () => {
	it('sends the owners map and the context of each place', async () => {
		const member = makeUser('member');
		const elsewhere = emulator.addGuild({ name: 'Elsewhere', withoutBot: true });
		const group = emulator.addGroupDm([member, makeUser('friend')]);
		const seen: Array<{ context: unknown; owners: unknown; guildId: string | null }> = [];
		handle = async (interaction) => {
			seen.push({ context: interaction.context, owners: interaction.authorizingIntegrationOwners.toJSON(), guildId: interaction.guildId });
			if (interaction.isRepliable()) await interaction.reply({ content: 'ok' });
		};
		const places = [
			{ guildId: emulator.defaultGuild.id },
			{ guildId: emulator.defaultGuild.id, installs: ['guild', 'user'] as const },
			{ guildId: elsewhere.id },
			{ guildId: null },
			{ guildId: null, installs: ['user'] as const },
			{ channelId: group.id },
		];
		for (const place of places) await emulator.slashCommand({ name: 'ask', user: member, ...place }).waitForAnswer();
		expect(seen).toEqual([
			{
				context: InteractionContextType.Guild,
				owners: { [ApplicationIntegrationType.GuildInstall]: emulator.defaultGuild.id },
				guildId: emulator.defaultGuild.id,
			},
			{ context: InteractionContextType.Guild, owners: { '0': emulator.defaultGuild.id, '1': member.id }, guildId: emulator.defaultGuild.id },
			{ context: InteractionContextType.Guild, owners: { '1': member.id }, guildId: elsewhere.id },
			{ context: InteractionContextType.BotDM, owners: { '0': '0' }, guildId: null },
			{ context: InteractionContextType.BotDM, owners: { '1': member.id }, guildId: null },
			{ context: InteractionContextType.PrivateChannel, owners: { '1': member.id }, guildId: null },
		]);
		// A server the app is not in is not among its guilds.
		expect(client.guilds.cache.has(elsewhere.id)).toBe(false);
	});

	it('refuses guild and channel reads and posts where the app is not a member: 403 Missing Access (50001)', async () => {
		const elsewhere = emulator.addGuild({ withoutBot: true });
		const group = emulator.addGroupDm([makeUser('a'), makeUser('b')]);
		const channelId = elsewhere.channels[0]?.id as string;
		for (const attempt of [
			() => client.rest.get(`/guilds/${elsewhere.id}`),
			() => client.rest.get(`/guilds/${elsewhere.id}/roles`),
			() => client.rest.get(`/channels/${channelId}`),
			() => client.rest.post(`/channels/${channelId}/messages`, { body: { content: 'hi' } }),
			() => client.rest.post(`/channels/${group.id}/messages`, { body: { content: 'hi' } }),
		]) {
			const error = await attempt().catch((caught: unknown) => caught);
			expect(error).toBeInstanceOf(DiscordAPIError);
			expect(error).toMatchObject({ status: 403, code: 50001 });
		}
	});

	it('makes replies ephemeral where the member may not use external apps, and caps a user install at 5 follow-ups', async () => {
		const strict = emulator.addGuild({ withoutBot: true, everyonePermissions: 0n });
		let sixth: unknown;
		handle = async (interaction) => {
			if (!interaction.isRepliable()) return;
			const response = await interaction.deferReply({ withResponse: true });
			expect(response.interaction.responseMessageEphemeral).toBe(true);
			await interaction.editReply({ content: 'asked in public' });
			for (let i = 1; i <= 5; i++) await interaction.followUp({ content: `part ${i}` });
			sixth = await interaction.followUp({ content: 'part 6' }).catch((error: unknown) => error);
		};
		const state = await emulator.slashCommand({ name: 'ask', guildId: strict.id }).waitFor((s) => s.followUps.length === 5);
		await emulator.waitUntil(() => sixth !== undefined, 'the sixth follow-up to be answered');
		expect(state.ephemeral).toBe(true);
		expect(state.followUps.every((message) => (message.flags & MessageFlags.Ephemeral) !== 0)).toBe(true);
		expect(sixth).toMatchObject({ status: 400, code: 40094 });
	});

	it('forwards a message: no content of its own, a reference of type 1, and the message in message_snapshots', async () => {
		const original = emulator.postAsMember({ content: 'the original words', embeds: [{ title: 'and an embed' }] });
		const forward = emulator.postAsMember({ content: '', forwardOf: original });
		let snapshot: { content: string; embeds: number; reference: unknown } | undefined;
		handle = async (interaction) => {
			if (!interaction.isMessageContextMenuCommand()) return;
			const message = interaction.targetMessage;
			const first = message.messageSnapshots.first();
			snapshot = { content: `${message.content}|${first?.content}`, embeds: first?.embeds.length ?? 0, reference: message.reference?.type };
			await interaction.reply({ content: 'read', flags: MessageFlags.Ephemeral });
		};
		await emulator.messageCommand({ name: 'Ask Veil', target: forward }).waitForAnswer();
		expect(snapshot).toEqual({ content: '|the original words', embeds: 1, reference: MessageReferenceType.Forward });
	});
});
