import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { seal, unsealWithKeyring, type Keyring } from '../crypto/sealing.js';
import { SealError } from '../crypto/sealError.js';
import type { Logger } from '../logging/logger.js';
import type { Store } from '../storage/store.js';
import type { AttachmentRef } from '../files/readAttachments.js';

/** How long an Ask Veil form may stay open before its message's text is forgotten. */
export const PENDING_QUESTION_TTL_MS = 15 * 60_000;

/**
 * Only sealed records are read: one written in plain (version 1, before the text was sealed) is not honoured, since
 * anyone able to write to the store could plant one.
 */
const pendingRecordSchema = z.object({
	version: z.literal(2),
	/** The key the form's custom_id carries: a form opened before the member's latest one finds another here. */
	formId: z.string(),
	sealed: z.string(),
	/** Checked at each read: a store may keep a record past its TTL until its sweep (SQLite's is hourly). */
	expiresAt: z.string(),
});

/** What is sealed: the message's text, and who wrote it (so an answer's flag can say whose words it holds). */
const messageSchema = z.object({
	text: z.string(),
	author: z.object({ id: z.string(), name: z.string() }).optional(),
	/** The message's attachments as the command resolved them: only these are fetched at the submit. */
	files: z.array(z.object({ name: z.string(), url: z.string(), size: z.number(), contentType: z.string().nullable().optional() })).optional(),
});

const ID = /^[A-Za-z0-9_-]{16}$/;

// "pending:" keeps this apart from every other sealed record's associated data; the member's id binds it to them.
const associatedData = (userId: string, formId: string) => `pending:${userId}:${formId}`;
const recordKey = (userId: string, formId: string) => `${userId}:${formId}`;
/** Names the member's newest form: the only one whose submit is answered. */
const newestKey = (userId: string) => `${userId}:newest`;

/** A message's author, as an answer's flag names them. */
export interface QuotedAuthor {
	readonly id: string;
	readonly name: string;
}

/** The message an Ask Veil form asks about, as kept for its submit. */
export interface PendingQuestion {
	readonly text: string;
	readonly author: QuotedAuthor | undefined;
	readonly files?: readonly AttachmentRef[];
}

/**
 * The text of the message an `Ask Veil` form asks about, kept from the command until the form's submit.
 *
 * The submit does not carry the target message, and fetching it again would need the Message Content intent for
 * most messages; the command's own interaction carries the text, so it is kept here, briefly, for the member who
 * opened the form only, and erased once used. Each member has one form at most: a pointer under their id names
 * their newest form, and an older form's submit answers as expired. Each form's text is a record of its own, under
 * the member and the form's key, so that erasing a used form is one delete that can never take another form's text
 * with it (a read, then a delete, across an await, could erase the member's next form opened in between). The text and its
 * author are sealed like a flag's text (TOKEN_ENCRYPTION_KEY, the member and the form's key as associated data).
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

	/** Keeps the message for `userId`'s new form, which replaces any earlier one; returns the key for the form's custom_id. */
	async save(userId: string, message: PendingQuestion, now = Date.now()): Promise<string> {
		const formId = randomBytes(12).toString('base64url');
		const record: z.infer<typeof pendingRecordSchema> = {
			version: 2,
			formId,
			sealed: seal(
				JSON.stringify({ text: message.text, author: message.author, files: message.files }),
				associatedData(userId, formId),
				this.#keys.current,
			),
			expiresAt: new Date(now + PENDING_QUESTION_TTL_MS).toISOString(),
		};
		const earlier = await this.#store.get('pending-questions', newestKey(userId));
		await this.#store.setMany('pending-questions', [
			{ key: recordKey(userId, formId), value: record, ttlMs: PENDING_QUESTION_TTL_MS },
			{ key: newestKey(userId), value: formId, ttlMs: PENDING_QUESTION_TTL_MS },
		]);
		// The replaced form's text is erased now rather than at its expiry: a delete by its own key, which can only
		// ever take that form's text.
		if (typeof earlier === 'string' && ID.test(earlier))
			await this.#store.delete('pending-questions', recordKey(userId, earlier)).catch(() => undefined);
		return formId;
	}

	/**
	 * The message kept for this member's form `formId`, or undefined: expired (by its own time, whatever the store
	 * still holds), used, replaced by a later form, another member's, or not opening (logged, and answered as an expired form).
	 */
	async find(formId: string, userId: string, now = Date.now()): Promise<PendingQuestion | undefined> {
		if (!ID.test(formId)) return undefined;
		const [stored, newest] = await Promise.all([
			this.#store.get('pending-questions', recordKey(userId, formId)),
			this.#store.get('pending-questions', newestKey(userId)),
		]);
		const parsed = pendingRecordSchema.safeParse(stored);
		if (!parsed.success || parsed.data.formId !== formId || newest !== formId) return undefined;
		if (!(Date.parse(parsed.data.expiresAt) > now)) return undefined;
		try {
			const { text, author, files } = messageSchema.parse(
				JSON.parse(unsealWithKeyring(parsed.data.sealed, associatedData(userId, formId), this.#keys).plaintext),
			);
			return files?.length ? { text, author, files } : { text, author };
		} catch (error) {
			// The form's key is left out of the log: it is what lets the member's form be answered. Only SealError's
			// message is logged: a JSON or schema error may quote the opened text.
			const reason = error instanceof SealError ? error.message : 'opened, but not in the expected shape';
			this.#logger.warn({ userId, reason }, "a stored Ask Veil form's text did not open; answered as expired");
			return undefined;
		}
	}

	/** Erases the member's kept text once their form `formId` is used; a failure only leaves it to expire. */
	async forget(formId: string, userId: string): Promise<void> {
		if (!ID.test(formId)) return;
		await this.#store.delete('pending-questions', recordKey(userId, formId)).catch(() => undefined);
	}
}
