import { escapeMarkdown, type BaseInteraction, type Client } from 'discord.js';
import { FETCH_TO_SEND } from '../discord/clientCache.js';
import type { SupportedLocale } from '../i18n/locales.js';
import { t } from '../i18n/translate.js';
import type { Logger } from '../logging/logger.js';
import { inlineKeyword } from '../moderation/flagLabels.js';
import { serverLocaleOf } from '../moderation/serverLocale.js';
import type { SettingsRepository } from '../settings/settingsRepository.js';
import type { GenerationResponse } from '../generation/generationResponse.js';
import { holdByRule, judgeResponse, TOO_COSTLY_KEYWORD, type RuleHold, type Verdict } from '../generation/safetyVerdict.js';
import type { AutomodRuleCache, ServerRules } from './ruleCache.js';
import type { MatchContext, RuleMatch } from './ruleMatcher.js';

/** A server's rules as an ask meets them: the rules, and the asker's roles and channel their exemptions are read against. */
export interface AppliedRules {
	readonly server: ServerRules;
	readonly context: MatchContext;
}

/** What the rules read of an ask's interaction: who asked, with their roles, and where. */
type AskedBy = Pick<BaseInteraction, 'member' | 'channelId' | 'user' | 'guildId' | 'guildLocale'>;

/** Who asked, and in which server: what an alert or a note to the moderators names. An interaction is one. */
export interface Asker {
	readonly guildId: string | null;
	readonly guildLocale: string | null;
	readonly user: { readonly id: string };
}

/** What an alert needs: the client to post, the server's settings for its language. */
interface AlertDeps {
	readonly client: Client;
	readonly log: Logger;
	readonly settings: SettingsRepository;
	readonly automod: Pick<AutomodRuleCache, 'firstTimeCostly'>;
}

/** The asker's roles and the channel (with its parent, for a thread), against which the rules' exemptions are read. */
export function matchContextOf(interaction: AskedBy, parentId: string | undefined): MatchContext {
	const member = interaction.member as { roles?: unknown } | null;
	const roles = member?.roles;
	const roleIds = Array.isArray(roles)
		? roles.filter((role): role is string => typeof role === 'string')
		: roles && typeof roles === 'object' && 'cache' in roles
			? [...(roles as { cache: Map<string, unknown> }).cache.keys()]
			: [];
	const channelIds = [interaction.channelId, parentId].filter((id): id is string => typeof id === 'string');
	return { roleIds, channelIds };
}

/** A rule too costly to read a text against: the ask is refused (a prompt) or held (an answer), never let through. */
export interface TooCostly {
	readonly tooCostly: true;
	readonly ruleId: string;
	readonly ruleName: string;
}

/**
 * Reads a prompt (with its files and the message it quotes) against the server's rules, before anything goes
 * upstream. Every matching rule with an alert channel gets its alert, in the background; returns the first match
 * of a rule that blocks, if any, or the rule too costly to read: the ask is then refused.
 */
export async function screenPrompt(
	rules: ServerRules,
	text: string,
	asker: Asker,
	context: MatchContext,
	deps: AlertDeps,
): Promise<RuleMatch | TooCostly | undefined> {
	const screening = await rules.screen(text, context);
	if (screening.kind === 'tooCostly') return tooCostly(screening, asker, text.length, deps);
	const { matches } = screening;
	if (matches.length === 0) return undefined;
	deps.log.info({ rules: matches.map((match) => match.ruleId), blocked: matches.some((match) => match.blocks) }, 'a prompt matched AutoMod rules');
	for (const match of matches) {
		for (const channelId of match.alertChannelIds) void postAlert(channelId, match, asker, deps);
	}
	return matches.find((match) => match.blocks);
}

/** The refusal of a blocked prompt, in the member's language: the rule's own message (the server's words) when it has one. */
export function blockedPromptMessage(match: RuleMatch | TooCostly, locale: SupportedLocale): string {
	if ('tooCostly' in match) return t(locale, 'members.automod.tooCostly');
	return match.customMessage ?? t(locale, 'members.automod.promptBlocked', { ruleName: escapeMarkdown(match.ruleName) });
}

/** The model's verdict (shown only when every rating is NEGLIGIBLE), then the server's rules, if any, on the answer's text. */
export async function judgeWithRules(response: GenerationResponse, rules: AppliedRules | undefined, asker: Asker, deps: AlertDeps): Promise<Verdict> {
	const verdict = judgeResponse(response);
	const heldBy = verdict.kind === 'shown' && rules ? await holdingRule(rules.server, verdict.text, asker, rules.context, deps) : undefined;
	return heldBy ? holdByRule(response, heldBy) : verdict;
}

/** The first rule an answer's text matches, as a hidden verdict names it; a rule too costly to read holds it too. */
export async function holdingRule(
	rules: ServerRules,
	text: string,
	asker: Asker,
	context: MatchContext,
	deps: AlertDeps,
): Promise<RuleHold | undefined> {
	const screening = await rules.screen(text, context);
	if (screening.kind === 'tooCostly') {
		const costly = tooCostly(screening, asker, text.length, deps);
		return { ruleId: costly.ruleId, ruleName: costly.ruleName, keyword: TOO_COSTLY_KEYWORD };
	}
	const [match] = screening.matches;
	return match && { ruleId: match.ruleId, ruleName: match.ruleName, keyword: match.trigger };
}

/** The moderators hear once per rule and process that it is too costly, in the server's mod-log. */
function tooCostly(screening: { ruleId: string; ruleName: string }, asker: Asker, characters: number, deps: AlertDeps): TooCostly {
	deps.log.warn({ guildId: asker.guildId, ruleId: screening.ruleId, characters }, 'an AutoMod rule was too costly to read: refused or held');
	void tellModerators(screening, asker, characters, deps);
	return { tooCostly: true, ruleId: screening.ruleId, ruleName: screening.ruleName };
}

async function tellModerators(rule: { ruleId: string; ruleName: string }, asker: Asker, characters: number, deps: AlertDeps): Promise<void> {
	const guildId = asker.guildId;
	try {
		if (!guildId || !deps.automod.firstTimeCostly(guildId, rule.ruleId)) return;
		const channelId = (await deps.settings.getRecent(guildId)).modlogChannelId;
		if (!channelId) return;
		const channel = await deps.client.channels.fetch(channelId, FETCH_TO_SEND);
		if (!channel?.isSendable()) throw new Error('the mod-log channel is not one Veil can send to');
		const locale = await serverLocaleOf(guildId, asker.guildLocale, deps);
		const content = t(locale, 'moderators.automod.tooCostly', { ruleName: escapeMarkdown(rule.ruleName), characters });
		await channel.send({ content });
	} catch (error) {
		deps.log.warn({ err: error, guildId, ruleId: rule.ruleId }, 'could not tell the moderators of a costly AutoMod rule');
	}
}

/**
 * The alert of a rule, in the server's language: the member (shown, not pinged), the rule and the keyword; never the
 * prompt.
 */
async function postAlert(channelId: string, match: RuleMatch, asker: Asker, deps: AlertDeps): Promise<void> {
	try {
		const channel = await deps.client.channels.fetch(channelId, FETCH_TO_SEND);
		if (!channel?.isSendable()) throw new Error('the alert channel is not one Veil can send to');
		const locale = await serverLocaleOf(asker.guildId ?? '', asker.guildLocale, deps);
		const values = { userId: asker.user.id, ruleName: escapeMarkdown(match.ruleName), keyword: inlineKeyword(match.trigger) };
		const content = t(locale, match.blocks ? 'moderators.automod.alertBlocked' : 'moderators.automod.alertAnswered', values);
		await channel.send({ content });
	} catch (error) {
		deps.log.warn({ err: error, ruleId: match.ruleId, channelId }, 'could not post an AutoMod alert');
	}
}
