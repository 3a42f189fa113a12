import { Routes, type APIMessage, type REST, type RawFile } from 'discord.js';
import { NO_MENTIONS } from '../discord/mentions.js';
import type { OutgoingMessage } from '../replies/answerMessages.js';

/** How Veil speaks where a member talked to it: ordinary messages, as replies, pinging no one. */
export class TalkReplies {
	constructor(
		private readonly rest: REST,
		readonly channelId: string,
		private readonly messageId: string,
	) {}

	/** A reply to the member's message (or, should it be gone, a message after it); never pings. */
	async reply(message: OutgoingMessage & { components?: unknown[] }): Promise<APIMessage> {
		const files: RawFile[] = (message.files ?? []).map((file) => ({ name: file.name ?? 'reply.md', data: file.attachment as Buffer }));
		const body = {
			content: message.content,
			allowed_mentions: NO_MENTIONS,
			message_reference: { message_id: this.messageId, fail_if_not_exists: false },
			...(message.components ? { components: message.components } : {}),
		};
		return (await this.rest.post(Routes.channelMessages(this.channelId), { body, files: files.length > 0 ? files : undefined })) as APIMessage;
	}

	/** Deletes one of Veil's messages here. */
	async delete(messageId: string): Promise<void> {
		await this.rest.delete(Routes.channelMessage(this.channelId, messageId));
	}

	/**
	 * Shows "Veil is typing…" until `stop`: Discord shows it about 10 s, so it is sent again every 8 s. A failure only
	 * costs the indicator.
	 */
	typing(onError: (error: unknown) => void): () => void {
		const send = () => void this.rest.post(Routes.channelTyping(this.channelId)).catch(onError);
		send();
		const timer = setInterval(send, 8000);
		timer.unref();
		return () => clearInterval(timer);
	}
}
