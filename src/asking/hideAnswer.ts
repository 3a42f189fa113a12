import type { InteractionContext } from '../app/context.js';
import { customIds } from '../app/customIds.js';
import type { FlagRecord, NewFlag } from '../moderation/flagRepository.js';
import type { FileText } from '../files/readAttachments.js';
import { OUTSIDE_CHANNEL } from '../moderation/storedFlag.js';
import type { Verdict } from '../generation/safetyVerdict.js';
import { postFlagToModlog } from '../moderation/modlog.js';
import { hiddenNotice } from '../replies/hiddenNotice.js';
import type { AskInteraction } from './askRequest.js';
import type { QuotedAuthor } from '../conversations/pendingQuestions.js';
import { answerInPlace } from './answerInPlace.js';
import { askPlaceOf } from './askContext.js';
import { refuseAlone } from '../discord/refuseAlone.js';
import { resolveLocale } from '../i18n/locales.js';

type HiddenVerdict = Extract<Verdict, { kind: 'hidden' }>;
interface HiddenAsk {
	readonly prompt: string;
	readonly files: readonly FileText[] | undefined;
	readonly text: string;
	readonly noticeMessageId: string | undefined;
	readonly private: boolean;
	readonly quotedAuthor?: QuotedAuthor;
}

/**
 * Answers a hidden reply: a flag for the moderators (with the prompt of this ask alone and its files, a follow-up's too), the
 * member's notice, which says why and carries no Follow up button, and the mod-log post. Nothing of it enters a
 * conversation, so no later body holds its text.
 *
 * Outside Veil's servers there are no server moderators: the flag goes to the operators' server (OPERATOR_GUILD_ID)
 * as from outside servers, or, without one, nothing is kept and the member is told it cannot be released. There
 * the notice is only the member's, whatever the ask's visibility.
 */
export async function hideAnswer(interaction: AskInteraction, verdict: HiddenVerdict, asked: HiddenAsk, ctx: InteractionContext): Promise<void> {
	const place = askPlaceOf(interaction);
	const reviewingGuildId = place.kind === 'server' ? place.guildId : ctx.config.operatorGuildId;
	let flag: FlagRecord | undefined;
	if (reviewingGuildId !== undefined) {
		const where: Pick<NewFlag, 'guildId' | 'channelId' | 'outside'> =
			place.kind === 'server'
				? { guildId: reviewingGuildId, channelId: interaction.channelId ?? '' }
				: { guildId: reviewingGuildId, channelId: OUTSIDE_CHANNEL, outside: place.where };
		flag = await storeFlag(where, interaction.user.id, interaction.locale, verdict, asked, ctx);
	}
	const locale = resolveLocale(interaction.locale);
	try {
		if (place.kind === 'server') {
			await answerInPlace(interaction, hiddenNotice(verdict, flag?.id, 'server', locale), asked.private, ctx);
		} else {
			await refuseAlone(interaction, asked.private, hiddenNotice(verdict, flag?.id, reviewingGuildId === undefined ? 'none' : 'operators', locale));
		}
	} finally {
		// The moderators hear of the flag whatever became of the member's notice (an expired token, a 5xx). From outside
		// Veil's servers it goes to the operators' server, whose guild_locale this interaction does not carry.
		const guildLocale = place.kind === 'server' ? interaction.guildLocale : null;
		if (flag)
			await postFlagToModlog(flag, {
				client: ctx.client,
				settings: ctx.settings,
				flags: ctx.flags,
				log: ctx.log,
				viewId: customIds.flagged.view,
				guildLocale,
			});
	}
}

async function storeFlag(
	where: Pick<NewFlag, 'guildId' | 'channelId' | 'outside'>,
	userId: string,
	locale: string,
	verdict: HiddenVerdict,
	asked: HiddenAsk,
	ctx: InteractionContext,
): Promise<FlagRecord | undefined> {
	try {
		// Every ask in a server comes from a channel; a flag needs it to be released there.
		if (!where.channelId) throw new Error('hidden reply outside a channel');
		return await ctx.flags.create({
			...where,
			userId,
			noticeMessageId: asked.noticeMessageId,
			// What reaches the member alone later (a private release, a dismissal notice) is in the language they asked in.
			locale,
			// Outside Veil's servers a release can only go to the member alone.
			private: where.outside !== undefined || asked.private,
			prompt: asked.prompt,
			// The files went upstream with the prompt and may be why it was hidden: the moderators see them too.
			...(asked.files?.length ? { files: asked.files.map(({ name, text }) => ({ name, text })) } : {}),
			text: asked.text,
			quotedAuthor: asked.quotedAuthor,
			ratings: verdict.ratings,
			finishReason: verdict.finishReason,
			blockReason: verdict.blockReason,
			...(verdict.rule ? { automod: verdict.rule } : {}),
			model: ctx.config.generationModel,
		});
	} catch (error) {
		// The member still learns the answer was hidden; the moderators lose this one, and the log says so.
		ctx.log.error({ err: error }, 'could not store the flag of a hidden reply');
		return undefined;
	}
}
