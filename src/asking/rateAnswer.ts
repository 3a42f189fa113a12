import { MessageFlags } from 'discord.js';
import { button } from '../app/command.js';
import { customIds } from '../app/customIds.js';
import { t } from '../i18n/translate.js';

/**
 * 👍 / 👎: anyone who sees the answer may vote, once, and change their vote; the answer is told apart by the
 * conversation saved after it, so each version of a regenerated answer has votes of its own. The vote is the
 * member's alone: only they hear of it, and the message is not changed.
 */
export const ratePress = button({
	id: customIds.ask.rate,
	async handle(interaction, [vote, conversationId], ctx) {
		const result = await ctx.ratings.vote(ctx.place.scope, conversationId, interaction.user.id, vote);
		if (result.changed) ctx.metrics.recordVote(vote, result.previous ? 'changed' : 'new');
		await interaction.reply({
			content: t(ctx.locale, 'answers.rating.recorded', { vote: vote === 'up' ? '👍' : '👎' }),
			flags: MessageFlags.Ephemeral,
		});
	},
});
