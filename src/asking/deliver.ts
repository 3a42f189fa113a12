import { MessageFlags, type InteractionWebhook, type Message } from 'discord.js';
import type { InteractionContext } from '../app/context.js';
import { customIds } from '../app/customIds.js';
import { newConversationId } from '../conversations/conversationRepository.js';
import { filesToKeep } from '../conversations/keepFiles.js';
import { BlockedByAutomod } from '../discord/automodRefusal.js';
import { candidateText, type GenerationResponse } from '../generation/generationResponse.js';
import type { Verdict } from '../generation/safetyVerdict.js';
import type { FlagRecord } from '../moderation/flagRepository.js';
import { postFlagToModlog } from '../moderation/modlog.js';
import { answerInPlace, answerMessages } from '../replies/answerMessages.js';
import type { Review } from '../app/place.js';
import type { Logger } from '../logging/logger.js';
import type { AskInteraction, Gathered } from './askRequest.js';
import { answerButtonRows } from './answerButtons.js';
import { continueInThreadButton } from './continueInThread.js';
import { tellHeldRegeneration } from './regenerate.js';

type ShownVerdict = Extract<Verdict, { kind: 'shown' }>;
type HiddenVerdict = Extract<Verdict, { kind: 'hidden' }>;

/**
 * Sends a shown answer in the deferral's place: split like any answer, the last message carrying its buttons
 * (answerButtons.ts: Follow up, Regenerate, the votes) for the conversation saved with it. The save starts before
 * the answer goes out (Discord shows the button before the bot hears back, and a quick press's read waits for the
 * save), but neither the member nor the ask waits for it: should it fail, the button is taken off again. A longer
 * answer's last message alone waits for it. Throws what Discord refused a part with; a refusal of its AutoMod (see
 * BlockedByAutomod) once what went out is taken back.
 */
export async function showAnswer(interaction: AskInteraction, verdict: ShownVerdict, gathered: Gathered, ctx: InteractionContext): Promise<void> {
	const { ephemeral } = gathered.question;
	// An empty answer starts nothing: there is nothing to follow up.
	const conversationId = verdict.text.trim() === '' ? undefined : newConversationId();
	// The asking member's language, public answers too: the notes and the button answer them.
	const [first, ...rest] = answerMessages(verdict.text, verdict.cutShort, ctx.locale);
	if (!first) return;
	// saveConversation never rejects: its failure is `false`.
	const saving = conversationId === undefined ? Promise.resolve(false) : saveConversation(interaction, conversationId, verdict, gathered, ctx);
	const withButton = <T extends object>(part: T) =>
		conversationId === undefined
			? part
			: {
					...part,
					components: answerButtonRows({
						conversationId,
						regenerate: offersRegenerate(gathered),
						locale: ctx.locale,
						continueInThread: continueInThreadButton(
							conversationId,
							{ ephemeral, guildId: ctx.place.guildId, appPermissions: interaction.appPermissions },
							ctx.locale,
						),
					}),
				};
	const posted: Message[] = [];
	try {
		if (rest.length === 0) {
			await answerInPlace(interaction, withButton(first), ephemeral, ctx.log);
			// The answer is out, and the ask ends (and is counted: a /usage sent the moment it shows counts it) without
			// waiting for the save. Should the save fail, the buttons come off later; should that fail too, a press
			// answers that the conversation expired.
			if (conversationId !== undefined) void takeButtonsOffUnlessSaved(saving, interaction.webhook, ctx.log);
			return;
		}
		await answerInPlace(interaction, first, ephemeral, ctx.log);
		for (const [index, message] of rest.entries()) {
			const part = index === rest.length - 1 && (await saving) ? withButton(message) : message;
			posted.push(await interaction.followUp({ ...part, flags: ephemeral ? MessageFlags.Ephemeral : undefined }));
		}
	} catch (error) {
		if (BlockedByAutomod.from(error))
			await withdraw(interaction, posted, conversationId !== undefined && (await saving) ? conversationId : undefined, ctx);
		throw error;
	}
}

/** Holds only the interaction's webhook, so the ask's own objects go once its answer is out. */
async function takeButtonsOffUnlessSaved(saving: Promise<boolean>, webhook: InteractionWebhook, log: Logger): Promise<void> {
	if (await saving) return;
	await webhook
		.editMessage('@original', { components: [] })
		.catch((error: unknown) => log.warn({ err: error }, 'could not take the Follow up button off'));
}

/** Regenerate asks the same turn again: not an Ask Veil answer's, whose quoted message is not kept to ask again. */
export function offersRegenerate({ question }: Gathered): boolean {
	return question.source !== 'askVeil';
}

/**
 * Takes back what went out of an answer Discord's AutoMod then refused, since it is held whole: the parts posted
 * after the first (the first, in the deferral's place, gives way to the notice), and the conversation saved with it,
 * whose Follow up button never reached anyone.
 */
async function withdraw(
	interaction: AskInteraction,
	posted: readonly Message[],
	conversationId: string | undefined,
	ctx: InteractionContext,
): Promise<void> {
	const failed = (what: string) => (error: unknown) => ctx.log.warn({ err: error }, `could not take back ${what} of a refused answer`);
	await Promise.all([
		...posted.map((message) => interaction.deleteReply(message).catch(failed('a part'))),
		conversationId === undefined ? undefined : ctx.conversations.erase(ctx.place.scope, conversationId).catch(failed('the conversation')),
	]);
}

/**
 * Saves the conversation as it stands after this answer; false when the store failed, which costs the Follow up
 * button, not the answer (the log says so).
 */
async function saveConversation(
	interaction: AskInteraction,
	id: string,
	verdict: ShownVerdict,
	{ question, files }: Gathered,
	ctx: InteractionContext,
): Promise<boolean> {
	const askerId = interaction.user.id;
	// An Ask Veil prompt is kept without the message (another member's words), and so without its files.
	const kept = files && question.source !== 'askVeil' ? { files: filesToKeep(files, question.prompt, verdict.text) } : {};
	try {
		await ctx.conversations.save(ctx.place.scope, {
			id,
			ownerId: askerId,
			ephemeral: question.ephemeral,
			turns: [...(question.history ?? []), { role: 'user', text: question.savedPrompt, by: askerId, ...kept }, { role: 'model', text: verdict.text }],
		});
		return true;
	} catch (error) {
		ctx.log.error({ err: error }, 'could not save the conversation; the answer goes without Follow up');
		return false;
	}
}

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
	const review = await ctx.place.review(interaction, ephemeral, ctx);
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
