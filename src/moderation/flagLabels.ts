import { escapeMarkdown } from 'discord.js';
import { SHOWN_FINISH_REASONS, TOO_COSTLY_KEYWORD } from '../generation/safetyVerdict.js';
import type { SupportedLocale } from '../i18n/locales.js';
import { t } from '../i18n/translate.js';
import { upstreamLabel } from '../replies/ratingLabels.js';
import { isDiscordAutomodHold } from '../replies/discordAutomodHold.js';
import type { FlagRecord } from './storedFlag.js';

/**
 * The reasons beside the ratings, as moderators read them: the server's AutoMod rule that held it, a block reason, a
 * finish other than STOP or MAX_TOKENS.
 */
export function describeStopReasons(
	flag: {
		blockReason?: string | undefined;
		finishReason?: string | undefined;
		automod?: { ruleId: string; ruleName: string; keyword: string } | undefined;
	},
	locale: SupportedLocale,
): string[] {
	const { blockReason, finishReason, automod } = flag;
	return [
		...(automod === undefined
			? []
			: isDiscordAutomodHold(automod)
				? [t(locale, 'moderators.automod.flagReasonDiscord')]
				: automod.keyword === TOO_COSTLY_KEYWORD
					? [t(locale, 'moderators.automod.flagReasonTooCostly', { ruleName: escapeMarkdown(automod.ruleName) })]
					: [t(locale, 'moderators.automod.flagReason', { ruleName: escapeMarkdown(automod.ruleName), keyword: inlineKeyword(automod.keyword) })]),
		...(blockReason === undefined ? [] : [t(locale, 'members.ratings.promptBlocked', { label: upstreamLabel(blockReason, locale) })]),
		...(finishReason !== undefined && SHOWN_FINISH_REASONS.has(finishReason)
			? []
			: [
					finishReason === undefined
						? t(locale, 'members.ratings.finishReasonNone')
						: t(locale, 'members.ratings.finishReason', { label: upstreamLabel(finishReason, locale) }),
				]),
	];
}

/** Where a flag was asked, for moderators: its channel, or for one from outside Veil's servers, the kind of place. */
export function flagPlace(flag: Pick<FlagRecord, 'channelId' | 'outside'>, locale: SupportedLocale): string {
	return flag.outside ? t(locale, `moderators.outsidePlace.${flag.outside}`) : `<#${flag.channelId}>`;
}

/** A keyword or pattern as inline code, whatever backticks it holds. */
export function inlineKeyword(keyword: string): string {
	const plain = keyword.replaceAll('`', 'ˋ');
	return `\`${plain}\``;
}
