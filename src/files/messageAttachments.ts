import type { Message } from 'discord.js';
import { attachmentRef } from './attachmentRef.js';
import type { AttachmentRef } from './readAttachments.js';

/**
 * The attachments of a message Ask Veil is picked on, and of the message it forwards (its first snapshot); none
 * when it has none.
 */
export function messageAttachments(message: Pick<Message, 'attachments' | 'messageSnapshots'>): AttachmentRef[] | undefined {
	const refs = [...message.attachments.values()].map(attachmentRef);
	const forwarded = message.messageSnapshots?.first();
	if (forwarded?.attachments) refs.push(...forwarded.attachments.map(attachmentRef));
	return refs.length > 0 ? refs : undefined;
}
