import { EmbedBuilder } from 'discord.js';
import type { SupportedLocale } from '../i18n/locales.js';
import { t } from '../i18n/translate.js';
import type { FlagStatsSummary } from './flagStats.js';
import type { RatingSummary } from '../conversations/answerRatings.js';
import { categoryLabel } from '../replies/ratingLabels.js';

/** A bucket's upper bound in words: `under 15 minutes`, `over a week`. */
function underWords(ms: number, locale: SupportedLocale): string {
	if (ms === Infinity) return t(locale, 'moderators.stats.under.overWeek');
	const minutes = ms / 60_000;
	if (minutes < 60) return t(locale, 'moderators.stats.under.minutes', { count: minutes });
	const hours = minutes / 60;
	if (hours < 24) return t(locale, 'moderators.stats.under.hours', { count: hours });
	const days = hours / 24;
	return days === 7 ? t(locale, 'moderators.stats.under.week') : t(locale, 'moderators.stats.under.days', { count: days });
}

function reasonWords(reason: string, locale: SupportedLocale): string {
	if (reason === 'automod') return t(locale, 'moderators.stats.reasonAutomod');
	if (reason === 'other') return t(locale, 'moderators.stats.reasonOther');
	return categoryLabel(reason, locale);
}

/** The line of the members' votes on answers, when any answer was rated: how many, and the share of 👎 among the votes. */
function ratingsLine(ratings: RatingSummary | undefined, locale: SupportedLocale): string[] {
	if (!ratings || ratings.rated === 0) return [];
	const votes = ratings.up + ratings.down;
	return [t(locale, 'answers.stats.rated', { count: ratings.rated, percent: votes === 0 ? 0 : Math.round((ratings.down / votes) * 100) })];
}

/**
 * `/flagged stats`: held by reason, decisions, release rate and median time to a decision, and the answers members
 * rated, for moderators alone.
 */
export function flagStatsMessage(
	summary: FlagStatsSummary,
	locale: SupportedLocale,
	ratings?: RatingSummary,
): { content: string; embeds: EmbedBuilder[] } {
	const noted =
		summary.reports + summary.reviewRequests > 0 ? [t(locale, 'cases.stats', { reports: summary.reports, reviews: summary.reviewRequests })] : [];
	if (summary.held === 0)
		return {
			content: [t(locale, 'moderators.stats.none', { count: summary.days }), ...noted, ...ratingsLine(ratings, locale)].join('\n'),
			embeds: [],
		};
	const { released, dismissed, reviewed } = summary.decided;
	const decided = released + dismissed + reviewed;
	const reasons = [...summary.byReason].map(([reason, count]) => `${reasonWords(reason, locale)} ${count}`);
	const lines = [
		reasons.length > 0
			? t(locale, 'moderators.stats.heldBecause', { count: summary.held, reasons: reasons.join(', ') })
			: t(locale, 'moderators.stats.held', { count: summary.held }),
		t(locale, 'moderators.stats.decisions', { released, dismissed, reviewed, pending: summary.pending }),
		decided === 0
			? t(locale, 'moderators.stats.releaseRateNone')
			: t(locale, 'moderators.stats.releaseRate', { percent: Math.round((released / decided) * 100) }),
		summary.medianUnderMs === undefined
			? t(locale, 'moderators.stats.medianNone')
			: t(locale, 'moderators.stats.median', { under: underWords(summary.medianUnderMs, locale) }),
		...noted,
		...ratingsLine(ratings, locale),
	];
	const embed = new EmbedBuilder()
		.setTitle(t(locale, 'moderators.stats.title', { count: summary.days }))
		.setDescription(lines.join('\n'))
		.setFooter({ text: t(locale, 'moderators.stats.footer') });
	return { content: '', embeds: [embed] };
}
