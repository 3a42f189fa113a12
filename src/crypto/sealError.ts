import { messages } from '../answers/messages.js';
import { VeilError } from '../answers/veilError.js';

/** A sealed record that does not open: wrong key, another user's record, or altered bytes. */
export class SealError extends VeilError {
	override readonly name = 'SealError';

	constructor(message: string, options?: { cause?: unknown }) {
		super({ code: 'seal_invalid', message, userMessage: messages.link.unreadableLink, cause: options?.cause });
	}
}
