import { once } from 'node:events';
import { Client, DiscordAPIError, Events, GatewayIntentBits } from 'discord.js';
import { AccountRepository } from '../accounts/accountRepository.js';
import { Admission } from '../admission/admission.js';
import type { CircuitBreakerOptions } from '../admission/circuitBreaker.js';
import type { BotContext } from './context.js';
import type { Config } from '../config/config.js';
import { ConversationRepository } from '../conversations/conversationRepository.js';
import { PendingQuestionRepository } from '../conversations/pendingQuestions.js';
import { operatorMessages } from '../operations/operatorMessages.js';
import { FlagRepository } from '../moderation/flagRepository.js';
import { GenerationClient, type GenerationClientOptions } from '../generation/generationClient.js';
import { InteractionRouter } from './interactionRouter.js';
import type { Logger } from '../logging/logger.js';
import { LoginClient } from '../accounts/loginClient.js';
import type { Registry } from './registry.js';
import { NO_MENTIONS } from '../discord/mentions.js';
import { describeRateLimit, shouldGiveUpWaiting } from '../discord/rateLimits.js';
import { useDiscordRest } from '../discord/internals/discordRest.js';
import { proxySecretHeaders } from '../discord/restProxySecret.js';
import { makeCache } from '../discord/clientCache.js';
import { dropGuildStubs } from '../discord/internals/readyGuilds.js';
import { screenGatewayPackets } from '../discord/internals/gatewayScreen.js';
import { TalkRouter } from '../talk/talkRouter.js';
import { SettingsRepository } from '../settings/settingsRepository.js';
import { makeDailyLimitsIfMissing, moveLegacySettings } from '../settings/settingsAtStart.js';
import { moveLegacyFlags } from '../moderation/flagMigration.js';
import type { Store } from '../storage/store.js';
import { openStorage, type StoreOptions } from '../storage/openStorage.js';
import { clientShardOptions, forgetShardEnvironment } from '../discord/shards.js';
import { Metrics } from '../operations/metrics.js';
import { AnswerRatings } from '../conversations/answerRatings.js';
import { RunningAsks } from '../admission/runningAsks.js';
import { UsageCounts } from '../usage/usageCounts.js';
import { startOperatorServer, type OperatorServer } from '../operations/operatorServer.js';
import { checkReadiness } from '../operations/readiness.js';
import { DAY_MS, HOUR_MS } from '../time/durations.js';
import { AutomodRuleCache } from '../automod/ruleCache.js';
import { ServerFacts } from '../discord/serverFacts.js';

export interface BotOptions {
	readonly logger: Logger;
	readonly registry: Registry;
	readonly store?: StoreOptions;
	/** Retry timings of the generation client; tests shorten them. */
	readonly generationRetry?: Pick<GenerationClientOptions, 'maxRetries' | 'minRetryDelayMs' | 'maxRetryDelayMs'>;
	/** Time-out of a login call; tests shorten it. */
	readonly loginTimeoutMs?: number;
	/** How often records past their time to live are erased from a SQLite store. Default: hourly. */
	readonly sweepIntervalMs?: number;
	/** How long a shutdown waits for interactions in flight. */
	readonly shutdownGraceMs?: number;
	/** How long to wait for the gateway's READY. */
	readonly readyTimeoutMs?: number;
	/** Timings of the circuit breaker and the line's position updates; tests shorten them. */
	readonly admission?: { readonly breaker?: CircuitBreakerOptions; readonly positionIntervalMs?: number; readonly cancelOfferMs?: number };
	/** How often idle interaction handlers of the REST client are released; tests shorten it. */
	readonly interactionHandlerSweepMs?: number;
}

export interface RunningBot {
	readonly client: Client<true>;
	readonly context: BotContext;
	readonly router: InteractionRouter;
	readonly store: Store;
	/** The port of the operators' endpoint, when METRICS_PORT is set. */
	readonly operatorPort: number | undefined;
	/** Stops taking interactions, lets those in flight finish (bounded), closes the gateway, clients and store. */
	stop(): Promise<void>;
}

/** Discord refused the bot token. Its message is one plain line without the token. */
export class TokenRejectedError extends Error {
	override readonly name = 'TokenRejectedError';

	constructor(options?: { cause?: unknown }) {
		super(operatorMessages.tokenRejected, options);
	}
}

/** Starts the bot: store, upstream clients, and the gateway client, resolving once Discord says READY. */
export async function startBot(config: Config, options: BotOptions): Promise<RunningBot> {
	const { logger } = options;
	const metrics = new Metrics();
	const storage = await openStorage(config.storeUrl, logger, { ...options.store, onError: () => metrics.recordStoreError() });
	const { store, atomic } = storage;
	const keys = { current: config.tokenEncryptionKey, previous: config.tokenEncryptionKeyPrevious };
	const flags = new FlagRepository(store, atomic, config.flagRetentionDays, keys);
	// Records in the shapes of earlier versions are moved once, before any member's command reads them.
	try {
		await moveLegacySettings(store, atomic, logger);
		await moveLegacyFlags(store, atomic, flags, logger);
	} catch (error) {
		await storage.close();
		throw error;
	}
	const generation = new GenerationClient({
		baseUrl: config.generationBaseUrl,
		apiKey: config.generationApiKey,
		model: config.generationModel,
		timeoutMs: config.generationTimeoutMs,
		...options.generationRetry,
	});
	const login = new LoginClient({ authBaseUrl: config.authBaseUrl, pathPrefix: config.authPathPrefix, timeoutMs: options.loginTimeoutMs });
	let stopping: Promise<void> | undefined;
	forgetShardEnvironment();
	const client = new Client({
		...clientShardOptions(config),
		// Interactions need no intent. Auto Moderation Configuration brings the AutoMod rule events of servers where
		// it has Manage Server (see AutomodRuleCache); Guilds, Guild Messages and Direct Messages bring the messages
		// that talk to Veil, and much more that gatewayScreen.ts drops raw. Never Message Content (SPEC §17).
		intents: [
			GatewayIntentBits.Guilds,
			GatewayIntentBits.GuildMessages,
			GatewayIntentBits.DirectMessages,
			GatewayIntentBits.AutoModerationConfiguration,
		],
		// Veil keeps no server (see readyGuilds.ts): a shard is ready at READY, not once each GUILD_CREATE came.
		waitGuildTimeout: 0,
		makeCache,
		rest: {
			api: config.discordApiUrl,
			headers: proxySecretHeaders(config.restProxySecret),
			// Consulted on every 429 and before every wait for a limited bucket, so it is also where limits are logged.
			rejectOnRateLimit: (info) => {
				const givenUp = shouldGiveUpWaiting(info, stopping !== undefined);
				logger.warn({ rateLimit: describeRateLimit(info), givenUp }, 'Discord rate limit');
				return givenUp;
			},
		},
		allowedMentions: NO_MENTIONS,
	});
	useDiscordRest(client, { interactionHandlerSweepMs: options.interactionHandlerSweepMs });
	const guildCount = dropGuildStubs(client);
	const context: BotContext = {
		config,
		logger,
		accounts: new AccountRepository(store, keys, logger),
		flags,
		settings: new SettingsRepository(atomic),
		conversations: new ConversationRepository(store, config.conversationTtlHours, keys, logger),
		pendingQuestions: new PendingQuestionRepository(store, keys, logger),
		ratings: new AnswerRatings(store, atomic, config.flagRetentionDays * DAY_MS),
		runningAsks: new RunningAsks(atomic),
		generation,
		login,
		client,
		metrics,
		automod: new AutomodRuleCache(client.rest, logger),
		serverFacts: new ServerFacts({ rest: client.rest, botId: () => client.user?.id ?? '' }),
		usage: new UsageCounts({
			atomic,
			retentionDays: config.flagRetentionDays,
			log: logger,
			hashKey: config.tokenEncryptionKey,
			onServerAsk: (outcome) => metrics.recordUsage(outcome),
		}),
		admission: new Admission({
			concurrency: config.askConcurrency,
			queueMax: config.askQueueMax,
			memberPerMinute: config.askMemberPerMinute,
			linkPerProcessPerMinute: config.linkPerProcessPerMinute,
			counter: atomic,
			onLineChange: (holding, waiting) => metrics.setLine(holding, waiting),
			onLineWait: (ms) => metrics.observeLineWait(ms / 1000),
			onCallTime: (ms) => metrics.observeGeneration(ms / 1000),
			...options.admission,
		}),
	};
	const router = new InteractionRouter(options.registry, context);
	// discord.js keeps no server, so its own AutoMod events never fire: the raw packets feed the rules.
	client.on(Events.Raw, (packet: { t?: string | null; d?: unknown }) => {
		context.automod.onPacket(packet);
		// Before the screen below renames what it takes: a server's changes forget what was kept of it.
		if (typeof packet.t === 'string') context.serverFacts.onPacket(packet.t, packet.d);
	});
	// Last of the raw listeners: it takes from discord.js every server, channel and message event (gatewayScreen.ts).
	const talk = new TalkRouter(context);
	screenGatewayPackets(client, (t, d) => talk.onPacket(t, d));
	client.on(Events.InteractionCreate, (interaction) => void router.dispatch(interaction));
	client.on(Events.Error, (error) => logger.error({ err: error }, 'discord client error'));
	client.on(Events.Debug, (message) => logger.trace({ source: 'discord.js' }, message));
	client.on(Events.ShardResume, (shardId, replayed) => logger.info({ shardId, replayed }, 'gateway session resumed'));
	client.on(Events.ShardReconnecting, (shardId) => logger.info({ shardId }, 'gateway reconnecting'));
	client.on(Events.ShardReady, (shardId) => logger.info({ shardId }, 'shard ready'));
	client.on(Events.ShardDisconnect, (event, shardId) => logger.warn({ shardId, code: event.code }, 'shard disconnected for good'));
	const unwatchGateway = metrics.watchGateway(client);
	let operator: OperatorServer | undefined;

	// In the background: until the record of daily limits is there, asks read their server's settings instead.
	void makeDailyLimitsIfMissing(context.settings, atomic, logger).catch((error: unknown) =>
		logger.warn({ err: error }, 'the record of daily limits could not be made; asks read each server’s settings meanwhile'),
	);
	const sweep = () =>
		Promise.all([store.sweepExpired(), atomic.sweepExpired()]).then(
			([records, claims]) => records + claims > 0 && logger.info({ removed: records + claims }, 'expired records erased'),
			(error: unknown) => logger.warn({ err: error }, 'sweeping expired records failed'),
		);
	const sweeper = setInterval(() => void sweep(), options.sweepIntervalMs ?? HOUR_MS).unref();
	void sweep();

	const closeAll = async () => {
		clearInterval(sweeper);
		unwatchGateway();
		await operator?.close();
		await client.destroy().catch(() => undefined);
		await Promise.allSettled([generation.close(), login.close(), storage.close(), context.automod.close()]);
	};

	// Shards identify a few seconds apart, so the bound is on a pause between one shard's READY and the next.
	const readyTimeoutMs = options.readyTimeoutMs ?? 30_000;
	const readyAbort = new AbortController();
	let readyTimer: NodeJS.Timeout | undefined;
	const progress = () => {
		clearTimeout(readyTimer);
		readyTimer = setTimeout(() => readyAbort.abort(new Error(`no shard became ready within ${readyTimeoutMs} ms`)), readyTimeoutMs);
	};
	progress();
	client.on(Events.ShardReady, progress);
	const ready = once(client, Events.ClientReady, { signal: readyAbort.signal });
	try {
		// Up before the gateway, so a process that takes long to connect answers /healthz (and a 503 on /readyz).
		if (config.metricsPort !== undefined) {
			const probeStore = () => Promise.all([store.get('settings', '__probe__'), atomic.read('__probe__')]);
			operator = await startOperatorServer({
				host: config.metricsHost,
				port: config.metricsPort,
				readiness: () => checkReadiness(client, probeStore),
				metrics,
				logger,
			});
		}
		await client.login(config.discordToken);
		await ready;
	} catch (error) {
		ready.catch(() => undefined);
		await closeAll();
		if (isTokenRejection(error)) throw new TokenRejectedError({ cause: error });
		throw error;
	} finally {
		clearTimeout(readyTimer);
		client.off(Events.ShardReady, progress);
	}
	logger.info(
		{ user: client.user?.tag, guilds: guildCount(), shards: client.options.shards, shardCount: client.options.shardCount },
		'connected to Discord',
	);

	return {
		client: client as Client<true>,
		context,
		router,
		store,
		operatorPort: operator?.port,
		stop() {
			stopping ??= (async () => {
				router.stopAccepting();
				if (!(await router.drain(options.shutdownGraceMs ?? 7000))) {
					logger.warn({ inFlight: router.inFlight }, 'shutdown grace ran out; stopping the interactions in flight');
					router.abortInFlight();
					talk.abort();
					// Long enough for each to send its "restarting" answer.
					await router.drain(1500);
				}
				await talk.drain();
				// Every ask ended above is counted, and its conversation on its way (an ask ends once its answer is out): both
				// wait in memory for a batch (writeBatch.ts), written now.
				await Promise.all([context.usage.flush(), context.conversations.flush()]);
				await closeAll();
				logger.info('stopped');
			})();
			return stopping;
		},
	};
}

function isTokenRejection(error: unknown): boolean {
	if (error instanceof DiscordAPIError && error.status === 401) return true;
	const code = (error as { code?: unknown } | null)?.code;
	return code === 'TokenInvalid' || code === 4004;
}
