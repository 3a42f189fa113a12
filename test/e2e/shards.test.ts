import { ApplicationCommandOptionType } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { runScript, type BotProcess } from '../support/botProcess.js';
import { guildIdOnShard } from '../../sandbox/discord/shards.js';
import { startTestServices, type TestServices } from '../support/harness.js';
import { safeResponse } from '../support/upstreamStandIn.js';

let services: TestServices | undefined;
let processes: BotProcess[] = [];

afterEach(async () => {
	for (const running of processes) running.kill();
	processes = [];
	await services?.stop();
	services = undefined;
});

function run(env: Record<string, string>): BotProcess {
	const started = runScript('src/main.ts', env);
	processes.push(started);
	return started;
}

describe('shards of one process', () => {
	it('runs every shard Discord recommends when SHARD_COUNT and SHARDS are empty, as in a copied .env.example, and answers in each', async () => {
		services = await startTestServices({ REQUIRE_LINK: 'false', LOG_LEVEL: 'info' });
		const { discord, upstream } = services;
		const guilds = [0, 1, 2, 3].map((shard) => discord.addGuild({ id: guildIdOnShard(shard, 4) }));
		const bot = run({ ...services.env, SHARD_COUNT: '', SHARD_IDS: '', SHARDS: '' });
		await bot.waitForLine(/connected to Discord/, 25_000);
		expect(discord.identifies.map((identify) => identify.shard)).toEqual(
			expect.arrayContaining([
				[0, 4],
				[1, 4],
				[2, 4],
				[3, 4],
			]),
		);

		for (const [shard, guild] of guilds.entries()) {
			upstream.scriptGeneration({ json: safeResponse(`from shard ${shard}`) });
			const state = await discord
				.slashCommand({
					name: 'ask',
					guildId: guild.id,
					options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'which shard?' }],
				})
				.waitForAnswer(10_000);
			expect(state.original?.content).toBe(`from shard ${shard}`);
		}
	});

	it('runs only its SHARD_IDS of SHARD_COUNT', async () => {
		services = await startTestServices({ LOG_LEVEL: 'info' });
		const bot = run({ ...services.env, SHARD_COUNT: '6', SHARD_IDS: '1,4-5' });
		await bot.waitForLine(/connected to Discord/, 25_000);
		expect(services.discord.identifies.map((identify) => identify.shard).sort()).toEqual([
			[1, 6],
			[4, 6],
			[5, 6],
		]);
	});

	it('refuses SHARD_IDS without SHARD_COUNT, naming it, and exits 1', async () => {
		services = await startTestServices();
		const bot = run({ ...services.env, SHARD_IDS: '0-1' });
		expect(await bot.exited).toBe(1);
		expect(bot.stderr.join('\n')).toMatch(/SHARD_IDS: needs SHARD_COUNT/);
		expect(services.discord.identifies).toHaveLength(0);
	});
});
