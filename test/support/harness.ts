import { afterAll, beforeAll } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandModules } from '../../commands/index.js';
import { startBot, type BotOptions, type RunningBot } from '../../src/app/bot.js';
import { parseConfig, type Config } from '../../src/config/config.js';
import type { LinkedCredentials } from '../../src/accounts/credentials.js';
import { createLogger } from '../../src/logging/logger.js';
import { buildRegistry } from '../../src/app/registry.js';
import { DiscordEmulator, type DiscordEmulatorOptions } from '../../sandbox/discord/emulator.js';
import { UpstreamStandIn } from './upstreamStandIn.js';
import { assertNoApiViolations } from './publishedApi.js';

export interface HarnessOptions {
	/** Environment overrides on top of the harness's own (REQUIRE_LINK, FLAG_RETENTION_DAYS, STORE_URL, LOG_LEVEL…). */
	readonly env?: Record<string, string>;
	/** Options of the local Discord (a REST delay, a short heartbeat, say). */
	readonly discord?: DiscordEmulatorOptions;
	/** How long a bot stop waits for interactions in flight. Default 5000. */
	readonly shutdownGraceMs?: number;
	/** Timings of the circuit breaker, the line's position updates and Cancel's offer (default: never offered). */
	readonly admission?: BotOptions['admission'];
	/** How often idle interaction handlers of the bot's REST client are released. */
	readonly interactionHandlerSweepMs?: number;
}

export interface Harness {
	readonly discord: DiscordEmulator;
	readonly upstream: UpstreamStandIn;
	/** The running bot; replaced by restartBot(). */
	readonly bot: RunningBot;
	/** The configuration of the running bot; replaced by restartBot(changes). */
	readonly config: Config;
	/** The whole environment the running bot was configured from, for starting `src/main.ts` as a process. */
	readonly env: Record<string, string>;
	/** Every log line the bot wrote, as raw JSON text. */
	readonly logs: string[];
	/** The SQLite file the bot stores into (unless STORE_URL was overridden). */
	readonly sqliteFile: string;
	/** The store namespace of this harness's bot: another connection opened with it sees the bot's records. */
	readonly storeNamespace: string;
	/** Stops the bot and starts a fresh one on the same store, emulator and stand-in; `changes` alter its environment. */
	restartBot(changes?: Record<string, string>): Promise<void>;
	/** Links a member directly in the store, as a successful /link would. */
	linkMember(userId: string, credentials?: LinkedCredentials, email?: string): Promise<void>;
	stop(): Promise<void>;
}

/** Retry timings short enough for tests; the count (2 retries) stays the production one. */
export const TEST_RETRY = { minRetryDelayMs: 5, maxRetryDelayMs: 100 } as const;

export interface TestServices {
	readonly discord: DiscordEmulator;
	readonly upstream: UpstreamStandIn;
	/** A complete bot environment pointing at both, with a SQLite file in a fresh temporary directory. */
	readonly env: Record<string, string>;
	readonly sqliteFile: string;
	stop(): Promise<void>;
}

/** The local Discord and the upstream stand-in, without a bot: for tests that run the bot as its own process. */
export async function startTestServices(
	envOverrides: Record<string, string> = {},
	discordOptions: DiscordEmulatorOptions = {},
): Promise<TestServices> {
	const discord = await DiscordEmulator.start(discordOptions);
	const upstream = await UpstreamStandIn.start();
	const directory = mkdtempSync(join(tmpdir(), 'veil-e2e-'));
	const sqliteFile = join(directory, 'bot.sqlite');
	const env: Record<string, string> = {
		DISCORD_TOKEN: discord.token,
		DISCORD_APPLICATION_ID: discord.applicationId,
		DISCORD_API_URL: discord.apiUrl,
		// Attachments come from the local Discord's CDN stand-in.
		DISCORD_CDN_URL: discord.cdnUrl,
		GENERATION_BASE_URL: upstream.baseUrl,
		GENERATION_API_KEY: upstream.apiKey,
		GENERATION_MODEL: upstream.model,
		GENERATION_TIMEOUT_MS: '1000',
		AUTH_BASE_URL: upstream.authBaseUrl,
		AUTH_PATH_PREFIX: upstream.pathPrefix,
		TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
		STORE_URL: `sqlite://${sqliteFile}`,
		LOG_LEVEL: 'debug',
		// Most tests ask many times as one member; the per-minute pace has tests of its own.
		ASK_MEMBER_PER_MINUTE: '0',
		// Many members link within a minute in some tests; /link's limits have tests of their own.
		LINK_PER_PROCESS_PER_MINUTE: '0',
		...envOverrides,
	};
	return {
		discord,
		upstream,
		env,
		sqliteFile,
		async stop() {
			await Promise.allSettled([discord.stop(), upstream.stop()]);
			rmSync(directory, { recursive: true, force: true });
			assertNoApiViolations(discord);
		},
	};
}

/**
 * The whole test bed: the local Discord, the upstream stand-in and the real bot in this process, with a real SQLite
 * file in a temporary directory. Every server listens on 127.0.0.1 on a random port; stop() ends them all.
 */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
	const services = await startTestServices(options.env, options.discord);
	const { discord, upstream, sqliteFile } = services;
	let env = services.env;
	let config = parseConfig(env);
	const logs: string[] = [];
	const logger = createLogger(config.logLevel, { write: (line: string) => void logs.push(line) });
	const registry = buildRegistry(commandModules);
	const namespace = `veil-test-${randomUUID()}`;
	const launch = () =>
		startBot(config, {
			logger,
			registry,
			generationRetry: TEST_RETRY,
			loginTimeoutMs: 1000,
			store: { namespace },
			shutdownGraceMs: options.shutdownGraceMs ?? 5000,
			readyTimeoutMs: 10_000,
			// Cancel is offered on a slow answer only where a test asks for it (answerCancel.test.ts): elsewhere a slow
			// answer's first edit is its answer, as the tests of the line and the upstream's failures read it.
			admission: { cancelOfferMs: Number.POSITIVE_INFINITY, ...options.admission },
			interactionHandlerSweepMs: options.interactionHandlerSweepMs,
		});

	let bot = await launch().catch(async (error: unknown) => {
		await services.stop();
		throw error;
	});
	return {
		discord,
		upstream,
		get bot() {
			return bot;
		},
		get config() {
			return config;
		},
		get env() {
			return env;
		},
		logs,
		sqliteFile,
		storeNamespace: namespace,
		async restartBot(changes = {}) {
			await bot.stop();
			env = { ...env, ...changes };
			config = parseConfig(env);
			bot = await launch();
		},
		async linkMember(userId, credentials = { accessToken: `access-${userId}`, sessionToken: `session-${userId}` }, email = 'member@example.com') {
			await bot.context.accounts.save(userId, email, credentials);
		},
		async stop() {
			await bot.stop().catch(() => undefined);
			await services.stop();
		},
	};
}

/**
 * Starts one harness for the whole test file (beforeAll) and stops it after (afterAll). Call at the top of the
 * file; the returned function gives the running harness inside tests.
 */
export function useHarness(options: HarnessOptions = {}): () => Harness {
	let harness: Harness | undefined;
	beforeAll(async () => {
		harness = await startHarness(options);
	});
	afterAll(async () => {
		await harness?.stop();
	});
	return () => {
		if (!harness) throw new Error('the harness runs only inside the tests of the file that uses it');
		return harness;
	};
}
