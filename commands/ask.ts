import { ModalBuilder, SlashCommandBuilder, type ChatInputCommandInteraction } from 'discord.js';
import { EVERYWHERE } from '../src/discord/installs.js';
import { button, modal, type Command } from '../src/app/command.js';
import type { InteractionContext } from '../src/app/context.js';
import { customIds } from '../src/app/customIds.js';
import { UserInputError } from '../src/errors/veilError.js';
import { answerAsk } from '../src/asking/answerAsk.js';
import { askPlaceOf, scopeOf } from '../src/asking/askContext.js';
import { checkPrompt, PROMPT_MAX_LENGTH } from '../src/asking/checkPrompt.js';
import { linkFirstAnswer, mustLinkFirst, readLinkGate } from '../src/asking/linkGate.js';
import { resolveLocale, type SupportedLocale } from '../src/i18n/locales.js';
import { sentence, t } from '../src/i18n/translate.js';
import { questionModal } from '../src/asking/questionModal.js';
import { seenBy } from '../src/conversations/buildContents.js';
import { attachmentRef } from '../src/files/attachmentRef.js';
import { checkAttachments } from '../src/files/readAttachments.js';
import { followUpFilesLabel, followUpUploads } from '../src/asking/followUpFiles.js';
import { filesNotKept } from '../src/conversations/keepFiles.js';
import type { Conversation } from '../src/conversations/conversationRepository.js';

const data = new SlashCommandBuilder()
	.setName('ask')
	.setDescription('Ask the model a question')
	.setContexts(...EVERYWHERE.contexts)
	.setIntegrationTypes(...EVERYWHERE.integrationTypes)
	.addStringOption((option) =>
		option.setName('prompt').setDescription('Your question').setRequired(true).setMinLength(1).setMaxLength(PROMPT_MAX_LENGTH),
	)
	.addBooleanOption((option) => option.setName('private').setDescription('Only you see the answer'))
	.addAttachmentOption((option) => option.setName('file').setDescription('A text file, code, a log or a PDF to ask about'))
	.toJSON();

async function execute(interaction: ChatInputCommandInteraction, ctx: InteractionContext): Promise<void> {
	const prompt = interaction.options.getString('prompt', true);
	const ephemeral = interaction.options.getBoolean('private') ?? false;
	checkPrompt(prompt, sentence('members.ask.emptyPrompt'));
	const file = interaction.options.getAttachment('file');
	// A file Veil does not read, or too large, is refused here: ephemerally, before anything is acknowledged.
	const attachments = file ? [attachmentRef(file)] : undefined;
	if (attachments) checkAttachments(attachments);
	const request = attachments ? { prompt, ephemeral, attachments } : { prompt, ephemeral };
	const prepare = async () => ({ request, gate: await readLinkGate(interaction.user.id, ctx) });
	await answerAsk(interaction, prepare, ctx, { early: { ephemeral } });
}

function followUpModal(conversation: Conversation, presserId: string, locale: SupportedLocale): ModalBuilder {
	return questionModal(customIds.ask.followUpForm.build(conversation.id), {
		title: t(locale, 'members.conversation.formTitle'),
		label: t(locale, 'members.conversation.promptLabel'),
		hint: t(locale, 'members.conversation.promptHint'),
		inputId: 'prompt',
	}).addLabelComponents(followUpFilesLabel(filesNotKept(seenBy(conversation.turns, presserId)), locale));
}

/**
 * The conversation a Follow up names and the presser's link, read together: both decide the first answer (the
 * expired or link-first one, ephemeral), and both come before the acknowledgement.
 */
async function readConversationAndLink(scope: string, conversationId: string, userId: string, ctx: InteractionContext) {
	const [conversation, gate] = await Promise.all([ctx.conversations.find(scope, conversationId), readLinkGate(userId, ctx)]);
	// A private conversation's answers went to its owner alone: no one else can have seen them to follow them up.
	const privateToAnother = conversation?.ephemeral === true && conversation.ownerId !== undefined && conversation.ownerId !== userId;
	if (!conversation || privateToAnother) throw new UserInputError({ answer: sentence('members.conversation.expired'), code: 'conversation_expired' });
	return { conversation, gate };
}

/** Follow up: whoever sees the answer may press it; their own link is checked before the form opens. */
const followUpPress = button({
	id: customIds.ask.followUp,
	async handle(interaction, [conversationId], ctx) {
		const { conversation, gate } = await readConversationAndLink(scopeOf(askPlaceOf(interaction)), conversationId, interaction.user.id, ctx);
		if (mustLinkFirst(gate)) {
			await interaction.reply(linkFirstAnswer(interaction.locale));
			return;
		}
		await interaction.showModal(followUpModal(conversation, interaction.user.id, resolveLocale(interaction.locale)));
	},
});

/**
 * The Follow up form's submit: the conversation's turns as the presser saw them (every answer; of the prompts, only
 * their own), then the new prompt, answered where the conversation is.
 */
const followUpSubmit = modal({
	id: customIds.ask.followUpForm,
	async handle(interaction, [conversationId], ctx) {
		const prompt = interaction.fields.getTextInputValue('prompt');
		checkPrompt(prompt, sentence('members.conversation.emptyPrompt'));
		const attachments = followUpUploads(interaction);
		if (attachments) checkAttachments(attachments);
		const scope = scopeOf(askPlaceOf(interaction));
		const prepare = async () => {
			const { conversation, gate } = await readConversationAndLink(scope, conversationId, interaction.user.id, ctx);
			ctx.log.debug({ earlierTurns: conversation.turns.length }, 'following up');
			const history = seenBy(conversation.turns, interaction.user.id);
			return { request: { prompt, history, ephemeral: conversation.ephemeral, ...(attachments ? { attachments } : {}) }, gate };
		};
		await answerAsk(interaction, prepare, ctx);
	},
});

export default { data, execute, buttons: [followUpPress], modals: [followUpSubmit] } satisfies Command;
