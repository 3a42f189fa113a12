import { EmbedBuilder } from 'discord.js';
import { messages } from '../answers/messages.js';
import { NO_MENTIONS } from '../discord/mentions.js';
import type { FlagStatsSummary } from './flagStats.js';
import { categoryLabel } from '../replies/ratingLabels.js';

const says = messages.moderation.stats;

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
	if (reason === 'automod') return says.reasonAutomod;
	if (reason === 'other') return says.reasonOther;
	return categoryLabel(reason);
}

/** `/flagged stats`: held by reason, decisions, release rate and median time to a decision, for moderators alone. */
export function flagStatsMessage(summary: FlagStatsSummary): { content: string; embeds: EmbedBuilder[]; allowedMentions: typeof NO_MENTIONS } {
	if (summary.held === 0) return { content: says.none(summary.days), embeds: [], allowedMentions: NO_MENTIONS };
	const { released, dismissed, reviewed } = summary.decided;
	const decided = released + dismissed + reviewed;
	const lines = [
		says.held(summary.held, [...summary.byReason].map(([reason, count]) => `${reasonWords(reason)} ${count}`)),
		says.decisions(released, dismissed, reviewed, summary.pending),
		says.releaseRate(decided === 0 ? undefined : Math.round((released / decided) * 100)),
		says.median(summary.medianUnderMs === undefined ? undefined : underWords(summary.medianUnderMs)),
	];
	const embed = new EmbedBuilder().setTitle(says.title(summary.days)).setDescription(lines.join('\n')).setFooter({ text: says.footer });
	return { content: '', embeds: [embed], allowedMentions: NO_MENTIONS };
}
