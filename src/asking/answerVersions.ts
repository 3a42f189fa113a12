import { button } from '../app/command.js';
import { customIds } from '../app/customIds.js';
import type { Conversation } from '../conversations/conversationRepository.js';
import { UserInputError } from '../errors/veilError.js';
import type { SupportedLocale } from '../i18n/locales.js';
import { sentence } from '../i18n/translate.js';
import { oneAnswerMessage } from '../replies/answerMessages.js';
import { answerButtonRows, type AnswerButton, type Versions } from './showAnswer.js';
import { continueInThreadButton } from './continueInThread.js';

/**
 * A version of an answer in the message that carries its buttons: its text (its beginning with the whole attached as
 * reply.md when it is longer than one message; a file the previous version had is taken off), and the buttons for
 * it, ◀ ▶ among them.
 */
export function versionMessage(text: string, cutShort: boolean, versions: Versions, locale: SupportedLocale, thread?: AnswerButton) {
	const { content, files } = oneAnswerMessage(text, cutShort, locale);
	const components = answerButtonRows({ conversationId: versions.shownId, regenerate: true, versions, locale, continueInThread: thread });
	return { content, components, attachments: [], ...(files ? { files } : {}) };
}

const expired = () => new UserInputError({ answer: sentence('answers.versions.expired'), code: 'version_expired' });

/**
 * ◀ ▶: shows another version the message keeps, for its asker alone (a public answer changes for everyone who sees
 * it). The newest version's record lists them; each version's own record holds its text, so a press works after a
 * restart and in any process.
 */
export const versionPress = button({
	id: customIds.ask.version,
	async handle(interaction, [targetId, newestId], ctx) {
		const newest = await ctx.conversations.find(ctx.place.scope, newestId);
		if (!newest) throw expired();
		if (newest.ownerId !== interaction.user.id) throw new UserInputError({ answer: sentence('answers.versions.notAsker'), code: 'not_asker' });
		const ids = [...newest.versions, newestId];
		if (!ids.includes(targetId)) throw expired();
		const target = targetId === newestId ? newest : await ctx.conversations.find(ctx.place.scope, targetId);
		if (!target) throw expired();
		const where = { ephemeral: target.ephemeral, guildId: ctx.place.guildId, appPermissions: interaction.appPermissions };
		const thread = continueInThreadButton(targetId, where, ctx.locale);
		await interaction.update(versionMessage(answerOf(target), false, { ids, shownId: targetId }, ctx.locale, thread));
	},
});

/** The answer a version's conversation ends with. */
function answerOf(conversation: Conversation): string {
	const last = conversation.turns.at(-1);
	return last?.role === 'model' ? last.text : '';
}
