import { ModalBuilder, type ChatInputCommandInteraction } from 'discord.js';
import { button, modal, type Command } from '../src/app/command.js';
import { argumentsOf } from '../src/app/commandData.js';
import type { InteractionContext } from '../src/app/context.js';
import { customIds } from '../src/app/customIds.js';
import { answerAsk } from '../src/asking/ask.js';
import { checkPrompt } from '../src/asking/checkPrompt.js';
import { findConversation } from '../src/asking/askRequest.js';
import { mustLinkFirst, readLinkGate } from '../src/accounts/accountRepository.js';
import { linkFirstAnswer } from '../src/app/linkFirst.js';
import type { SupportedLocale } from '../src/i18n/locales.js';
import { sentence, t } from '../src/i18n/translate.js';
import { questionModal } from '../src/asking/questionModal.js';
import { seenBy } from '../src/conversations/buildContents.js';
import { attachmentRef } from '../src/files/attachmentRef.js';
import { checkAttachments } from '../src/files/readAttachments.js';
import { followUpFilesLabel, followUpUploads } from '../src/asking/followUpFiles.js';
import { filesNotKept } from '../src/conversations/keepFiles.js';
import type { Conversation } from '../src/conversations/conversationRepository.js';
import { askData } from './definitions/ask.js';
import { ratePress } from '../src/asking/rateAnswer.js';
import { askReviewPressed, askReviewSubmitted } from '../src/asking/askReview.js';
import { reportPressed, reportSubmitted } from '../src/asking/reportAnswer.js';
import { continueInThread } from '../src/asking/continueInThread.js';
import { regeneratePress } from '../src/asking/regenerate.js';
import { versionPress } from '../src/asking/answerVersions.js';
import { cancelPress } from '../src/asking/askCancel.js';

async function execute(interaction: ChatInputCommandInteraction, ctx: InteractionContext): Promise<void> {
	const { prompt, private: isPrivate = false, file } = argumentsOf(interaction, askData.options);
	checkPrompt(prompt, sentence('members.ask.emptyPrompt'));
	// A file Veil does not read, or too large, is refused here: ephemerally, before anything is acknowledged.
	const attachments = file ? [attachmentRef(file)] : undefined;
	if (attachments) checkAttachments(attachments);
	await answerAsk(interaction, { source: 'ask', prompt, private: isPrivate, attachments }, ctx);
}

function followUpModal(conversation: Conversation, presserId: string, locale: SupportedLocale): ModalBuilder {
	return questionModal(customIds.ask.followUpForm.build(conversation.id), {
		title: t(locale, 'members.conversation.formTitle'),
		label: t(locale, 'members.conversation.promptLabel'),
		hint: t(locale, 'members.conversation.promptHint'),
		inputId: 'prompt',
	}).addLabelComponents(followUpFilesLabel(filesNotKept(seenBy(conversation.turns, presserId)), locale));
}

/** Follow up: whoever sees the answer may press it; their own link is checked before the form opens. */
const followUpPress = button({
	id: customIds.ask.followUp,
	async handle(interaction, [conversationId], ctx) {
		// Both decide the first answer (the expired or link-first one, ephemeral): read together, before the form.
		const [conversation, gate] = await Promise.all([
			findConversation(conversationId, interaction.user.id, ctx),
			readLinkGate(interaction.user.id, ctx),
		]);
		if (mustLinkFirst(gate)) {
			await interaction.reply(linkFirstAnswer(ctx.locale));
			return;
		}
		await interaction.showModal(followUpModal(conversation, interaction.user.id, ctx.locale));
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
		await answerAsk(interaction, { source: 'followUp', prompt, conversationId, attachments }, ctx);
	},
});

/** Ask for a review, on a held notice: its asker alone, once (see askReview). */
const askReviewPress = button({ id: customIds.ask.askReview, handle: askReviewPressed });
const askReviewSubmit = modal({ id: customIds.ask.askReviewForm, handle: askReviewSubmitted });

/** Report, on a shown answer: anyone who sees it, once each (see reportAnswer). */
const reportPress = button({ id: customIds.ask.report, handle: reportPressed });
const reportSubmit = modal({ id: customIds.ask.reportForm, handle: reportSubmitted });

/** Continue in a thread, on a public answer: its asker alone (see continueInThread). */
const threadPress = button({ id: customIds.ask.thread, handle: continueInThread });

export default {
	data: askData,
	execute,
	buttons: [followUpPress, ratePress, regeneratePress(answerAsk), versionPress, cancelPress, askReviewPress, reportPress, threadPress],
	modals: [followUpSubmit, askReviewSubmit, reportSubmit],
} satisfies Command;
