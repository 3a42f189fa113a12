import { escapeMarkdown } from 'discord.js';
import { SHOWN_FINISH_REASONS } from '../generation/safetyVerdict.js';
import { messages } from '../answers/messages.js';
import { upstreamLabel } from '../replies/ratingLabels.js';
import type { FlagRecord } from './storedFlag.js';

/**
 * The reasons beside the ratings, as moderators read them: the server's AutoMod rule that held it, a block reason, a
 * finish other than STOP or MAX_TOKENS.
 */
export function describeStopReasons(flag: {
	blockReason?: string | undefined;
	finishReason?: string | undefined;
	automod?: { ruleName: string; keyword: string } | undefined;
}): string[] {
	const { blockReason, finishReason, automod } = flag;
	return [
		...(automod === undefined ? [] : [messages.automodModeration.flagReason(escapeMarkdown(automod.ruleName), inlineKeyword(automod.keyword))]),
		...(blockReason === undefined ? [] : [messages.ratings.promptBlocked(upstreamLabel(blockReason))]),
		...(finishReason !== undefined && SHOWN_FINISH_REASONS.has(finishReason)
			? []
			: [messages.ratings.finishReason(finishReason === undefined ? undefined : upstreamLabel(finishReason))]),
	];
}

/** Where a flag was asked, for moderators: its channel, or for one from outside Veil's servers, the kind of place. */
export function flagPlace(flag: Pick<FlagRecord, 'channelId' | 'outside'>): string {
	return flag.outside ? messages.moderation.outsidePlace[flag.outside] : `<#${flag.channelId}>`;
}

/** A keyword or pattern as inline code, whatever backticks it holds. */
export function inlineKeyword(keyword: string): string {
	const plain = keyword.replaceAll('`', 'ˋ');
	return `\`${plain}\``;
}
