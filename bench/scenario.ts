import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIUser } from 'discord.js';
import { AccountRepository } from '../src/accounts/accountRepository.js';
import { createLogger } from '../src/logging/logger.js';
import { openStore } from '../src/storage/store.js';
import { DiscordEmulator, makeUser, type GuildModel } from '../test/support/discord/emulator.js';
import { safeResponse, UpstreamStandIn } from '../test/support/upstreamStandIn.js';
import { AskTracker, type LoadResult } from './load.js';
import { ROOT, startBotProcess, type BotUnderTest } from './botUnderTest.js';

export interface BenchPlan {
	readonly rates: ReadonlyArray<{ rate: number; count: number }>;
	readonly warmUp: number;
	readonly slowAsks: number;
	readonly guildsFirst: number;
	readonly guildsThen: number;
	readonly members: number;
	readonly upstreamMs: number;
	readonly slowUpstreamMs: number;
}

export interface Memory {
	rss: number;
	heap: number;
}

export interface RateFigures {
	rate: number;
	load: LoadResult;
	/** CPU the bot used from the first dispatch to the last answer, in µs. */
	cpuMicros: number;
}

export interface BotFigures {
	name: string;
	startCpuMs: { first: number; then: number };
	memory: { first: Memory; then: Memory };
	rates: RateFigures[];
	slow: { load: LoadResult; idleRss: number; peakRss: number; warnings: Record<string, number> };
}

export interface BotKind {
	readonly name: string;
	/** The compiled entry, from the project's root. */
	readonly entry: string;
	/** Options for `node` before the entry. */
	readonly nodeArgs: readonly string[];
	/** Set up what the bot needs besides the common environment (Veil: its store, with the members linked). */
	prepare(env: Record<string, string>, members: readonly APIUser[], directory: string): Promise<Record<string, string>>;
}

/** The Procfile's `worker:` command, node's options apart from the entry: Veil is benched as production runs it. */
function procfileWorker(): { entry: string; nodeArgs: string[] } {
	const line = readFileSync(join(ROOT, 'Procfile'), 'utf8')
		.split('\n')
		.find((candidate) => candidate.startsWith('worker:'));
	const words = line?.slice('worker:'.length).trim().split(/\s+/) ?? [];
	const entry = words.at(-1);
	if (words[0] !== 'node' || entry === undefined) throw new Error('the Procfile has no `worker: node … <entry>` line');
	return { entry, nodeArgs: words.slice(1, -1) };
}

const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms));

/** N servers of five text channels and five roles (@everyone, the bot's and three more), as a bot of that size sees. */
function addGuilds(emulator: DiscordEmulator, count: number): GuildModel[] {
	return Array.from({ length: count }, (_, n) => {
		const guild = emulator.addGuild({ name: `Bench ${n}`, channels: ['general', 'help', 'random', 'staff', 'mod-log'].map((name) => ({ name })) });
		for (const name of ['Moderator', 'Member', 'Muted']) emulator.addRole(guild.id, { name, permissions: 0n });
		return guild;
	});
}

/**
 * Runs every phase against one bot on a fresh local Discord and upstream stand-in: memory and the CPU of the start
 * with `guildsFirst` servers, again with `guildsThen`, each rate in turn, then the slow upstream.
 */
export async function benchBot(kind: BotKind, plan: BenchPlan, log: (line: string) => void): Promise<BotFigures> {
	const emulator = await DiscordEmulator.start({ defaultTimeoutMs: 30_000 });
	const upstream = await UpstreamStandIn.start();
	const directory = mkdtempSync(join(tmpdir(), 'veil-bench-'));
	let upstreamMs = plan.upstreamMs;
	upstream.setDefaultGeneration((request) => {
		const prompt = (request.json as { contents?: Array<{ parts?: Array<{ text?: string }> }> }).contents?.[0]?.parts?.[0]?.text;
		return { json: safeResponse(`Answer to: ${prompt}`), delayMs: upstreamMs };
	});
	const guilds = [emulator.defaultGuild, ...addGuilds(emulator, plan.guildsFirst - 1)];
	const members = Array.from({ length: plan.members }, (_, n) => makeUser(`bench${n}`));
	const common = {
		DISCORD_TOKEN: emulator.token,
		DISCORD_APPLICATION_ID: emulator.applicationId,
		DISCORD_API_URL: emulator.apiUrl,
		GENERATION_BASE_URL: upstream.baseUrl,
		GENERATION_API_KEY: upstream.apiKey,
		GENERATION_MODEL: upstream.model,
		AUTH_BASE_URL: upstream.authBaseUrl,
		AUTH_PATH_PREFIX: upstream.pathPrefix,
	};
	const env = { ...common, ...(await kind.prepare(common, members, directory)) };
	const tracker = new AskTracker(emulator);
	let bot: BotUnderTest | undefined;
	try {
		const startOnce = async (guildCount: number) => {
			bot = startBotProcess(kind.entry, env, kind.nodeArgs);
			await emulator.waitForReady(60_000);
			const cpu = await bot.waitForIdle();
			const measured = await bot.measure();
			log(`  ${kind.name}: ${guildCount} servers: start took ${(cpu / 1000).toFixed(0)} ms of CPU, RSS ${(measured.rss / 2 ** 20).toFixed(1)} MB`);
			return { cpuMs: cpu / 1000, memory: { rss: measured.rss, heap: measured.heapUsed ?? Number.NaN } };
		};
		const first = await startOnce(plan.guildsFirst);
		await bot!.stop();
		guilds.push(...addGuilds(emulator, plan.guildsThen - plan.guildsFirst));
		const then = await startOnce(plan.guildsThen);
		const running = bot!;

		const offer = (rate: number, count: number, onTick?: () => void) =>
			tracker.offer({ rate, count, members, guilds, timeoutMs: 30_000 + (count / 40) * 1000, onTick });
		await offer(50, plan.warmUp);
		await running.waitForIdle({ windowMs: 500, timeoutMs: 30_000 });

		const rates: RateFigures[] = [];
		for (const { rate, count } of plan.rates) {
			const before = await running.sample();
			const load = await offer(rate, count);
			const after = await running.sample();
			rates.push({ rate, load, cpuMicros: after.cpuMicros - before.cpuMicros });
			log(`  ${kind.name}: ${rate}/s: ${load.answered}/${count} answered in ${load.seconds.toFixed(1)} s`);
			await running.waitForIdle({ windowMs: 500, timeoutMs: 30_000 });
		}

		upstreamMs = plan.slowUpstreamMs;
		const idleRss = (await running.sample()).rss;
		let peakRss = idleRss;
		const slowLoad = await offer(400, plan.slowAsks, () => {
			void running.sample().then((reply) => (peakRss = Math.max(peakRss, reply.rss)), () => undefined);
		});
		await sleep(100);
		const { warnings } = await running.sample();
		log(`  ${kind.name}: slow upstream: ${slowLoad.answered}/${plan.slowAsks} answered in ${slowLoad.seconds.toFixed(1)} s`);
		return {
			name: kind.name,
			startCpuMs: { first: first.cpuMs, then: then.cpuMs },
			memory: { first: first.memory, then: then.memory },
			rates,
			slow: { load: slowLoad, idleRss, peakRss, warnings },
		};
	} catch (error) {
		if (bot) process.stderr.write(`${kind.name} stderr:\n${bot.stderr.join('').slice(-4000)}\n`);
		throw error;
	} finally {
		tracker.close();
		await bot?.stop();
		await Promise.allSettled([emulator.stop(), upstream.stop()]);
		rmSync(directory, { recursive: true, force: true });
	}
}

/** The bare discord.js bot: nothing to prepare. */
export const bareBot: BotKind = {
	name: 'bare',
	entry: 'dist/bench/bareBot.js',
	nodeArgs: [],
	prepare: () => Promise.resolve({}),
};

/**
 * Veil as production runs it (the Procfile's entry, a SQLite store, members' links required, info logging), with
 * the per-member limit off: fifty members ask far more than six times a minute here.
 */
export const veil: BotKind = {
	name: 'Veil',
	...procfileWorker(),
	async prepare(_env, members, directory) {
		const key = randomBytes(32);
		const storeUrl = `sqlite://${join(directory, 'bot.sqlite')}`;
		const store = await openStore(storeUrl, createLogger('silent'));
		const accounts = new AccountRepository(store, key);
		for (const member of members) {
			await accounts.save(member.id, `${member.username}@example.com`, { accessToken: `access-${member.id}`, sessionToken: `session-${member.id}` });
		}
		await store.close();
		return {
			TOKEN_ENCRYPTION_KEY: key.toString('base64'),
			STORE_URL: storeUrl,
			REQUIRE_LINK: 'true',
			LOG_LEVEL: 'info',
			ASK_CONCURRENCY: '1000',
			ASK_QUEUE_MAX: '1000',
			ASK_MEMBER_PER_MINUTE: '0',
		};
	},
};
