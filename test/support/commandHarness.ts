import { randomUUID } from 'node:crypto';
import {
	ApplicationCommandOptionType,
	ApplicationCommandType,
	ChatInputCommandInteraction,
	Client,
	ClientUser,
	InteractionContextType,
	InteractionType,
	PermissionFlagsBits,
	type APIApplicationCommandInteractionDataBasicOption,
	type InteractionReplyOptions,
} from 'discord.js';
import { commandModules } from '../../commands/index.js';
import { AccountRepository } from '../../src/accounts/accountRepository.js';
import { LoginClient } from '../../src/accounts/loginClient.js';
import { Admission } from '../../src/admission/admission.js';
import type { BotContext } from '../../src/app/context.js';
import { InteractionRouter } from '../../src/app/interactionRouter.js';
import { buildRegistry } from '../../src/app/registry.js';
import { AutomodRuleCache } from '../../src/automod/ruleCache.js';
import { ServerFacts } from '../../src/discord/serverFacts.js';
import { parseConfig } from '../../src/config/config.js';
import { ConversationRepository } from '../../src/conversations/conversationRepository.js';
import { AnswerRatings } from '../../src/conversations/answerRatings.js';
import { RunningAsks } from '../../src/admission/runningAsks.js';
import { PendingQuestionRepository } from '../../src/conversations/pendingQuestions.js';
import { GenerationClient } from '../../src/generation/generationClient.js';
import { createLogger } from '../../src/logging/logger.js';
import { FlagRepository } from '../../src/moderation/flagRepository.js';
import { Metrics } from '../../src/operations/metrics.js';
import { UsageCounts } from '../../src/usage/usageCounts.js';
import { SettingsRepository } from '../../src/settings/settingsRepository.js';
import { openStorage, type Storage } from '../../src/storage/openStorage.js';
import { VALID_ENV } from './configFixture.js';

/** A plain member's permissions in a server, and those of a manager (Manage Server) and a moderator. */
export const MEMBER = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.UseApplicationCommands;
export const MANAGER = MEMBER | PermissionFlagsBits.ManageGuild;
export const MODERATOR = MEMBER | PermissionFlagsBits.ManageMessages;

export const GUILD_ID = '810000000000000001';
export const CHANNEL_ID = '820000000000000001';
const APPLICATION_ID = '800000000000000001';
const BOT_ID = APPLICATION_ID;

/** What a handler sent back through the interaction, in order: the first is the reply (or the deferral). */
export interface Answer {
	readonly kind: 'reply' | 'deferReply' | 'editReply' | 'followUp' | 'showModal';
	readonly content?: string;
	readonly ephemeral: boolean;
	readonly options: unknown;
}

/**
 * The command layer of the tests: the bot's router and every command module, on a context of its own built like
 * the bot's (a memory store, the stand-in addresses of the model's and the account services, never called by the
 * commands driven here), with no Discord at all. An interaction is discord.js's own, built from the payload
 * Discord would send; only its four ways of answering are replaced, by a recorder.
 */
export interface CommandHarness {
	readonly ctx: BotContext;
	/** Runs one slash command as a member of GUILD_ID (with `permissions` there), and returns what it answered. */
	run(command: SlashCall): Promise<Answer[]>;
	close(): Promise<void>;
}

export interface SlashCall {
	readonly name: string;
	readonly subcommand?: string;
	readonly options?: readonly APIApplicationCommandInteractionDataBasicOption[];
	readonly userId?: string;
	readonly permissions?: bigint;
	readonly locale?: string;
}

export async function startCommandHarness(): Promise<CommandHarness> {
	const config = parseConfig({ ...VALID_ENV, STORE_URL: 'memory://' });
	const logger = createLogger(process.env.VEIL_TEST_LOG === '1' ? 'debug' : 'silent');
	const storage: Storage = await openStorage('memory://', logger);
	const { store, atomic } = storage;
	const keys = { current: config.tokenEncryptionKey };
	// Never logged in; a request to Discord, which no command driven here should make, meets a closed port.
	const client = new Client({ intents: [], rest: { api: 'http://127.0.0.1:9/api' } });
	// Who the bot is, as READY would have told it (a lookup of permissions compares ids with it).
	client.user = Reflect.construct(ClientUser, [
		client,
		{ id: BOT_ID, username: 'Veil', discriminator: '0', global_name: null, avatar: null, bot: true },
	]) as ClientUser;
	const ctx: BotContext = {
		config,
		logger,
		accounts: new AccountRepository(store, keys, logger),
		flags: new FlagRepository(store, atomic, config.flagRetentionDays, keys),
		settings: new SettingsRepository(atomic),
		usage: new UsageCounts({ atomic, retentionDays: config.flagRetentionDays, log: logger, hashKey: config.tokenEncryptionKey }),
		conversations: new ConversationRepository(store, config.conversationTtlHours, keys, logger),
		pendingQuestions: new PendingQuestionRepository(store, keys, logger),
		ratings: new AnswerRatings(store, atomic, config.flagRetentionDays * 86_400_000),
		runningAsks: new RunningAsks(atomic),
		generation: new GenerationClient({
			baseUrl: config.generationBaseUrl,
			apiKey: config.generationApiKey,
			model: config.generationModel,
			timeoutMs: 1000,
		}),
		login: new LoginClient({ authBaseUrl: config.authBaseUrl, pathPrefix: config.authPathPrefix, timeoutMs: 1000 }),
		client,
		metrics: new Metrics(),
		automod: new AutomodRuleCache(client.rest, logger),
		serverFacts: new ServerFacts({ rest: client.rest, botId: () => BOT_ID }),
		admission: new Admission({
			concurrency: config.askConcurrency,
			queueMax: config.askQueueMax,
			memberPerMinute: config.askMemberPerMinute,
			linkPerProcessPerMinute: config.linkPerProcessPerMinute,
			counter: atomic,
		}),
	};
	const router = new InteractionRouter(buildRegistry(commandModules), ctx);
	return {
		ctx,
		async run(call) {
			const answers: Answer[] = [];
			const interaction = slashInteraction(client, call);
			recordAnswers(interaction, answers);
			await router.dispatch(interaction);
			return answers;
		},
		async close() {
			await Promise.allSettled([ctx.generation.close(), ctx.login.close(), ctx.automod.close(), storage.close(), client.destroy()]);
		},
	};
}

/** discord.js's interaction for the payload Discord sends for `call`, in a text channel of a server that installed Veil. */
function slashInteraction(client: Client, call: SlashCall): ChatInputCommandInteraction {
	const userId = call.userId ?? '830000000000000001';
	const user = { id: userId, username: `member-${userId.slice(-4)}`, discriminator: '0', global_name: null, avatar: null };
	const options = call.subcommand
		? [{ type: ApplicationCommandOptionType.Subcommand, name: call.subcommand, options: call.options ?? [] }]
		: (call.options ?? []);
	const payload = {
		id: String(BigInt(Date.now() - 1_420_070_400_000) << 22n),
		application_id: APPLICATION_ID,
		type: InteractionType.ApplicationCommand,
		token: randomUUID(),
		version: 1,
		locale: call.locale ?? 'en-US',
		guild_locale: 'en-US',
		guild_id: GUILD_ID,
		channel_id: CHANNEL_ID,
		channel: { id: CHANNEL_ID, type: 0, guild_id: GUILD_ID, name: 'general' },
		member: {
			user,
			roles: [],
			joined_at: new Date(0).toISOString(),
			deaf: false,
			mute: false,
			flags: 0,
			permissions: String(call.permissions ?? MEMBER),
		},
		app_permissions: String(MEMBER | PermissionFlagsBits.EmbedLinks | PermissionFlagsBits.AttachFiles),
		authorizing_integration_owners: { '0': GUILD_ID },
		context: InteractionContextType.Guild,
		entitlements: [],
		data: { id: '840000000000000001', name: call.name, type: ApplicationCommandType.ChatInput, options },
	};
	// The constructor is discord.js's own, marked internal in its types: the client builds interactions from packets.
	return Reflect.construct(ChatInputCommandInteraction, [client, payload]) as ChatInputCommandInteraction;
}

/** Replaces the interaction's ways of answering (each a request to Discord) by a recorder, keeping its state as discord.js does. */
function recordAnswers(interaction: ChatInputCommandInteraction, answers: Answer[]): void {
	const record = (kind: Answer['kind'], options: unknown): void => {
		const given = typeof options === 'string' ? { content: options } : ((options ?? {}) as InteractionReplyOptions & { flags?: unknown });
		const ephemeral = Boolean(given.ephemeral) || (BigInt(Number(given.flags ?? 0)) & 64n) !== 0n;
		answers.push({ kind, content: typeof given.content === 'string' ? given.content : undefined, ephemeral, options });
	};
	const answering = interaction as unknown as Record<string, unknown> & { replied: boolean; deferred: boolean; ephemeral: boolean | null };
	answering.reply = async (options: unknown) => {
		record('reply', options);
		answering.replied = true;
		answering.ephemeral = answers.at(-1)?.ephemeral ?? false;
	};
	answering.deferReply = async (options: unknown) => {
		record('deferReply', options);
		answering.deferred = true;
		answering.ephemeral = answers.at(-1)?.ephemeral ?? false;
	};
	answering.editReply = async (options: unknown) => void record('editReply', options);
	answering.followUp = async (options: unknown) => void record('followUp', options);
	answering.showModal = async (options: unknown) => {
		record('showModal', options);
		answering.replied = true;
	};
}
