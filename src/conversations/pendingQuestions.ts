import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Store } from '../storage/store.js';

/** How long an Ask Veil form may stay open before its message's text is forgotten. */
const PENDING_QUESTION_TTL_MS = 15 * 60_000;

const pendingRecordSchema = z.object({
	version: z.literal(1),
	userId: z.string(),
	text: z.string(),
});

const ID = /^[A-Za-z0-9_-]{16}$/;

/**
 * The text of the message an `Ask Veil` form asks about, kept from the command until the form's submit.
 *
 * The submit does not carry the target message, and fetching it again would need the Message Content intent for
 * most messages; the command's own interaction carries the text, so it is kept here, briefly, under a random key
 * the form's custom_id holds, for the member who opened the form only, and erased once used.
 */
export class PendingQuestionRepository {
	readonly #store: Store;

	constructor(store: Store) {
		this.#store = store;
	}

	/** Keeps `text` for `userId`'s form; returns the key to put in the form's custom_id. */
	async save(userId: string, text: string): Promise<string> {
		const id = randomBytes(12).toString('base64url');
		const record: z.infer<typeof pendingRecordSchema> = { version: 1, userId, text };
		await this.#store.set('pending-questions', id, record, PENDING_QUESTION_TTL_MS);
		return id;
	}

	/** The message text kept under `id` for this member, or undefined (expired, used, or someone else's). */
	async find(id: string, userId: string): Promise<string | undefined> {
		if (!ID.test(id)) return undefined;
		const parsed = pendingRecordSchema.safeParse(await this.#store.get('pending-questions', id));
		if (!parsed.success || parsed.data.userId !== userId) return undefined;
		return parsed.data.text;
	}

	/** Erases the kept text; a failure only leaves it to expire. */
	async forget(id: string): Promise<void> {
		await this.#store.delete('pending-questions', id).catch(() => undefined);
	}
}
