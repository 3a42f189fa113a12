import type { RepliableInteraction } from 'discord.js';
import type { InteractionContext } from '../app/context.js';
import type { Logger } from '../logging/logger.js';
import { customIds } from '../app/customIds.js';
import type { Review } from '../app/place.js';
import { candidateText, type GenerationResponse } from '../generation/generationResponse.js';
import type { Verdict } from '../generation/safetyVerdict.js';
import type { FlagRecord } from '../moderation/flagRepository.js';
import { postFlagToModlog } from '../moderation/modlog.js';
import type { AskInteraction, Gathered } from './askRequest.js';
import { tellHeldRegeneration } from './regenerate.js';

type HiddenVerdict = Extract<Verdict, { kind: 'hidden' }>;

/**
 * Answers a held reply: a flag for whoever reviews answers held here (with the prompt of this ask alone and its
 * files), the member's notice, which says why and carries no Follow up button, and the mod-log post. Nothing of it
 * enters a conversation, so no later body holds its text. Where no one reviews (outside Veil's servers without an
 * operators' server), nothing is kept, and the notice says it cannot be released.
 */
export async function hideAnswer(
	interaction: AskInteraction,
	verdict: HiddenVerdict,
	response: GenerationResponse,
	gathered: Gathered,
	ctx: InteractionContext,
): Promise<void> {
	const { ephemeral } = gathered.question;
	const review = await ctx.place.review(ctx, ephemeral, () => noticeMessageIdOf(interaction, ctx.log));
	const flag = review && (await storeFlag(review, interaction, verdict, candidateText(response), gathered, ctx));
	try {
		// A held regeneration leaves the version shown in place: the member alone is told.
		if (gathered.question.regenerating) await tellHeldRegeneration(interaction, verdict, flag?.id, ctx);
		else await ctx.place.notify(interaction, { verdict, flagId: flag?.id, ephemeral, locale: ctx.locale }, ctx);
	} finally {
		// The reviewers hear of the flag whatever became of the member's notice (an expired token, a 5xx).
		if (flag && review) {
			const { client, settings, flags, log } = ctx;
			await postFlagToModlog(flag, { client, settings, flags, log, ids: customIds.flagged, guildLocale: review.guildLocale });
		}
	}
}

async function storeFlag(
	review: Review,
	interaction: AskInteraction,
	verdict: HiddenVerdict,
	text: string,
	{ question, files }: Gathered,
	ctx: InteractionContext,
): Promise<FlagRecord | undefined> {
	try {
		// Every ask in a server comes from a channel; a flag needs it to be released there.
		if (!review.where.channelId) throw new Error('hidden reply outside a channel');
		return await ctx.flags.create({
			...review.where,
			userId: interaction.user.id,
			noticeMessageId: review.noticeMessageId,
			// What reaches the member alone later (a private release, a dismissal notice) is in the language they asked in.
			locale: ctx.locale,
			private: review.private,
			prompt: question.prompt,
			// The files went upstream with the prompt and may be why it was held: the reviewers see them too.
			...(files?.length ? { files: files.map(({ name, text: fileText }) => ({ name, text: fileText })) } : {}),
			text,
			quotedAuthor: question.quotedAuthor,
			ratings: verdict.ratings,
			finishReason: verdict.finishReason,
			blockReason: verdict.blockReason,
			...(verdict.rule ? { automod: verdict.rule } : {}),
			model: ctx.config.generationModel,
		});
	} catch (error) {
		// The member still learns the answer was held; the reviewers lose this one, and the log says so.
		ctx.log.error({ err: error }, 'could not store the flag of a hidden reply');
		return undefined;
	}
}

/** The id of the public "thinking…" message a held answer's notice replaces; without it a release names the member. */
async function noticeMessageIdOf(interaction: RepliableInteraction, log: Logger): Promise<string | undefined> {
	try {
		return (await interaction.fetchReply()).id;
	} catch (error) {
		log.warn({ err: error }, 'could not read the notice message; a release will not reply to it');
		return undefined;
	}
}
