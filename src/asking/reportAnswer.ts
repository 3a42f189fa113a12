import { MessageFlags, type ButtonInteraction, type Message, type ModalSubmitInteraction } from 'discord.js';
import type { InteractionContext } from '../app/context.js';
import { customIds } from '../app/customIds.js';
import type { Review } from '../app/place.js';
import { UserInputError } from '../errors/veilError.js';
import { sentence, t } from '../i18n/translate.js';
import { newFlagId, type FlagRecord } from '../moderation/flagRepository.js';
import { postFlagToModlog, updateModlogPost } from '../moderation/modlog.js';
import { noteForm, noteOf } from './caseForms.js';

/** Report, pressed on a shown answer: anyone who sees it may, once; the form for a note opens. */
export async function reportPressed(interaction: ButtonInteraction, [conversationId]: readonly [string], ctx: InteractionContext): Promise<void> {
	const review = await reviewersOf(ctx);
	if (await ctx.flags.notes.reportedBy(review.where.guildId, interaction.message.id, interaction.user.id)) {
		throw new UserInputError({ answer: sentence('cases.alreadyReported'), code: 'report_already' });
	}
	await interaction.showModal(noteForm(customIds.ask.reportForm.build(conversationId), 'report', ctx.locale));
}

/**
 * A report sent: the answer's case is claimed on its message (the first report makes it, every later one adds to it,
 * whichever process takes it), the member's report is one claim (one per member and answer), the case is posted to
 * whoever reviews answers here (or its card redrawn) and counted; the member alone is told it was sent.
 */
export async function reportSubmitted(
	interaction: ModalSubmitInteraction,
	[conversationId]: readonly [string],
	ctx: InteractionContext,
): Promise<void> {
	const review = await reviewersOf(ctx);
	const message = interaction.message;
	if (!message) throw new UserInputError({ answer: sentence('cases.reportNobody'), code: 'report_nobody' });
	await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	const { guildId } = review.where;
	const answerCase = await ctx.flags.notes.caseOfAnswer(guildId, message.id, newFlagId());
	const note = noteOf(interaction);
	if ((await ctx.flags.notes.addReport(guildId, answerCase.id, interaction.user.id, note)) === 'already') {
		throw new UserInputError({ answer: sentence('cases.alreadyReported'), code: 'report_already' });
	}
	ctx.log.info({ flagId: answerCase.id, newCase: answerCase.isNew, withNote: note !== undefined }, 'answer reported');
	const deps = { ...ctx, ids: customIds.flagged, guildLocale: review.guildLocale };
	let flag: FlagRecord | undefined;
	if (answerCase.isNew) {
		flag = await ctx.flags.create(await reportedCase(interaction, message, conversationId, review, ctx), new Date(), answerCase.id);
		await postFlagToModlog(flag, deps);
	} else {
		flag = await ctx.flags.find(guildId, answerCase.id);
		if (flag) await updateModlogPost(flag, deps);
	}
	await ctx.flags.stats.noted(guildId, 'reported').catch(() => undefined);
	await interaction.editReply({
		content:
			flag?.caseNumber === undefined
				? t(ctx.locale, 'cases.reportSent', { caseNumber: '?' })
				: t(ctx.locale, 'cases.reportSent', { caseNumber: flag.caseNumber }),
	});
}

/** Who reviews answers given here (the server's moderators, or Veil's operators); none: nothing can be reported. */
async function reviewersOf(ctx: InteractionContext): Promise<Review> {
	// Asked as private: a report never needs the public notice a release would reply to.
	const review = await ctx.place.review(ctx, true);
	if (!review) throw new UserInputError({ answer: sentence('cases.reportNobody'), code: 'report_nobody' });
	return review;
}

/**
 * A shown answer's case as the first report makes it: the answer as members saw it (the conversation's answer, or
 * the message's words when the conversation is gone), whose answer it was, and where it is for Remove: its message
 * with the buttons, the first part, and the conversation saved with it. The prompt is not kept: members saw only
 * "used /ask", and a report is about the answer.
 */
async function reportedCase(
	interaction: ModalSubmitInteraction,
	message: Message,
	conversationId: string,
	review: Review,
	ctx: InteractionContext,
): Promise<Parameters<InteractionContext['flags']['create']>[0]> {
	const conversation = await ctx.conversations.find(ctx.place.scope, conversationId).catch(() => undefined);
	const answer = conversation?.turns.at(-1);
	const text = answer?.role === 'model' ? answer.text : message.content;
	const first = message.interactionMetadata?.originalResponseMessageId;
	const messageIds = [message.id, ...(first && first !== message.id ? [first] : [])];
	// In a DM with Veil, Veil may delete its own messages there; elsewhere outside its servers it is not a member.
	const dmChannel = review.where.outside === 'dm' ? { channelId: interaction.channelId ?? undefined } : {};
	const userId = conversation?.ownerId ?? message.interactionMetadata?.user.id ?? message.author.id;
	return {
		...review.where,
		userId,
		// What reaches the member who asked later is in their language: the reporter's is known only when it is theirs.
		locale: userId === interaction.user.id ? ctx.locale : undefined,
		private: message.flags.has(MessageFlags.Ephemeral),
		prompt: null,
		text,
		ratings: [],
		model: ctx.config.generationModel,
		report: { ...dmChannel, messageIds, ...(conversation ? { conversationId, scope: ctx.place.scope } : {}) },
	};
}
