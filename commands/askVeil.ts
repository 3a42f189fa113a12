import { ModalBuilder, type MessageContextMenuCommandInteraction } from 'discord.js';
import { modal, type Command } from '../src/app/command.js';
import type { InteractionContext } from '../src/app/context.js';
import { customIds } from '../src/app/customIds.js';
import { UserInputError } from '../src/errors/veilError.js';
import { answerAsk } from '../src/asking/ask.js';
import { checkPrompt } from '../src/asking/checkPrompt.js';
import { mustLinkFirst, readLinkGate } from '../src/accounts/accountRepository.js';
import { linkFirstAnswer } from '../src/app/linkFirst.js';
import { readableText } from '../src/asking/messageText.js';
import type { SupportedLocale } from '../src/i18n/locales.js';
import { sentence, t } from '../src/i18n/translate.js';
import { questionModal } from '../src/asking/questionModal.js';
import { messageAttachments } from '../src/files/messageAttachments.js';
import { checkAttachments } from '../src/files/readAttachments.js';
import { askVeilData } from './definitions/askVeil.js';

function askVeilModal(pendingKey: string, locale: SupportedLocale): ModalBuilder {
	return questionModal(customIds.askVeil.question.build(pendingKey), {
		title: t(locale, 'members.askVeil.formTitle'),
		label: t(locale, 'members.askVeil.questionLabel'),
		hint: t(locale, 'members.askVeil.questionHint'),
		inputId: 'question',
	});
}

/**
 * Picked on a message: its text comes with the interaction (Discord includes the target message, content and all,
 * without the Message Content intent). It is kept briefly for the form's submit, which does not carry it.
 */
async function execute(interaction: MessageContextMenuCommandInteraction, ctx: InteractionContext): Promise<void> {
	const text = readableText(interaction.targetMessage);
	const files = messageAttachments(interaction.targetMessage);
	if (text.trim() === '' && !files) throw new UserInputError({ answer: sentence('members.askVeil.noText'), code: 'message_without_text' });
	// A file Veil does not read refuses the ask now, before the form opens.
	if (files) checkAttachments(files);
	// Past their pace the member is told so now, before anything of the message is stored.
	ctx.admission.checkPace(interaction.user.id);
	const gate = await readLinkGate(interaction.user.id, ctx);
	if (mustLinkFirst(gate)) {
		await interaction.reply(linkFirstAnswer(ctx.locale));
		return;
	}
	const { author } = interaction.targetMessage;
	const authorName = interaction.targetMessage.member?.displayName ?? author.globalName ?? author.username;
	const pendingKey = await ctx.pendingQuestions.save(interaction.user.id, {
		text,
		author: { id: author.id, name: authorName },
		...(files ? { files } : {}),
	});
	await interaction.showModal(askVeilModal(pendingKey, ctx.locale));
}

/** The question form's submit: the message quoted, then the question, asked and answered as /ask answers. */
const submitQuestion = modal({
	id: customIds.askVeil.question,
	async handle(interaction, [pendingKey], ctx) {
		const question = interaction.fields.getTextInputValue('question');
		checkPrompt(question, sentence('members.askVeil.emptyQuestion'));
		try {
			await answerAsk(interaction, { source: 'askVeil', question, pendingKey }, ctx);
		} finally {
			await ctx.pendingQuestions.forget(pendingKey, interaction.user.id);
		}
	},
});

export default { data: askVeilData, execute, modals: [submitQuestion] } satisfies Command;
