import type { Client } from 'discord.js';
import type { AccountRepository } from '../accounts/accountRepository.js';
import type { Admission } from '../admission/admission.js';
import type { AutomodRuleCache } from '../automod/ruleCache.js';
import type { ServerFacts } from '../discord/serverFacts.js';
import type { Config } from '../config/config.js';
import type { ConversationRepository } from '../conversations/conversationRepository.js';
import type { FlagRepository } from '../moderation/flagRepository.js';
import type { GenerationClient } from '../generation/generationClient.js';
import type { Logger } from '../logging/logger.js';
import type { LoginClient } from '../accounts/loginClient.js';
import type { Metrics } from '../operations/metrics.js';
import type { PendingQuestionRepository } from '../conversations/pendingQuestions.js';
import type { AnswerRatings } from '../conversations/answerRatings.js';
import type { RunningAsks } from '../admission/runningAsks.js';
import type { SettingsRepository } from '../settings/settingsRepository.js';
import type { SupportedLocale } from '../i18n/locales.js';
import type { UsageCounts } from '../usage/usageCounts.js';
import type { Place } from './place.js';

/** What every handler stands on; built once at start (tests build their own) and passed in, never imported. */
export interface BotContext {
	readonly config: Config;
	readonly logger: Logger;
	readonly accounts: AccountRepository;
	readonly flags: FlagRepository;
	readonly settings: SettingsRepository;
	readonly conversations: ConversationRepository;
	readonly pendingQuestions: PendingQuestionRepository;
	/** 👍 / 👎 on shown answers. */
	readonly ratings: AnswerRatings;
	/** The asks this process runs now, which Cancel can stop. */
	readonly runningAsks: RunningAsks;
	readonly generation: GenerationClient;
	readonly login: LoginClient;
	readonly client: Client;
	/** Whether each ask goes upstream, and when: the line, the limits and the circuit breaker. */
	readonly admission: Admission;
	/** This bot's operators' metrics. */
	readonly metrics: Metrics;
	/** Each server's AutoMod rules, applied to prompts and answers where Veil has Manage Server. */
	readonly automod: AutomodRuleCache;
	/** Servers' roles, overwrites and channels, kept between the messages that talk to Veil. */
	readonly serverFacts: ServerFacts;
	/** The counts behind /usage: each ask, per server and day, and per member. */
	readonly usage: UsageCounts;
}

/**
 * The context of one interaction: the bot's, plus what the router decided once for it: a child logger that names
 * it, where it happens and the reader's language.
 */
export interface InteractionContext extends BotContext {
	readonly log: Logger;
	/** A server that installed Veil, or outside: what differs between them (see place.ts). */
	readonly place: Place;
	/** The language of whoever is answered: the interaction's locale, as Veil speaks it. */
	readonly locale: SupportedLocale;
	/** Aborts when a shutdown runs out of patience: pass it to every upstream call. */
	readonly signal: AbortSignal;
}
