import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PermissionFlagsBits, type APIUser } from 'discord.js';
import { AccountRepository } from '../src/accounts/accountRepository.js';
import { createLogger } from '../src/logging/logger.js';
import { openStore } from '../src/storage/openStorage.js';
import { DEFAULT_BOT_PERMISSIONS, DiscordEmulator, makeUser, type GuildModel } from '../sandbox/discord/emulator.js';
import { procfileCommand } from '../test/support/botProcess.js';
import { safeResponse, UpstreamStandIn } from '../test/support/upstreamStandIn.js';
import { AskTracker, type LoadResult } from './load.js';
import { MentionTracker } from './mentionTracker.js';
import { startBotProcess, type BotUnderTest } from './botUnderTest.js';
import { MB } from './stats.js';

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
	/** Of that, its main thread's (where /proc tells), and the garbage collector's pauses of the main thread. */
	mainThreadMicros?: number | undefined;
	gcPauseMicros?: number;
}

/** What the slow-upstream phase saw. */
export interface SlowFigures {
	load: LoadResult;
	idleRss: number;
	peakRss: number;
	warnings: Record<string, number>;
}

/** What a phase of chatter cost a bot. */
export interface ChatterFigures {
	rate: number;
	count: number;
	seconds: number;
	cpuMicros: number;
	peakRss: number;
	memory: Memory;
}

export interface StartFigures {
	/** CPU from the process's start until it went idle. */
	cpuMs: number;
	memory: Memory;
}

export interface BotKind {
	readonly name: string;
	/** The compiled entry, from the project's root. */
	readonly entry: string;
	/** Options for `node` before the entry. */
	readonly nodeArgs: readonly string[];
	/** Environment the command itself sets (the Procfile's `NAME=value` words), under the bench's own. */
	readonly env: Readonly<Record<string, string>>;
	/** Set up what the bot needs besides the common environment (Veil: its store, with the members linked). */
	prepare(env: Record<string, string>, members: readonly APIUser[], directory: string): Promise<Record<string, string>>;
}

/** The Procfile's `worker:` command, node's options apart from the entry: Veil is benched as production runs it. */
function procfileWorker(): { entry: string; nodeArgs: string[]; env: Record<string, string> } {
	const { env, argv } = procfileCommand('worker');
	const entry = argv.at(-1);
	if (argv[0] !== 'node' || entry === undefined) throw new Error('the Procfile has no `worker: node … <entry>` line');
	return { entry, nodeArgs: argv.slice(1, -1), env };
}

/** Starts a bot of `kind` with `env` over the environment its command sets itself. */
export function startKind(kind: BotKind, env: Record<string, string>): BotUnderTest {
	return startBotProcess(kind.entry, { ...kind.env, ...env }, kind.nodeArgs);
}

const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms));

/** N servers of five text channels and five roles (@everyone, the bot's and three more), as a bot of that size sees. */
export function addGuilds(emulator: DiscordEmulator, count: number): GuildModel[] {
	return Array.from({ length: count }, (_, n) => {
		const guild = emulator.addGuild({ name: `Bench ${n}`, channels: ['general', 'help', 'random', 'staff', 'mod-log'].map((name) => ({ name })) });
		for (const name of ['Moderator', 'Member', 'Muted']) emulator.addRole(guild.id, { name, permissions: 0n });
		return guild;
	});
}

/**
 * One bot under test on its own local Discord and upstream stand-in, for the whole run: started and measured with
 * `guildsFirst` servers, stopped, started again with `guildsThen`, then loaded phase by phase. The runner interleaves
 * the two bots' phases, so a noisy minute on a shared machine falls on both rather than on one.
 */
export class BotBench {
	readonly kind: BotKind;
	readonly #plan: BenchPlan;
	readonly #emulator: DiscordEmulator;
	readonly #upstream: UpstreamStandIn;
	readonly #directory: string;
	readonly #tracker: AskTracker;
	readonly #guilds: GuildModel[];
	readonly #members: APIUser[];
	#env: Record<string, string> = {};
	#upstreamMs: number;
	#bot: BotUnderTest | undefined;

	private constructor(kind: BotKind, plan: BenchPlan, emulator: DiscordEmulator, upstream: UpstreamStandIn) {
		this.kind = kind;
		this.#plan = plan;
		this.#emulator = emulator;
		this.#upstream = upstream;
		this.#directory = mkdtempSync(join(tmpdir(), 'veil-bench-'));
		this.#tracker = new AskTracker(emulator);
		this.#upstreamMs = plan.upstreamMs;
		upstream.setDefaultGeneration((request) => {
			const prompt = (request.json as { contents?: Array<{ parts?: Array<{ text?: string }> }> }).contents?.[0]?.parts?.[0]?.text;
			return { json: safeResponse(`Answer to: ${prompt}`), delayMs: this.#upstreamMs };
		});
		this.#guilds = [emulator.defaultGuild, ...addGuilds(emulator, plan.guildsFirst - 1)];
		this.#members = Array.from({ length: plan.members }, (_, n) => makeUser(`bench${n}`));
	}

	static async create(kind: BotKind, plan: BenchPlan): Promise<BotBench> {
		const emulator = await DiscordEmulator.start({ defaultTimeoutMs: 30_000 });
		const upstream = await UpstreamStandIn.start();
		const bench = new BotBench(kind, plan, emulator, upstream);
		const common = localServicesEnv(emulator, upstream);
		bench.#env = { ...common, ...(await kind.prepare(common, bench.#members, bench.#directory)) };
		return bench;
	}

	get #running(): BotUnderTest {
		if (!this.#bot) throw new Error(`${this.kind.name} is not running`);
		return this.#bot;
	}

	/** Starts the bot and waits until it is idle: the CPU that took, and its memory after two full collections. */
	async start(log: (line: string) => void): Promise<StartFigures> {
		this.#bot = startKind(this.kind, this.#env);
		try {
			await this.#emulator.waitForReady(60_000);
			const cpu = await this.#bot.waitForIdle();
			const measured = await this.#bot.measure();
			log(
				`  ${this.kind.name}: ${this.#guilds.length} servers: start took ${(cpu / 1000).toFixed(0)} ms of CPU, RSS ${(measured.rss / MB).toFixed(1)} MB`,
			);
			return { cpuMs: cpu / 1000, memory: { rss: measured.rss, heap: measured.heapUsed ?? Number.NaN } };
		} catch (error) {
			this.#reportStderr();
			throw error;
		}
	}

	async stop(): Promise<void> {
		await this.#bot?.stop();
		this.#bot = undefined;
	}

	/** More servers, up to `total`, for the next start. */
	growTo(total: number): void {
		this.#guilds.push(...addGuilds(this.#emulator, total - this.#guilds.length));
	}

	/** Asks at 50/s, unmeasured: connections opened and code warm before the phases. */
	async warmUp(): Promise<void> {
		await this.#offer(50, this.#plan.warmUp);
		await this.#running.waitForIdle({ windowMs: 500, timeoutMs: 30_000 });
		this.#tracker.forget();
	}

	/** `count` asks at `rate` a second, with the CPU the bot used from the first dispatch to the last answer. */
	async load(rate: number, count: number, log: (line: string) => void): Promise<RateFigures> {
		const running = this.#running;
		// `BENCH_PROFILE=Veil` (or `bare`): a CPU profile of each of that bot's load phases, in the working directory.
		const profiling = process.env.BENCH_PROFILE === this.kind.name;
		if (profiling) await running.profile();
		const before = await running.sample();
		const load = await this.#offer(rate, count);
		const after = await running.sample();
		if (profiling) await running.profile(resolve(`${this.kind.name}-${rate}-${Date.now()}.cpuprofile`));
		log(`  ${this.kind.name}: ${rate}/s: ${load.answered}/${count} answered in ${load.seconds.toFixed(1)} s`);
		for (const kind of load.wrongKinds) log(`    wrong: ${kind}`);
		await running.waitForIdle({ windowMs: 500, timeoutMs: 60_000 });
		this.#tracker.forget();
		return {
			rate,
			load,
			cpuMicros: after.cpuMicros - before.cpuMicros,
			mainThreadMicros:
				after.mainThreadMicros === undefined || before.mainThreadMicros === undefined ? undefined : after.mainThreadMicros - before.mainThreadMicros,
			gcPauseMicros: after.gcPauseMicros - before.gcPauseMicros,
		};
	}

	/** Lets the bot send messages in threads in every server (Discord's default role does not), before it starts. */
	grantThreads(): void {
		for (const guild of this.#guilds) this.#emulator.setBotPermissions(guild.id, DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.SendMessagesInThreads);
	}

	/**
	 * `count` threads started by members in the first channels of the first `servers` servers (all of them unless
	 * given), round those servers; then the bot is let go idle.
	 */
	async openThreads(count: number, servers = this.#guilds.length): Promise<string[]> {
		const threads = Array.from({ length: count }, (_, n) => {
			const guild = this.#guilds[n % Math.min(servers, this.#guilds.length)] as GuildModel;
			return this.#emulator.startThread(guild.channels[0]?.id as string, `bench thread ${n}`, this.#members[n % this.#members.length]).id;
		});
		await this.#running.waitForIdle({ windowMs: 500, timeoutMs: 60_000 });
		return threads;
	}

	/** `count` mentions of the bot at `rate` a second, one in each of `threads`: its replies timed, and its CPU. */
	async mentions(rate: number, threads: readonly string[], log: (line: string) => void, label = 'mentions in a thread'): Promise<RateFigures> {
		const running = this.#running;
		const tracker = new MentionTracker(this.#emulator);
		try {
			const before = await running.sample();
			const load = await tracker.offer({
				rate,
				count: threads.length,
				members: this.#members,
				threads,
				// A mention in a server not yet read waits on six requests held to the client-side 50 a second.
				timeoutMs: 30_000 + threads.length * 150,
			});
			const after = await running.sample();
			log(`  ${this.kind.name}: ${label}, ${rate}/s: ${load.answered}/${threads.length} answered in ${load.seconds.toFixed(1)} s`);
			for (const kind of load.wrongKinds) log(`    wrong: ${kind}`);
			await running.waitForIdle({ windowMs: 500, timeoutMs: 60_000 });
			return { rate, load, cpuMicros: after.cpuMicros - before.cpuMicros };
		} finally {
			tracker.close();
		}
	}

	/** `slowAsks` asks at 400/s on the slow upstream, all in flight together: peak RSS against idle, and warnings. */
	async slow(log: (line: string) => void): Promise<SlowFigures> {
		const running = this.#running;
		this.#upstreamMs = this.#plan.slowUpstreamMs;
		const idleRss = (await running.sample()).rss;
		let peakRss = idleRss;
		const load = await this.#offer(400, this.#plan.slowAsks, () => {
			void running.sample().then(
				(reply) => (peakRss = Math.max(peakRss, reply.rss)),
				() => undefined,
			);
		});
		this.#upstreamMs = this.#plan.upstreamMs;
		await sleep(100);
		const { warnings } = await running.sample();
		log(`  ${this.kind.name}: slow upstream: ${load.answered}/${this.#plan.slowAsks} answered in ${load.seconds.toFixed(1)} s`);
		return { load, idleRss, peakRss, warnings };
	}

	/**
	 * `count` messages at `rate` a second, chatter between members that does not address the bot, spread over every
	 * server's first channel: the CPU the bot used from the first to the last (and until it is idle again), and its
	 * RSS and heap after two full collections.
	 */
	async chatter(rate: number, count: number, log: (line: string) => void): Promise<ChatterFigures> {
		const running = this.#running;
		const before = await running.sample();
		const started = performance.now();
		const member = this.#members[0] as APIUser;
		let peakRss = before.rss;
		for (let sent = 0; sent < count;) {
			const due = Math.min(count, Math.floor(((performance.now() - started) / 1000) * rate) + 1);
			for (; sent < due; sent++) {
				const guild = this.#guilds[sent % this.#guilds.length] as GuildModel;
				this.#emulator.postAsMember({ user: member, channelId: guild.channels[0]?.id, content: `chatter ${sent}` });
			}
			if (sent % rate < 50)
				void running.sample().then(
					(reply) => (peakRss = Math.max(peakRss, reply.rss)),
					() => undefined,
				);
			await sleep(10);
		}
		const seconds = (performance.now() - started) / 1000;
		await running.waitForIdle({ windowMs: 500, timeoutMs: 60_000 });
		const after = await running.measure();
		log(`  ${this.kind.name}: ${count} chatter messages at ${rate}/s over ${this.#guilds.length} servers in ${seconds.toFixed(1)} s`);
		return {
			rate,
			count,
			seconds,
			cpuMicros: after.cpuMicros - before.cpuMicros,
			peakRss,
			memory: { rss: after.rss, heap: after.heapUsed ?? Number.NaN },
		};
	}

	/** The bot's memory after two full collections, idle. */
	async memory(): Promise<Memory> {
		const measured = await this.#running.measure();
		return { rss: measured.rss, heap: measured.heapUsed ?? Number.NaN };
	}

	/** Stops the bot (by its pid), the local Discord and the stand-in, and removes the scratch directory. */
	async close(): Promise<void> {
		this.#tracker.close();
		await this.stop();
		await Promise.allSettled([this.#emulator.stop(), this.#upstream.stop()]);
		rmSync(this.#directory, { recursive: true, force: true });
	}

	#offer(rate: number, count: number, onTick?: () => void): Promise<LoadResult> {
		return this.#tracker
			.offer({ rate, count, members: this.#members, guilds: this.#guilds, timeoutMs: 30_000 + (count / 40) * 1000, onTick })
			.catch((error: unknown) => {
				this.#reportStderr();
				throw error;
			});
	}

	#reportStderr(): void {
		if (this.#bot) process.stderr.write(`${this.kind.name} stderr:\n${this.#bot.stderr.join('').slice(-4000)}\n`);
	}
}

/** The bare discord.js bot: nothing to prepare. */
export const bareBot: BotKind = {
	name: 'bare',
	entry: 'dist/bench/bareBot.js',
	nodeArgs: [],
	env: {},
	prepare: () => Promise.resolve({}),
};

/** The bare bot with the message intents too (Guild Messages, Direct Messages), and discord.js's default caches. */
export const bareBotWithMessages: BotKind = { ...bareBot, name: 'bare + messages', env: { BENCH_MESSAGE_INTENTS: '1' } };

/**
 * Veil as production runs it (the Procfile's entry, a SQLite store, members' links required, info logging), with
 * the per-member limit off: fifty members ask far more than six times a minute here.
 */
export const veil: BotKind = {
	name: 'Veil',
	...procfileWorker(),
	prepare: (_env, members, directory) => prepareVeil(`sqlite://${join(directory, 'bot.sqlite')}`, members),
};

/** Links every member in the store at `storeUrl`, sealed with a new key: Veil's environment for that store. */
export async function prepareVeil(storeUrl: string, members: readonly APIUser[]): Promise<Record<string, string>> {
	const key = randomBytes(32);
	const store = await openStore(storeUrl, createLogger('silent'));
	const accounts = new AccountRepository(store, { current: key }, createLogger('silent'));
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
}

/** The environment that points a bot at a local Discord and the upstream stand-in. */
export function localServicesEnv(emulator: DiscordEmulator, upstream: UpstreamStandIn): Record<string, string> {
	return {
		DISCORD_TOKEN: emulator.token,
		DISCORD_APPLICATION_ID: emulator.applicationId,
		DISCORD_API_URL: emulator.apiUrl,
		GENERATION_BASE_URL: upstream.baseUrl,
		GENERATION_API_KEY: upstream.apiKey,
		GENERATION_MODEL: upstream.model,
		AUTH_BASE_URL: upstream.authBaseUrl,
		AUTH_PATH_PREFIX: upstream.pathPrefix,
	};
}
