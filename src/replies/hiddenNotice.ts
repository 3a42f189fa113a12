import { escapeMarkdown } from 'discord.js';
import type { HideReason, Verdict } from '../generation/safetyVerdict.js';
import { describeRatings, flaggedRatings, upstreamLabel } from './ratingLabels.js';
import { isDiscordAutomodHold } from './discordAutomodHold.js';
import type { OutgoingMessage } from './answerMessages.js';
import { MESSAGE_LIMIT } from './splitReply.js';
import { truncate } from './truncate.js';
import type { SupportedLocale } from '../i18n/locales.js';
import { t, type MessageKey } from '../i18n/translate.js';

type ReasonText = (verdict: HiddenVerdict, locale: SupportedLocale) => string;
const plainReason =
	(key: MessageKey): ReasonText =>
	(_verdict, locale) =>
		t(locale, key);
const REASON_TEXT: Partial<Record<HideReason, ReasonText>> = {
	'no-candidate': plainReason('members.ask.hiddenReasons.no-candidate'),
	'prompt-ratings-missing': plainReason('members.ask.hiddenReasons.prompt-ratings-missing'),
	'reply-ratings-missing': plainReason('members.ask.hiddenReasons.reply-ratings-missing'),
	'category-missing': plainReason('members.ask.hiddenReasons.category-missing'),
	'category-duplicated': plainReason('members.ask.hiddenReasons.category-duplicated'),
	'unknown-category': plainReason('members.ask.hiddenReasons.unknown-category'),
	'block-reason': (verdict, locale) =>
		t(locale, 'members.ask.hiddenReasons.block-reason', { label: upstreamLabel(verdict.blockReason ?? '', locale) }),
	'finish-reason': (verdict, locale) =>
		verdict.finishReason === undefined
			? t(locale, 'members.ask.hiddenReasons.finish-reason-none')
			: t(locale, 'members.ask.hiddenReasons.finish-reason', { label: upstreamLabel(verdict.finishReason, locale) }),
	// The rule's name, never the keyword: the word is the moderators' business.
	automod: (verdict, locale) => t(locale, 'members.ask.hiddenReasons.automod', { ruleName: escapeMarkdown(verdict.rule?.ruleName ?? '') }),
};

type HiddenVerdict = Extract<Verdict, { kind: 'hidden' }>;

/** Why a reply was hidden, in a member's words: the flagged ratings by category and probability, then other reasons. */
function hiddenReasons(verdict: HiddenVerdict, locale: SupportedLocale): string[] {
	const ratings = describeRatings(flaggedRatings(verdict.ratings), locale);
	const others = verdict.reasons.flatMap((reason) => REASON_TEXT[reason]?.(verdict, locale) ?? []);
	return [...ratings, ...others];
}

/** The notice's first line: hidden by the model's checks or a rule, and whether someone reviews it. */
function headline(verdict: HiddenVerdict, flagId: string | undefined, reviewers: 'server' | 'operators' | 'none'): MessageKey {
	if (isDiscordAutomodHold(verdict.rule)) {
		if (flagId === undefined) return 'members.ask.hidden.blockedNotKept';
		return reviewers === 'server' ? 'members.ask.hidden.blockedForServer' : 'members.ask.hidden.blockedForOperators';
	}
	if (reviewers === 'none') return 'members.ask.hidden.withheld';
	if (verdict.rule) return flagId === undefined ? 'members.ask.hidden.byRuleNotKept' : 'members.ask.hidden.byRuleForServer';
	if (flagId === undefined) return 'members.ask.hidden.notKept';
	return reviewers === 'server' ? 'members.ask.hidden.forServer' : 'members.ask.hidden.forOperators';
}

/**
 * The member's answer when the reply is hidden, in the asking member's language (where it is public too: it answers
 * them): why, by category and probability, never the text. `reviewers`: who reviews its flag (this server's
 * moderators, Veil's operators), or `none` where nothing is kept (outside Veil's servers without an operators' server).
 */
export function hiddenNotice(
	verdict: HiddenVerdict,
	flagId: string | undefined,
	reviewers: 'server' | 'operators' | 'none',
	locale: SupportedLocale,
): OutgoingMessage {
	const reasons = hiddenReasons(verdict, locale).join(' · ');
	const lines = [t(locale, headline(verdict, flagId, reviewers))];
	// Discord names no rule: the headline is the whole why.
	if (!isDiscordAutomodHold(verdict.rule)) lines.push(t(locale, 'members.ask.hidden.why', { reasons }));
	if (flagId) lines.push(`-# ${t(locale, 'members.ask.hidden.reference', { flagId })}`);
	return { content: truncate(lines.join('\n'), MESSAGE_LIMIT) };
}
