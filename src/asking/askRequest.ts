import type { APIActionRowComponent, APIButtonComponentWithCustomId, ChatInputCommandInteraction, ModalSubmitInteraction } from 'discord.js';
import type { Turn } from '../conversations/buildContents.js';
import type { QuotedAuthor } from '../conversations/pendingQuestions.js';
import type { AttachmentRef, FileText } from '../files/readAttachments.js';

/** What an ask is answered on: `/ask` itself, or the submit of a Follow up or Ask Veil form; anywhere (see askContext). */
export type AskInteraction = ChatInputCommandInteraction | ModalSubmitInteraction;

/** One ask, as the shared path takes it. */
export interface AskRequest {
	/** The new prompt as it goes upstream; a hidden answer's flag keeps it. */
	readonly prompt: string;
	/**
	 * The prompt as a saved conversation keeps it, when that is not `prompt`: Ask Veil's keeps the member's question
	 * and whose message it asked about, not the message itself (another member's words, which they may delete).
	 */
	readonly savedPrompt?: string;
	/** Whose message `prompt` quotes (Ask Veil): a hidden answer's flag names them. */
	readonly quotedAuthor?: QuotedAuthor;
	/**
	 * The turns before it, for a follow-up, as the member pressing it may send them (see seenBy); none for a lone
	 * ask, whose body carries no roles.
	 */
	readonly history?: readonly Turn[];
	/** Whether the answer goes only to the member. */
	readonly ephemeral: boolean;
	/** Files sent with the prompt, already checked by kind and declared size; read once the ask is acknowledged. */
	readonly attachments?: readonly AttachmentRef[];
	/** The text of those files once read: a shown answer's conversation keeps them. */
	readonly files?: readonly FileText[];
}

/** A row of one button, as Discord takes it. */
export type FollowUpRow = APIActionRowComponent<APIButtonComponentWithCustomId>;
