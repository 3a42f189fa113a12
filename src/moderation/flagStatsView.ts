import { EmbedBuilder } from 'discord.js';
import { SOURCE_LOCALE } from '../i18n/locales.js';
import { t } from '../i18n/translate.js';
import { NO_MENTIONS } from '../discord/mentions.js';
import type { FlagStatsSummary } from './flagStats.js';
import { categoryLabel } from '../replies/ratingLabels.js';

/** A bucket's upper bound in words: `under 15 minutes`, `over a week`. */
function underWords(ms: number): string {
	if (ms === Infinity) return 'over a week';
	const minutes = ms / 60_000;
	if (minutes < 60) return `under ${minutes} minutes`;
	const hours = minutes / 60;
	if (hours < 24) return `under ${hours} hour${hours === 1 ? '' : 's'}`;
	const days = hours / 24;
	return days === 7 ? 'under a week' : `under ${days} day${days === 1 ? '' : 's'}`;
}

function reasonWords(reason: string): string {
	if (reason === 'automod') return t(SOURCE_LOCALE, 'moderators.stats.reasonAutomod');
	if (reason === 'other') return t(SOURCE_LOCALE, 'moderators.stats.reasonOther');
	return categoryLabel(reason, SOURCE_LOCALE);
}

/** `/flagged stats`: held by reason, decisions, release rate and median time to a decision, for moderators alone. */
export function flagStatsMessage(summary: FlagStatsSummary): { content: string; embeds: EmbedBuilder[]; allowedMentions: typeof NO_MENTIONS } {
	if (summary.held === 0) return { content: t(SOURCE_LOCALE, 'moderators.stats.none', { count: summary.days }), embeds: [], allowedMentions: NO_MENTIONS };
	const { released, dismissed, reviewed } = summary.decided;
	const decided = released + dismissed + reviewed;
	const reasons = [...summary.byReason].map(([reason, count]) => `${reasonWords(reason)} ${count}`);
	const lines = [
		reasons.length > 0
			? t(SOURCE_LOCALE, 'moderators.stats.heldBecause', { count: summary.held, reasons: reasons.join(', ') })
			: t(SOURCE_LOCALE, 'moderators.stats.held', { count: summary.held }),
		t(SOURCE_LOCALE, 'moderators.stats.decisions', { released, dismissed, reviewed, pending: summary.pending }),
		decided === 0
			? t(SOURCE_LOCALE, 'moderators.stats.releaseRateNone')
			: t(SOURCE_LOCALE, 'moderators.stats.releaseRate', { percent: Math.round((released / decided) * 100) }),
		summary.medianUnderMs === undefined
			? t(SOURCE_LOCALE, 'moderators.stats.medianNone')
			: t(SOURCE_LOCALE, 'moderators.stats.median', { under: underWords(summary.medianUnderMs) }),
	];
	const embed = new EmbedBuilder()
		.setTitle(t(SOURCE_LOCALE, 'moderators.stats.title', { count: summary.days }))
		.setDescription(lines.join('\n'))
		.setFooter({ text: t(SOURCE_LOCALE, 'moderators.stats.footer') });
	return { content: '', embeds: [embed], allowedMentions: NO_MENTIONS };
}
