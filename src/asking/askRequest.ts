import type { ButtonInteraction, ChatInputCommandInteraction, ModalSubmitInteraction } from 'discord.js';
import type { LinkedAccount } from '../accounts/accountRepository.js';
import type { InteractionContext } from '../app/context.js';
import { seenBy, type Turn } from '../conversations/buildContents.js';
import type { Conversation } from '../conversations/conversationRepository.js';
import type { QuotedAuthor } from '../conversations/pendingQuestions.js';
import { askAboutMessage, keptAboutMessage } from '../conversations/quoteMessage.js';
import { UserInputError } from '../errors/veilError.js';
import type { AttachmentRef, FileText } from '../files/readAttachments.js';
import type { ServerRules } from '../automod/ruleCache.js';
import type { MatchContext } from '../automod/ruleMatcher.js';
import { sentence } from '../i18n/translate.js';

/**
 * What an ask is answered on: `/ask` itself, the submit of a Follow up or Ask Veil form, or Regenerate's press (its
 * answer takes the place of the answer it is on); anywhere (see place.ts).
 */
export type AskInteraction = ChatInputCommandInteraction | ModalSubmitInteraction | ButtonInteraction;

/** Where an ask comes from. */
export type AskSource = 'ask' | 'followUp' | 'askVeil' | 'regenerate';

/** One ask as its command hands it over: what the member typed, and what it refers to. */
export type AskRequest =
	| { readonly source: 'ask'; readonly prompt: string; readonly private: boolean; readonly attachments?: readonly AttachmentRef[] }
	| { readonly source: 'followUp'; readonly prompt: string; readonly conversationId: string; readonly attachments?: readonly AttachmentRef[] }
	| { readonly source: 'askVeil'; readonly question: string; readonly pendingKey: string }
	/** The turn of the version shown (`shownId`) again; the newest version's record lists the message's versions. */
	| { readonly source: 'regenerate'; readonly shownId: string; readonly newestId: string };

/** A regeneration's place among its message's versions: those kept so far, oldest first (the newest last). */
export interface Regenerating {
	readonly versions: readonly string[];
}

/** An ask once what it refers to is read: what goes upstream, and what a saved conversation keeps. */
export interface Question {
	readonly source: AskSource;
	/** The new prompt as it goes upstream; a held answer's flag keeps it. */
	readonly prompt: string;
	/**
	 * The prompt as a saved conversation keeps it: Ask Veil's keeps the member's question and whose message it asked
	 * about, not the message itself (another member's words, which they may delete).
	 */
	readonly savedPrompt: string;
	/** Whose message `prompt` quotes (Ask Veil): a held answer's flag names them. */
	readonly quotedAuthor?: QuotedAuthor;
	/** The turns before it, as the member asking may send them (see seenBy); none for a lone ask, sent without roles. */
	readonly history?: readonly Turn[];
	/** Whether the answer goes only to the member: as asked, then as Discord applied it. */
	readonly ephemeral: boolean;
	/** Files sent with the prompt, already checked by kind and declared size; read once the ask is acknowledged. */
	readonly attachments?: readonly AttachmentRef[];
	/** A regeneration's files, as its conversation kept them (already read). */
	readonly keptFiles?: readonly FileText[];
	/** Set on a regeneration: the versions its message keeps. */
	readonly regenerating?: Regenerating;
}

/** What the answer is made of, read once the member sees "thinking…". */
export interface Gathered {
	readonly question: Question;
	readonly files: readonly FileText[] | undefined;
	readonly instructions: string | undefined;
	readonly account: LinkedAccount | undefined;
	/** The server's AutoMod rules where they apply, with what their exemptions read of this ask. */
	readonly rules: { readonly server: ServerRules; readonly context: MatchContext } | undefined;
}

/**
 * Reads what the request refers to, before the acknowledgement: a follow-up's conversation (its visibility is the
 * answer's) and an Ask Veil form's message. Either gone is the member's own answer, so it comes first.
 */
export async function readQuestion(interaction: AskInteraction, request: AskRequest, ctx: InteractionContext): Promise<Question> {
	switch (request.source) {
		case 'ask':
			return { source: 'ask', prompt: request.prompt, savedPrompt: request.prompt, ephemeral: request.private, attachments: request.attachments };
		case 'followUp': {
			const conversation = await findConversation(request.conversationId, interaction.user.id, ctx);
			ctx.log.debug({ earlierTurns: conversation.turns.length }, 'following up');
			const history = seenBy(conversation.turns, interaction.user.id);
			const { prompt, attachments } = request;
			return { source: 'followUp', prompt, savedPrompt: prompt, history, ephemeral: conversation.ephemeral, attachments };
		}
		case 'regenerate':
			return readRegeneration(interaction.user.id, request.shownId, request.newestId, ctx);
		case 'askVeil': {
			const message = await ctx.pendingQuestions.find(request.pendingKey, interaction.user.id);
			if (message === undefined) throw new UserInputError({ answer: sentence('members.askVeil.formExpired'), code: 'form_expired' });
			return {
				source: 'askVeil',
				// A message of files alone is asked about by its files: nothing is quoted.
				prompt: message.text.trim() === '' ? request.question : askAboutMessage(message.text, request.question),
				savedPrompt: keptAboutMessage(message.author?.name ?? 'another member', request.question),
				quotedAuthor: message.author,
				ephemeral: false,
				attachments: message.files,
			};
		}
	}
}

/**
 * The turn a Regenerate asks again: the shown version's last prompt, with the turns before it as its asker sent
 * them and the files its conversation kept. Only the member who asked it may; a version gone is answered expired.
 */
async function readRegeneration(userId: string, shownId: string, newestId: string, ctx: InteractionContext): Promise<Question> {
	const expired = () => new UserInputError({ answer: sentence('answers.regenerate.expired'), code: 'conversation_expired' });
	const [shown, newest] = await Promise.all([
		ctx.conversations.find(ctx.place.scope, shownId),
		shownId === newestId ? undefined : ctx.conversations.find(ctx.place.scope, newestId),
	]);
	if (!shown) throw expired();
	if (shown.ownerId !== userId) throw new UserInputError({ answer: sentence('answers.regenerate.notAsker'), code: 'not_asker' });
	const asked = shown.turns.at(-2);
	if (asked?.role !== 'user') throw expired();
	const versions = shownId === newestId ? [...shown.versions, shownId] : newest ? [...newest.versions, newestId] : [shownId];
	const keptFiles = (asked.files ?? []).flatMap((file) => (file.text === undefined ? [] : [{ name: file.name, text: file.text }]));
	const history = seenBy(shown.turns.slice(0, -2), userId);
	return {
		source: 'regenerate',
		prompt: asked.text,
		savedPrompt: asked.text,
		// A lone ask goes again as it went: without roles (see generate).
		...(history.length > 0 ? { history } : {}),
		ephemeral: shown.ephemeral,
		...(keptFiles.length > 0 ? { keptFiles } : {}),
		regenerating: { versions },
	};
}

/** The conversation a Follow up names, as the member pressing it may see it; gone or private to another: expired. */
export async function findConversation(conversationId: string, userId: string, ctx: InteractionContext): Promise<Conversation> {
	const conversation = await ctx.conversations.find(ctx.place.scope, conversationId);
	// A private conversation's answers went to its owner alone: no one else can have seen them to follow them up.
	const privateToAnother = conversation?.ephemeral === true && conversation.ownerId !== undefined && conversation.ownerId !== userId;
	if (!conversation || privateToAnother) throw new UserInputError({ answer: sentence('members.conversation.expired'), code: 'conversation_expired' });
	return conversation;
}
