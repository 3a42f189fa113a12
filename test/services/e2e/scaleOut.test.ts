import { type APIUser, ApplicationCommandOptionType } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript, type BotProcess } from '../../support/botProcess.js';
import { makeUser, type GuildModel, type InteractionState } from '../../../sandbox/discord/emulator.js';
import { guildIdOnShard, shardOf } from '../../../sandbox/discord/shards.js';
import { startTestServices, type TestServices } from '../../support/harness.js';
import { ADMIN_PERMISSIONS, MODERATOR_PERMISSIONS, textOf } from '../../support/moderation.js';
import { RedisServer } from '../../support/redisServer.js';
import { startRestProxy, type RestProxyProcess } from '../../support/restProxyProcess.js';
import { generationResponse, ratingsWith, safeResponse } from '../../support/upstreamStandIn.js';

// Two bot processes, each running half of the 4 shards the local Discord recommends, share one Redis (with
// persistence) and one REST proxy: the deployment of several processes on one machine, as the README shows it.
describe('several processes: shards 0-1 and 2-3 of 4, one Redis, one REST proxy', () => {
	let redis: RedisServer;
	let services: TestServices;
	let proxy: RestProxyProcess;
	const bots: BotProcess[] = [];
	let first: BotProcess;
	let second: BotProcess;
	let guildOfFirst: GuildModel;
	let guildOfSecond: GuildModel;
	const member = makeUser('traveller');
	const moderator = makeUser('moderator');

	beforeAll(async () => {
		redis = await RedisServer.start();
		services = await startTestServices({ STORE_URL: redis.url, LOG_LEVEL: 'info' });
		const { discord } = services;
		// A server on shard 0 (the first process's) and one on shard 3 (the second's).
		guildOfFirst = discord.addGuild({ id: guildIdOnShard(0, 4), channels: [{ name: 'general' }, { name: 'mod-log' }] });
		guildOfSecond = discord.addGuild({ id: guildIdOnShard(3, 4), channels: [{ name: 'general' }, { name: 'mod-log' }] });
		proxy = await startRestProxy(discord.apiUrl, discord.token);
		const env = { ...services.env, DISCORD_API_URL: proxy.apiUrl, SHARD_COUNT: '4' };
		first = runScript('src/main.ts', { ...env, SHARD_IDS: '0-1' });
		second = runScript('src/main.ts', { ...env, SHARD_IDS: '2-3' });
		bots.push(first, second);
		await Promise.all(bots.map((bot) => bot.waitForLine(/connected to Discord/, 25_000)));
	}, 60_000);

	afterAll(async () => {
		for (const bot of bots) bot.kill();
		proxy?.process.kill();
		await services?.stop();
		await redis?.stop();
	});

	const inGuild = (guild: GuildModel, user: APIUser, permissions?: bigint) => ({
		user,
		guildId: guild.id,
		channelId: guild.channels[0]!.id,
		...(permissions === undefined ? {} : { memberPermissions: permissions }),
	});

	const answer = (handle: { waitForAnswer(timeoutMs?: number): Promise<InteractionState> }) => handle.waitForAnswer(10_000);

	it("runs each process's slice of the recommended shards, identifying each shard once", () => {
		const shards = services.discord.identifies.map((identify) => identify.shard);
		expect(shards).toHaveLength(4);
		expect(shards).toEqual(
			expect.arrayContaining([
				[0, 4],
				[1, 4],
				[2, 4],
				[3, 4],
			]),
		);
		expect(shardOf(guildOfFirst.id, 4)).toBe(0);
		expect(shardOf(guildOfSecond.id, 4)).toBe(3);
		// Every REST call went through the one proxy.
		expect(services.discord.requests.length).toBeGreaterThan(0);
	});

	it('lets a member link in a server of one process and ask in a server of the other', async () => {
		const { discord, upstream } = services;
		upstream.addAccount('traveller@example.com', 'pw');
		const linked = await answer(
			discord.modalSubmit({ customId: 'link:submit', fields: { email: 'traveller@example.com', password: 'pw' }, ...inGuild(guildOfFirst, member) }),
		);
		expect(linked.original?.content).toMatch(/Linked/);

		upstream.scriptGeneration({ json: safeResponse('answered by the other process') });
		const asked = await answer(
			discord.slashCommand({
				name: 'ask',
				options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'hello' }],
				...inGuild(guildOfSecond, member),
			}),
		);
		expect(asked.original?.content).toBe('answered by the other process');
		const [generate] = upstream.requests.filter((request) => request.endpoint === 'generate');
		expect(generate?.headers['x-session-token']).toBe(upstream.tokensOf('traveller@example.com')?.sessionToken);
	});

	for (const which of ['first', 'second'] as const) {
		it(`hides an answer, posts it to the mod-log, lists it in /flagged and releases it once, in the ${which} process's server`, async () => {
			const { discord, upstream } = services;
			const guild = which === 'first' ? guildOfFirst : guildOfSecond;
			const [general, modlog] = guild.channels as [GuildModel['channels'][number], GuildModel['channels'][number]];
			const set = await answer(
				discord.slashCommand({
					name: 'settings',
					options: [
						{
							type: ApplicationCommandOptionType.Subcommand,
							name: 'modlog',
							options: [{ type: ApplicationCommandOptionType.Channel, name: 'channel', value: modlog.id }],
						},
					],
					...inGuild(guild, makeUser('admin'), ADMIN_PERMISSIONS),
				}),
			);
			expect(set.original?.content).toContain(`Mod-log: <#${modlog.id}>`);

			upstream.scriptGeneration({
				json: generationResponse({ text: `held in ${which}`, candidateRatings: ratingsWith({ HARM_CATEGORY_HARASSMENT: 'HIGH' }) }),
			});
			const hidden = await answer(
				discord.slashCommand({
					name: 'ask',
					options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'tell me' }],
					...inGuild(guild, member),
				}),
			);
			const flagId = /Reference for moderators: `([a-z0-9]+)`/.exec(hidden.original?.content ?? '')?.[1];
			expect(flagId).toBeDefined();
			await discord.waitUntil(() => discord.channelMessages(modlog.id).length === 1, 'the mod-log post', 10_000);
			expect(JSON.stringify(discord.channelMessages(modlog.id)[0]?.components)).toContain(`flagged:view:${flagId}`);

			const listed = await answer(
				discord.slashCommand({
					name: 'flagged',
					options: [{ type: ApplicationCommandOptionType.Subcommand, name: 'list' }],
					...inGuild(guild, moderator, MODERATOR_PERMISSIONS),
				}),
			);
			expect(listed.original?.embeds[0]?.description).toContain(flagId);

			// Release opens its form; the submit decides.
			const release = async () => {
				const form = await answer(discord.button({ customId: `flagged:release:${flagId}`, ...inGuild(guild, moderator, MODERATOR_PERMISSIONS) }));
				return answer(
					discord.modalSubmit({ customId: form.modal?.custom_id ?? '', fields: { reason: '' }, ...inGuild(guild, moderator, MODERATOR_PERMISSIONS) }),
				);
			};
			const released = await release();
			expect(textOf(released)).toMatch(/Released/);
			const again = await release();
			expect(JSON.stringify(again.original)).toContain('was already released');
			const posts = discord.channelMessages(general.id).filter((message) => message.content.includes(`held in ${which}`));
			expect(posts).toHaveLength(1);

			// The process that runs the server's shard did the work; the other never saw it.
			const [owner, other] = which === 'first' ? [first, second] : [second, first];
			await owner.waitForLine(new RegExp(`"flagId":"${flagId}".*"msg":"flag decided"`));
			expect(other.stdout.some((line) => line.includes(flagId as string))).toBe(false);
		});
	}

	it('keeps the other process answering when one is stopped with SIGTERM', async () => {
		const { discord, upstream } = services;
		first.child.kill('SIGTERM');
		expect(await first.exited).toBe(0);
		upstream.scriptGeneration({ json: safeResponse('still here') });
		const asked = await answer(
			discord.slashCommand({
				name: 'ask',
				options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'anyone?' }],
				...inGuild(guildOfSecond, member),
			}),
		);
		expect(asked.original?.content).toBe('still here');
		expect(second.child.exitCode).toBeNull();
	});
});
