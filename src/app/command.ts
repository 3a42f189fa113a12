import type {
	ApplicationCommandType,
	ButtonInteraction,
	ChatInputCommandInteraction,
	MessageContextMenuCommandInteraction,
	ModalSubmitInteraction,
	RESTPostAPIChatInputApplicationCommandsJSONBody,
	RESTPostAPIContextMenuApplicationCommandsJSONBody,
} from 'discord.js';
import type { Client } from 'discord.js';
import type { AccountRepository } from '../accounts/accountRepository.js';
import type { Admission } from '../admission/admission.js';
import type { AutomodRuleCache } from '../automod/ruleCache.js';
import type { Config } from '../config/config.js';
import type { ConversationRepository } from '../conversations/conversationRepository.js';
import type { CustomIdPrefix } from '../discord/customId.js';
import type { FlagRepository } from '../moderation/flagRepository.js';
import type { GenerationClient } from '../generation/generationClient.js';
import type { Logger } from '../logging/logger.js';
import type { LoginClient } from '../accounts/loginClient.js';
import type { PendingQuestionRepository } from '../conversations/pendingQuestions.js';
import type { SettingsRepository } from '../settings/settingsRepository.js';

/** What every handler stands on; built once at start (tests build their own) and passed in, never imported. */
export interface BotContext {
	readonly config: Config;
	readonly logger: Logger;
	readonly accounts: AccountRepository;
	readonly flags: FlagRepository;
	readonly settings: SettingsRepository;
	readonly conversations: ConversationRepository;
	readonly pendingQuestions: PendingQuestionRepository;
	readonly generation: GenerationClient;
	readonly login: LoginClient;
	readonly client: Client;
	/** Whether each ask goes upstream, and when: the line, the limits and the circuit breaker. */
	readonly admission: Admission;
	/** Each server's AutoMod rules, applied to prompts and answers where Veil has Manage Server. */
	readonly automod: AutomodRuleCache;
}

/** The context of one interaction: the bot's, plus a child logger that names the interaction. */
export interface InteractionContext extends BotContext {
	readonly log: Logger;
	/** Aborts when a shutdown runs out of patience: pass it to every upstream call. */
	readonly signal: AbortSignal;
}

/** A button a command owns, found by its `custom_id` prefix; `payload` is the rest of the id, split at `:`. */
export interface ButtonHandler {
	readonly prefix: CustomIdPrefix;
	handle(interaction: ButtonInteraction, payload: readonly string[], ctx: InteractionContext): Promise<void>;
}

/** A modal a command owns, found like a button. */
export interface ModalHandler {
	readonly prefix: CustomIdPrefix;
	handle(interaction: ModalSubmitInteraction, payload: readonly string[], ctx: InteractionContext): Promise<void>;
}

/** One slash command: its registration JSON, its handler, and the buttons and modals it owns. */
export interface SlashCommand {
	readonly data: RESTPostAPIChatInputApplicationCommandsJSONBody;
	execute(interaction: ChatInputCommandInteraction, ctx: InteractionContext): Promise<void>;
	readonly buttons?: readonly ButtonHandler[];
	readonly modals?: readonly ModalHandler[];
}

/** The registration JSON of a message command (the Apps menu of a message): a name, no description or options. */
export type MessageCommandData = RESTPostAPIContextMenuApplicationCommandsJSONBody & { readonly type: ApplicationCommandType.Message };

/** One message command: like a slash command, run on the message it was picked on. */
export interface MessageCommand {
	readonly data: MessageCommandData;
	execute(interaction: MessageContextMenuCommandInteraction, ctx: InteractionContext): Promise<void>;
	readonly buttons?: readonly ButtonHandler[];
	readonly modals?: readonly ModalHandler[];
}

/** What a module of commands/ exports. */
export type Command = SlashCommand | MessageCommand;
