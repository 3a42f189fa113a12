import { sentence } from '../i18n/translate.js';
import { VeilError } from '../errors/veilError.js';

/** The member's stored link does not open (see SealError) or is not in a link's shape: they link again. */
export class UnreadableLinkError extends VeilError {
	override readonly name = 'UnreadableLinkError';

	constructor(message: string, options?: { cause?: unknown }) {
		super({ code: 'seal_invalid', message, answer: sentence('members.link.unreadableLink'), cause: options?.cause });
	}
}
