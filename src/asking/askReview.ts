import { MessageFlags, type ButtonInteraction, type ModalSubmitInteraction } from 'discord.js';
import type { InteractionContext } from '../app/context.js';
import { customIds } from '../app/customIds.js';
import { UserInputError } from '../errors/veilError.js';
import { sentence, t } from '../i18n/translate.js';
import type { FlagRecord } from '../moderation/flagRepository.js';
import { updateModlogPost } from '../moderation/modlog.js';
import { noteForm, noteOf } from './caseForms.js';

/** Ask for a review, pressed: for the asker alone, once, while the case is pending; the form opens. */
export async function askReviewPressed(
	interaction: ButtonInteraction,
	[guildId, flagId]: readonly [string, string],
	ctx: InteractionContext,
): Promise<void> {
	const flag = await reviewableFlag(interaction, guildId, flagId, ctx);
	if ((await ctx.flags.notes.of(flag.guildId, flag.id)).reviewRequest) {
		throw new UserInputError({ answer: sentence('cases.reviewAlready'), code: 'review_already' });
	}
	await interaction.showModal(noteForm(customIds.ask.askReviewForm.build(guildId, flagId), 'review', ctx.locale));
}

/**
 * The review request sent: kept with the case in one atomic step (a second, in any process, finds the first), counted,
 * shown on the case's mod-log card; the button leaves the notice, and the member is told, alone, that it was sent.
 */
export async function askReviewSubmitted(
	interaction: ModalSubmitInteraction,
	[guildId, flagId]: readonly [string, string],
	ctx: InteractionContext,
): Promise<void> {
	const flag = await reviewableFlag(interaction, guildId, flagId, ctx);
	const note = noteOf(interaction);
	if ((await ctx.flags.notes.askReview(flag.guildId, flag.id, note)) === 'already') {
		throw new UserInputError({ answer: sentence('cases.reviewAlready'), code: 'review_already' });
	}
	ctx.log.info({ flagId: flag.id, withNote: note !== undefined }, 'review asked');
	const sent =
		flag.caseNumber === undefined ? t(ctx.locale, 'cases.reviewSentNoCase') : t(ctx.locale, 'cases.reviewSent', { caseNumber: flag.caseNumber });
	if (interaction.isFromMessage()) {
		// Asked once: the notice keeps its words and loses the button.
		await interaction.update({ components: [] });
		await interaction.followUp({ content: sent, flags: MessageFlags.Ephemeral });
	} else {
		await interaction.reply({ content: sent, flags: MessageFlags.Ephemeral });
	}
	await Promise.all([
		ctx.flags.stats.noted(flag.guildId, 'review-asked').catch(() => undefined),
		updateModlogPost(flag, { ...ctx, ids: customIds.flagged, guildLocale: flag.outside ? null : interaction.guildLocale }),
	]);
}

/**
 * The flag a review is asked of: kept where the button says (this server, or the operators' for an answer held
 * outside Veil's servers), asked by the presser, and not decided yet. Each refusal is the presser's alone.
 */
async function reviewableFlag(
	interaction: ButtonInteraction | ModalSubmitInteraction,
	guildId: string,
	flagId: string,
	ctx: InteractionContext,
): Promise<FlagRecord> {
	const kept = guildId === interaction.guildId || (guildId === ctx.config.operatorGuildId && ctx.place.guildId === null);
	const flag = kept ? await ctx.flags.find(guildId, flagId) : undefined;
	if (!flag || flag.report) throw new UserInputError({ answer: sentence('cases.reviewGone'), code: 'review_gone' });
	if (flag.userId !== interaction.user.id) throw new UserInputError({ answer: sentence('cases.reviewNotAsker'), code: 'review_not_asker' });
	if (flag.decision) throw new UserInputError({ answer: sentence('cases.reviewClosed'), code: 'review_closed' });
	return flag;
}
