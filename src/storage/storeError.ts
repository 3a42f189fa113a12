import { sentence } from '../i18n/translate.js';
import { VeilError } from '../errors/veilError.js';

/**
 * The store did not answer in time or failed. `outcomeUnknown` marks a write that may still be applied (a command
 * the store was sent but did not answer), so the member is told it may not have been saved rather than that it failed.
 */
export class StoreError extends VeilError {
	override readonly name = 'StoreError';
	readonly outcomeUnknown: boolean;

	constructor(message: string, options?: { cause?: unknown; outcomeUnknown?: boolean }) {
		const outcomeUnknown = options?.outcomeUnknown ?? false;
		super({
			code: outcomeUnknown ? 'store_write_unconfirmed' : 'store_unavailable',
			message,
			answer: sentence(outcomeUnknown ? 'members.storage.unconfirmedWrite' : 'members.storage.unavailable'),
			cause: options?.cause,
			// A failing store is no news for a public channel: the member alone is told.
			private: true,
		});
		this.outcomeUnknown = outcomeUnknown;
	}
}
