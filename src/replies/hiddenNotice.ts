import { escapeMarkdown } from 'discord.js';
import { NO_MENTIONS } from '../discord/mentions.js';
import type { HideReason, Verdict } from '../generation/safetyVerdict.js';
import { describeRatings, flaggedRatings, upstreamLabel } from './ratingLabels.js';
import type { OutgoingMessage } from './answerMessages.js';
import { MESSAGE_LIMIT } from './splitReply.js';
import { truncate } from './truncate.js';
import { messages } from '../answers/messages.js';

const reasonText = messages.ask.hiddenReasons;
const REASON_TEXT: Partial<Record<HideReason, (verdict: HiddenVerdict) => string>> = {
	'no-candidate': () => reasonText['no-candidate'],
	'prompt-ratings-missing': () => reasonText['prompt-ratings-missing'],
	'reply-ratings-missing': () => reasonText['reply-ratings-missing'],
	'category-missing': () => reasonText['category-missing'],
	'category-duplicated': () => reasonText['category-duplicated'],
	'unknown-category': () => reasonText['unknown-category'],
	'block-reason': (verdict) => reasonText['block-reason'](upstreamLabel(verdict.blockReason ?? '')),
	'finish-reason': (verdict) => reasonText['finish-reason'](verdict.finishReason === undefined ? undefined : upstreamLabel(verdict.finishReason)),
	// The rule's name, never the keyword: the word is the moderators' business.
	automod: (verdict) => reasonText.automod(escapeMarkdown(verdict.rule?.ruleName ?? '')),
};

type HiddenVerdict = Extract<Verdict, { kind: 'hidden' }>;

/** Why a reply was hidden, in a member's words: the flagged ratings by category and probability, then other reasons. */
function hiddenReasons(verdict: HiddenVerdict): string[] {
	const ratings = describeRatings(flaggedRatings(verdict.ratings));
	const others = verdict.reasons.flatMap((reason) => REASON_TEXT[reason]?.(verdict) ?? []);
	return [...ratings, ...others];
}

/**
 * The member's answer when the reply is hidden: why, by category and probability, never the text. `reviewers`: who
 * reviews its flag (this server's moderators, Veil's operators), or `none` where nothing is kept (outside Veil's
 * servers without an operators' server).
 */
export function hiddenNotice(verdict: HiddenVerdict, flagId: string | undefined, reviewers: 'server' | 'operators' | 'none' = 'server'): OutgoingMessage {
	const lines = [
		reviewers === 'none'
			? messages.ask.hiddenWithheld
			: verdict.rule
				? messages.ask.hiddenByRuleHeadline(flagId !== undefined)
				: messages.ask.hiddenHeadline(flagId === undefined ? undefined : reviewers),
		messages.ask.hiddenWhy(hiddenReasons(verdict)),
	];
	if (flagId) lines.push(`-# ${messages.ask.hiddenReference(flagId)}`);
	return { content: truncate(lines.join('\n'), MESSAGE_LIMIT), allowedMentions: NO_MENTIONS };
}
