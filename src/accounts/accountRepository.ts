import { z } from 'zod';
import type { LinkedCredentials } from './credentials.js';
import { SealError } from './sealError.js';
import { maskEmail } from './maskEmail.js';
import { openTokens, sealTokens } from './sealTokens.js';
import type { Store } from '../storage/store.js';

const accountRecordSchema = z.object({
	version: z.literal(1),
	sealedTokens: z.string(),
	maskedEmail: z.string(),
	linkedAt: z.string(),
});

/** What a link looks like to the rest of the bot: the tokens already opened, the email only masked. */
export interface LinkedAccount {
	readonly credentials: LinkedCredentials;
	readonly maskedEmail: string;
	readonly linkedAt: Date;
}

/**
 * Each member's link, stored under their Discord user id. The tokens are sealed with the user id as associated
 * data, so a record copied to another id does not open; the email is kept only masked; the password never.
 */
export class AccountRepository {
	readonly #store: Store;
	readonly #key: Buffer;

	constructor(store: Store, key: Buffer) {
		this.#store = store;
		this.#key = key;
	}

	/** The member's link, or undefined. Throws SealError when the stored record does not open. */
	async find(userId: string): Promise<LinkedAccount | undefined> {
		const raw = await this.#store.get('accounts', userId);
		if (raw === undefined) return undefined;
		const parsed = accountRecordSchema.safeParse(raw);
		if (!parsed.success) throw new SealError('stored link record is not in the expected shape');
		const record = parsed.data;
		return {
			credentials: openTokens(record.sealedTokens, userId, this.#key),
			maskedEmail: record.maskedEmail,
			linkedAt: new Date(record.linkedAt),
		};
	}

	/** Replaces the member's link; returns the masked email that was stored. */
	async save(userId: string, email: string, credentials: LinkedCredentials, now = new Date()): Promise<string> {
		const maskedEmail = maskEmail(email);
		const record: z.infer<typeof accountRecordSchema> = {
			version: 1,
			sealedTokens: sealTokens(credentials, userId, this.#key),
			maskedEmail,
			linkedAt: now.toISOString(),
		};
		await this.#store.set('accounts', userId, record);
		return maskedEmail;
	}

	/** Erases the member's link; true when there was one. */
	remove(userId: string): Promise<boolean> {
		return this.#store.delete('accounts', userId);
	}
}
