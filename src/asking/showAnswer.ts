import { ButtonBuilder, ButtonStyle, ComponentType, MessageFlags, type APIButtonComponentWithCustomId } from 'discord.js';
import type { InteractionContext } from '../app/context.js';
import { customIds } from '../app/customIds.js';
import { resolveLocale, SOURCE_LOCALE, type SupportedLocale } from '../i18n/locales.js';
import { t } from '../i18n/translate.js';
import { newConversationId } from '../conversations/conversationRepository.js';
import { filesToKeep } from '../conversations/keepFiles.js';
import type { Verdict } from '../generation/safetyVerdict.js';
import { answerMessages } from '../replies/answerMessages.js';
import type { AskInteraction, AskRequest, FollowUpRow } from './askRequest.js';
import { answerInPlace } from './answerInPlace.js';
import { askPlaceOf, scopeOf } from './askContext.js';

type ShownVerdict = Extract<Verdict, { kind: 'shown' }>;

/**
 * /ask's Follow up button, built and checked by the builders once: every answer carries one, and its rows differ
 * only in the custom_id, whose form the id's codec keeps, and the label's language (the catalogue tests check it).
 */
const FOLLOW_UP_BUTTON = new ButtonBuilder()
	.setCustomId(customIds.ask.followUp.build('conversation'))
	.setLabel(t(SOURCE_LOCALE, 'members.conversation.followUpButton'))
	.setStyle(ButtonStyle.Secondary)
	.toJSON() as APIButtonComponentWithCustomId;

/** The row of a shown answer's Follow up button, for the conversation saved after it, labelled in `locale`. */
function followUpRow(conversationId: string, locale: SupportedLocale): FollowUpRow {
	const button = {
		...FOLLOW_UP_BUTTON,
		label: t(locale, 'members.conversation.followUpButton'),
		custom_id: customIds.ask.followUp.build(conversationId),
	};
	return { type: ComponentType.ActionRow, components: [button] };
}

/**
 * Sends a shown answer in the deferral's place: split like any answer, the last message carrying a Follow up
 * button for the conversation saved with it. The save is not on the member's wait: a one-message answer (nearly all
 * of them) goes out while its conversation is being saved, and should the save fail, the button is taken off again.
 * The save starts before the answer goes out: Discord shows the button before the bot hears back, so a press that
 * quick reaches this process (the one that runs the server's shard) with the save under way, and its read waits for
 * it. A longer answer's first messages go out while the save is under way; only its last, which carries the button,
 * waits for it.
 */
export async function showAnswer(interaction: AskInteraction, verdict: ShownVerdict, request: AskRequest, ctx: InteractionContext): Promise<void> {
	// An empty answer starts nothing: there is nothing to follow up.
	const conversationId = verdict.text.trim() === '' ? undefined : newConversationId();
	const save = () =>
		conversationId === undefined
			? Promise.resolve(false)
			: saveConversation(conversationId, { guildId: scopeOf(askPlaceOf(interaction)), askerId: interaction.user.id }, verdict, request, ctx);
	// The asking member's language, public answers too: the notes and the button answer them.
	const locale = resolveLocale(interaction.locale);
	const parts = answerMessages(verdict.text, verdict.cutShort, locale);
	const withButton = (part: (typeof parts)[number]) =>
		conversationId === undefined ? part : { ...part, components: [followUpRow(conversationId, locale)] };

	const [first, ...rest] = parts;
	if (!first) return;
	// saveConversation never rejects: its failure is `false`.
	const saving = save();
	if (rest.length === 0) {
		await answerInPlace(interaction, withButton(first), request.ephemeral, ctx);
		const saved = await saving;
		if (conversationId !== undefined && !saved) {
			// The answer is out; should taking the button off fail too, a press of it answers that the conversation expired.
			await interaction
				.editReply({ components: [] })
				.catch((error: unknown) => ctx.log.warn({ err: error }, 'could not take the Follow up button off'));
		}
		return;
	}
	const last = rest.length - 1;
	await answerInPlace(interaction, first, request.ephemeral, ctx);
	for (const [index, message] of rest.entries()) {
		const part = index === last && (await saving) ? withButton(message) : message;
		await interaction.followUp({ ...part, flags: request.ephemeral ? MessageFlags.Ephemeral : undefined });
	}
}

/**
 * Saves the conversation as it stands after this answer; false when the store failed, which costs the Follow up
 * button, not the answer (the log says so).
 */
async function saveConversation(
	id: string,
	{ guildId, askerId }: { guildId: string; askerId: string },
	verdict: ShownVerdict,
	request: AskRequest,
	ctx: InteractionContext,
): Promise<boolean> {
	try {
		await ctx.conversations.save(guildId, {
			id,
			ownerId: askerId,
			ephemeral: request.ephemeral,
			turns: [
				...(request.history ?? []),
				{
					role: 'user',
					text: request.savedPrompt ?? request.prompt,
					by: askerId,
					// An Ask Veil prompt is kept without the message (another member's words), and so without its files.
					...(request.files && request.savedPrompt === undefined ? { files: filesToKeep(request.files, request.prompt, verdict.text) } : {}),
				},
				{ role: 'model', text: verdict.text },
			],
		});
		return true;
	} catch (error) {
		ctx.log.error({ err: error }, 'could not save the conversation; the answer goes without Follow up');
		return false;
	}
}
