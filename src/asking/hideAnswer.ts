import type { InteractionContext } from '../discord/command.js';
import type { FlagRecord } from '../moderation/flagRepository.js';
import type { FileText } from '../files/readAttachments.js';
import type { Verdict } from '../generation/safetyVerdict.js';
import { postFlagToModlog } from '../moderation/modlog.js';
import { hiddenNotice } from '../replies/hiddenNotice.js';
import type { AskComponents, AskInteraction } from './askComponents.js';
import type { QuotedAuthor } from '../conversations/pendingQuestions.js';
import { answerInPlace } from './answerInPlace.js';

/**
 * Answers a hidden reply: a flag for the moderators (with the prompt of this ask alone and its files, a follow-up's too), the
 * member's notice, which says why and carries no Follow up button, and the mod-log post. Nothing of it enters a
 * conversation, so no later body holds its text.
 */
export async function hideAnswer(
	interaction: AskInteraction,
	verdict: Extract<Verdict, { kind: 'hidden' }>,
	asked: {
		prompt: string;
		files: readonly FileText[] | undefined;
		text: string;
		noticeMessageId: string | undefined;
		private: boolean;
		quotedAuthor?: QuotedAuthor;
	},
	components: AskComponents,
	ctx: InteractionContext,
): Promise<void> {
	let flag: FlagRecord | undefined;
	try {
		// Every ask in a server comes from a channel; a flag needs it to be released there.
		if (!interaction.channelId) throw new Error('hidden reply outside a channel');
		flag = await ctx.flags.create({
			guildId: interaction.guildId,
			channelId: interaction.channelId,
			userId: interaction.user.id,
			noticeMessageId: asked.noticeMessageId,
			private: asked.private,
			prompt: asked.prompt,
			// The files went upstream with the prompt and may be why it was hidden: the moderators see them too.
			...(asked.files?.length ? { files: asked.files.map(({ name, text }) => ({ name, text })) } : {}),
			text: asked.text,
			quotedAuthor: asked.quotedAuthor,
			ratings: verdict.ratings,
			finishReason: verdict.finishReason,
			blockReason: verdict.blockReason,
			model: ctx.config.generationModel,
		});
	} catch (error) {
		// The member still learns the answer was hidden; the moderators lose this one, and the log says so.
		ctx.log.error({ err: error }, 'could not store the flag of a hidden reply');
	}
	try {
		await answerInPlace(interaction, hiddenNotice(verdict, flag?.id), asked.private, ctx);
	} finally {
		// The moderators hear of the flag whatever became of the member's notice (an expired token, a 5xx).
		if (flag) await postFlagToModlog(flag, { client: ctx.client, settings: ctx.settings, log: ctx.log, viewPrefix: components.modlogViewPrefix });
	}
}
