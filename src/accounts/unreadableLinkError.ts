import { messages } from '../answers/messages.js';
import { VeilError } from '../answers/veilError.js';

/** The member's stored link does not open (see SealError) or is not in a link's shape: they link again. */
export class UnreadableLinkError extends VeilError {
	override readonly name = 'UnreadableLinkError';

	constructor(message: string, options?: { cause?: unknown }) {
		super({ code: 'seal_invalid', message, userMessage: messages.link.unreadableLink, cause: options?.cause });
	}
}
