import { once } from 'node:events';
import { Client, DiscordAPIError, Events } from 'discord.js';
import { AccountRepository } from '../accounts/accountRepository.js';
import type { BotContext } from './command.js';
import type { Config } from '../config/config.js';
import { ConversationRepository } from '../conversations/conversationRepository.js';
import { PendingQuestionRepository } from '../conversations/pendingQuestions.js';
import { messages } from '../answers/messages.js';
import { FlagRepository } from '../moderation/flagRepository.js';
import { GenerationClient, type GenerationClientOptions } from '../generation/generationClient.js';
import { InteractionRouter } from './interactionRouter.js';
import type { Logger } from '../logging/logger.js';
import { LoginClient } from '../accounts/loginClient.js';
import type { Registry } from './registry.js';
import { NO_MENTIONS } from './mentions.js';
import { describeRateLimit, shouldGiveUpWaiting } from './rateLimits.js';
import { useDiscordRest } from './discordRest.js';
import { dropGuildStubs, makeCache } from './clientCache.js';
import { SettingsRepository } from '../storage/settingsRepository.js';
import { openStore, type Store, type StoreOptions } from '../storage/store.js';

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
}

export interface RunningBot {
	readonly client: Client<true>;
	readonly context: BotContext;
	readonly router: InteractionRouter;
	readonly store: Store;
	/** Stops taking interactions, lets those in flight finish (bounded), closes the gateway, clients and store. */
	stop(): Promise<void>;
}

/** Discord refused the bot token. Its message is one plain line without the token. */
export class TokenRejectedError extends Error {
	override readonly name = 'TokenRejectedError';

	constructor(options?: { cause?: unknown }) {
		super(messages.operator.tokenRejected, options);
	}
}

/** Starts the bot: store, upstream clients, and the gateway client, resolving once Discord says READY. */
export async function startBot(config: Config, options: BotOptions): Promise<RunningBot> {
	const { logger } = options;
	const store = await openStore(config.storeUrl, logger, options.store);
	const generation = new GenerationClient({
		baseUrl: config.generationBaseUrl,
		apiKey: config.generationApiKey,
		model: config.generationModel,
		timeoutMs: config.generationTimeoutMs,
		...options.generationRetry,
	});
	const login = new LoginClient({ authBaseUrl: config.authBaseUrl, pathPrefix: config.authPathPrefix, timeoutMs: options.loginTimeoutMs });
	let stopping: Promise<void> | undefined;
	const client = new Client({
		// Interactions need no intent, and Veil reads nothing else the gateway sends (see clientCache.ts).
		intents: [],
		makeCache,
		rest: {
			api: config.discordApiUrl,
			// Consulted on every 429 and before every wait for a limited bucket, so it is also where limits are logged.
			rejectOnRateLimit: (info) => {
				const givenUp = shouldGiveUpWaiting(info, stopping !== undefined);
				logger.warn({ rateLimit: describeRateLimit(info), givenUp }, 'Discord rate limit');
				return givenUp;
			},
		},
		allowedMentions: NO_MENTIONS,
	});
	useDiscordRest(client);
	const guildCount = dropGuildStubs(client);
	const context: BotContext = {
		config,
		logger,
		accounts: new AccountRepository(store, config.tokenEncryptionKey),
		flags: new FlagRepository(store, config.flagRetentionDays),
		settings: new SettingsRepository(store),
		conversations: new ConversationRepository(store, config.conversationTtlHours),
		pendingQuestions: new PendingQuestionRepository(store),
		generation,
		login,
		client,
	};
	const router = new InteractionRouter(options.registry, context);
	client.on(Events.InteractionCreate, (interaction) => void router.dispatch(interaction));
	client.on(Events.Error, (error) => logger.error({ err: error }, 'discord client error'));
	client.on(Events.Debug, (message) => logger.trace({ source: 'discord.js' }, message));
	client.on(Events.ShardResume, (shardId, replayed) => logger.info({ shardId, replayed }, 'gateway session resumed'));
	client.on(Events.ShardReconnecting, (shardId) => logger.info({ shardId }, 'gateway reconnecting'));

	const sweep = () =>
		store.sweepExpired().then(
			(removed) => removed > 0 && logger.info({ removed }, 'expired records erased'),
			(error: unknown) => logger.warn({ err: error }, 'sweeping expired records failed'),
		);
	const sweeper = setInterval(sweep, options.sweepIntervalMs ?? 3_600_000).unref();
	void sweep();

	const closeAll = async () => {
		clearInterval(sweeper);
		await client.destroy().catch(() => undefined);
		await Promise.allSettled([generation.close(), login.close(), store.close()]);
	};

	const ready = once(client, Events.ClientReady, { signal: AbortSignal.timeout(options.readyTimeoutMs ?? 30_000) });
	try {
		await client.login(config.discordToken);
		await ready;
	} catch (error) {
		ready.catch(() => undefined);
		await closeAll();
		if (isTokenRejection(error)) throw new TokenRejectedError({ cause: error });
		throw error;
	}
	logger.info({ user: client.user?.tag, guilds: guildCount() }, 'connected to Discord');

	return {
		client: client as Client<true>,
		context,
		router,
		store,
		stop() {
			stopping ??= (async () => {
				router.stopAccepting();
				if (!(await router.drain(options.shutdownGraceMs ?? 7000))) {
					logger.warn({ inFlight: router.inFlight }, 'shutdown grace ran out; stopping the interactions in flight');
					router.abortInFlight();
					// Long enough for each to send its "restarting" answer.
					await router.drain(1500);
				}
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
