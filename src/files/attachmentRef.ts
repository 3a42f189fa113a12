import type { Attachment } from 'discord.js';
import type { AttachmentRef } from './readAttachments.js';

/** What Veil keeps of an attachment discord.js resolved: its name, its CDN URL, the declared size and type. */
export function attachmentRef(attachment: Pick<Attachment, 'name' | 'url' | 'size' | 'contentType'>): AttachmentRef {
	return { name: attachment.name, url: attachment.url, size: attachment.size, contentType: attachment.contentType };
}
