import { messages } from '../answers/messages.js';
import { VeilError } from '../answers/veilError.js';

/** The store did not answer in time or failed. */
export class StoreError extends VeilError {
	override readonly name = 'StoreError';

	constructor(message: string, options?: { cause?: unknown }) {
		super({ code: 'store_unavailable', message, userMessage: messages.storage.unavailable, cause: options?.cause });
	}
}
