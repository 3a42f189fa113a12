import { ApplicationCommandOptionType, PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript, type BotProcess } from '../../support/botProcess.js';
import { DEFAULT_BOT_PERMISSIONS, makeUser, type EmulatorMessage, type GuildModel } from '../../../sandbox/discord/emulator.js';
import { guildIdOnShard } from '../../../sandbox/discord/shards.js';
import { startTestServices, type TestServices } from '../../support/harness.js';
import { RedisServer } from '../../support/redisServer.js';

// Talking to Veil by message with two bot processes on one Redis (shards 0-1 and 2-3 of 4): each message reaches
// the process of its server's shard (a DM, shard 0's), is answered once, and a thread started by one process's
// answer goes on there with the conversation kept in the shared store.
describe('turns by message across two processes on Redis', () => {
	let redis: RedisServer;
	let services: TestServices;
	const bots: BotProcess[] = [];
	let guildOfFirst: GuildModel;
	let guildOfSecond: GuildModel;
	const member = makeUser('wanderer');

	beforeAll(async () => {
		redis = await RedisServer.start();
		services = await startTestServices({ STORE_URL: redis.url, LOG_LEVEL: 'info', REQUIRE_LINK: 'false' });
		const { discord } = services;
		const botPermissions = DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.CreatePublicThreads | PermissionFlagsBits.SendMessagesInThreads;
		guildOfFirst = discord.addGuild({ id: guildIdOnShard(0, 4), botPermissions });
		guildOfSecond = discord.addGuild({ id: guildIdOnShard(3, 4), botPermissions });
		const env = { ...services.env, SHARD_COUNT: '4' };
		bots.push(runScript('src/main.ts', { ...env, SHARD_IDS: '0-1' }), runScript('src/main.ts', { ...env, SHARD_IDS: '2-3' }));
		await Promise.all(bots.map((bot) => bot.waitForLine(/connected to Discord/, 25_000)));
	}, 60_000);

	afterAll(async () => {
		for (const bot of bots) bot.kill();
		await services?.stop();
		await redis?.stop();
	});

	const repliesTo = async (message: EmulatorMessage): Promise<EmulatorMessage[]> => {
		const { discord } = services;
		const replies = () => discord.channelMessages(message.channel_id).filter((sent) => sent.message_reference?.message_id === message.id);
		await discord.waitUntil(() => replies().length > 0, `the reply to "${message.content}"`, 10_000);
		return replies();
	};

	it('answers a mention in each process’s server, and a DM, each once', async () => {
		const { discord } = services;
		const mentions = [guildOfFirst, guildOfSecond].map((guild) =>
			discord.postAsMember({ user: member, channelId: guild.channels[0]?.id, content: `<@${discord.bot.id}> hello from ${guild.id}` }),
		);
		const writer = makeUser('writer');
		const dm = discord.postAsMember({ user: writer, channelId: discord.dmChannelId(writer), content: 'hello by DM' });
		for (const message of [...mentions, dm]) expect(await repliesTo(message)).toHaveLength(1);
	});

	it('continues an answer of the second process in a thread, and answers there with the conversation', async () => {
		const { discord, upstream } = services;
		const asked = await discord
			.slashCommand({
				name: 'ask',
				user: member,
				guildId: guildOfSecond.id,
				channelId: guildOfSecond.channels[0]?.id,
				options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'tell me of rivers' }],
			})
			.waitForAnswer(10_000);
		const answer = asked.original as EmulatorMessage;
		const customId = [...JSON.stringify(answer.components).matchAll(/"custom_id":"(ask:thread:[^"]+)"/g)][0]?.[1] as string;
		await discord.button({ customId, user: member, message: answer, guildId: guildOfSecond.id }).waitForAnswer(10_000);
		expect(discord.thread(answer.id)?.name).toBe('tell me of rivers');
		const turn = discord.postAsMember({ user: member, channelId: answer.id, content: `<@${discord.bot.id}> and lakes?` });
		expect(await repliesTo(turn)).toHaveLength(1);
		const body = upstream.requests.filter((request) => request.endpoint === 'generate').at(-1)?.json as { contents?: unknown[] };
		expect(body.contents).toHaveLength(3);
	});
});
