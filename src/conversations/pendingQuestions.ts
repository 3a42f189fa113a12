import { randomBytesPooled } from '../crypto/randomBytesPooled.js';
import { z } from 'zod';
import { seal, unsealWithKeyring, type Keyring } from '../accounts/sealing.js';
import { SealError } from '../accounts/sealError.js';
import type { Logger } from '../logging/logger.js';
import type { Store } from '../storage/store.js';

/** How long an Ask Veil form may stay open before its message's text is forgotten. */
const PENDING_QUESTION_TTL_MS = 15 * 60_000;

const pendingRecordSchema = z.discriminatedUnion('version', [
	z.object({ version: z.literal(2), userId: z.string(), sealed: z.string() }),
	/** Written in plain before the text was sealed: read as it is, and gone within 15 minutes. */
	z.object({ version: z.literal(1), userId: z.string(), text: z.string() }),
]);

const ID = /^[A-Za-z0-9_-]{16}$/;

// "pending:" keeps this apart from every other sealed record's associated data; the member's id binds it to them.
const associatedData = (userId: string, id: string) => `pending:${userId}:${id}`;

/**
 * The text of the message an `Ask Veil` form asks about, kept from the command until the form's submit.
 *
 * The submit does not carry the target message, and fetching it again would need the Message Content intent for
 * most messages; the command's own interaction carries the text, so it is kept here, briefly, under a random key
 * the form's custom_id holds, for the member who opened the form only, and erased once used. The text is sealed
 * like a flag's (TOKEN_ENCRYPTION_KEY, the member and key as associated data).
 */
export class PendingQuestionRepository {
	readonly #store: Store;
	readonly #keys: Keyring;
	readonly #logger: Logger;

	constructor(store: Store, keys: Keyring, logger: Logger) {
		this.#store = store;
		this.#keys = keys;
		this.#logger = logger;
	}

	/** Keeps `text` for `userId`'s form; returns the key to put in the form's custom_id. */
	async save(userId: string, text: string): Promise<string> {
		const id = randomBytesPooled(12).toString('base64url');
		const record: z.infer<typeof pendingRecordSchema> = { version: 2, userId, sealed: seal(text, associatedData(userId, id), this.#keys.current) };
		await this.#store.set('pending-questions', id, record, PENDING_QUESTION_TTL_MS);
		return id;
	}

	/**
	 * The message text kept under `id` for this member, or undefined (expired, used, someone else's, or not opening,
	 * which is logged and answered as an expired form).
	 */
	async find(id: string, userId: string): Promise<string | undefined> {
		if (!ID.test(id)) return undefined;
		const parsed = pendingRecordSchema.safeParse(await this.#store.get('pending-questions', id));
		if (!parsed.success || parsed.data.userId !== userId) return undefined;
		if (parsed.data.version === 1) return parsed.data.text;
		try {
			return unsealWithKeyring(parsed.data.sealed, associatedData(userId, id), this.#keys).plaintext;
		} catch (error) {
			// The form's key is left out of the log: it is what lets the member's form be answered.
			const reason = error instanceof SealError ? error.message : 'did not open';
			this.#logger.warn({ userId, reason }, "a stored Ask Veil form's text did not open; answered as expired");
			return undefined;
		}
	}

	/** Erases the kept text; a failure only leaves it to expire. */
	async forget(id: string): Promise<void> {
		await this.#store.delete('pending-questions', id).catch(() => undefined);
	}
}
