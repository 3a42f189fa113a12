import { ActionRowBuilder, MessageFlags, type ButtonBuilder } from 'discord.js';
import type { InteractionContext } from '../discord/command.js';
import type { Conversation } from '../conversations/conversationRepository.js';
import type { Verdict } from '../generation/safetyVerdict.js';
import { answerMessages } from '../replies/answerMessages.js';
import type { AskComponents, AskInteraction, AskRequest } from './askComponents.js';

type ShownVerdict = Extract<Verdict, { kind: 'shown' }>;

/**
 * Sends a shown answer in the deferral's place: split like any answer, the last message carrying a Follow up
 * button for the conversation saved after it.
 */
export async function showAnswer(
	interaction: AskInteraction,
	verdict: ShownVerdict,
	request: AskRequest,
	components: AskComponents,
	ctx: InteractionContext,
): Promise<void> {
	const conversation = await saveConversation(interaction.guildId, verdict, request, ctx);
	const parts = answerMessages(verdict.text, verdict.cutShort);
	const last = parts.length - 1;
	const [first, ...rest] = parts.map((part, index) =>
		index === last && conversation
			? { ...part, components: [new ActionRowBuilder<ButtonBuilder>().addComponents(components.followUpButton(conversation.id))] }
			: part,
	);
	if (first) await interaction.editReply(first);
	for (const message of rest) {
		await interaction.followUp({ ...message, flags: request.ephemeral ? MessageFlags.Ephemeral : undefined });
	}
}

/**
 * Saves the conversation as it stands after this answer. An empty answer starts nothing (there is nothing to
 * follow up), and a store that fails costs the Follow up button, not the answer.
 */
async function saveConversation(
	guildId: string,
	verdict: ShownVerdict,
	request: AskRequest,
	ctx: InteractionContext,
): Promise<Conversation | undefined> {
	if (verdict.text.trim() === '') return undefined;
	try {
		return await ctx.conversations.save(guildId, {
			ephemeral: request.ephemeral,
			turns: [...(request.history ?? []), { role: 'user', text: request.prompt }, { role: 'model', text: verdict.text }],
		});
	} catch (error) {
		ctx.log.error({ err: error }, 'could not save the conversation; the answer goes without Follow up');
		return undefined;
	}
}
