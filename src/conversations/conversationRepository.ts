import { z } from 'zod';
import { CHARACTER_LIMIT, TURN_LIMIT, trimHistory, type Turn } from './buildContents.js';
import { seal, unsealWithKeyring, type Keyring } from '../crypto/sealing.js';
import { SealError } from '../crypto/sealError.js';
import type { Logger } from '../logging/logger.js';
import type { Store } from '../storage/store.js';
import { randomId } from '../storage/recordId.js';
import { WriteBatch } from '../storage/writeBatch.js';
import { HOUR_MS } from '../time/durations.js';

const ID = /^[a-z0-9]{12}$/;

const turnsSchema = z.array(
	z.object({
		role: z.enum(['user', 'model']),
		text: z.string(),
		by: z.string().optional(),
		/** A prompt's files; one without text was too large to keep (see filesToKeep). */
		files: z
			.array(z.object({ name: z.string(), text: z.string().optional() }))
			.readonly()
			.optional(),
	}),
);

/**
 * What is sealed: the turns with who asked each prompt, whether the answers went only to the member, and whose ask
 * made the record, so none of them can be altered unseen.
 */
const contentSchema = z.object({
	/** Whether its answers went only to the member (a private /ask); every follow-up answers the same way. */
	ephemeral: z.boolean(),
	/** The member whose ask or follow-up this record follows; absent in records sealed before it was kept. */
	ownerId: z.string().optional(),
	turns: turnsSchema,
	/** The earlier versions of the same answer its message keeps (Regenerate), oldest first: conversation ids. */
	versions: z.array(z.string()).optional(),
});

/**
 * Only sealed records are read. One written in plain (version 1, before conversations were sealed) is not
 * honoured: anyone able to write to the store could plant turns or a visibility in one.
 */
const conversationRecordSchema = z.object({ version: z.literal(2), sealed: z.string(), createdAt: z.string(), expiresAt: z.string() });

// "conversation:" keeps this apart from a flag's or a member's associated data, so no record opens as another kind.
const associatedData = (guildId: string, id: string) => `conversation:${guildId}:${id}`;

/**
 * How long a save waits for others to be written with it. A save starts as the answer it belongs to goes out, and a
 * Follow up pressed within the window (its read in this process waits for the save) opens its form a moment later;
 * a crash within the window loses the conversation, and the button answers as for an expired one.
 */
export const SAVE_WINDOW_MS = 100;
/** At most this many conversations a statement (each at most about 90 KB sealed, so a few MB at most). */
const SAVE_BATCH_MAX = 64;

type ConversationRecord = z.infer<typeof conversationRecordSchema>;

/**
 * A save waiting in the batch: what is to be sealed, and when the store is to forget it. It is sealed as its batch is
 * written, not as the answer goes out: sealing (a random IV, AES-GCM, JSON) would otherwise sit between the model's
 * answer and the edit that shows it. Until then it is only in this process's memory, as the answer itself is.
 */
type PendingSave = {
	readonly key: string;
	readonly content: z.infer<typeof contentSchema>;
	/** The associated data it is sealed with: its server and id. */
	readonly sealedWith: string;
	readonly createdAt: Date;
	readonly expiresAt: number;
};

/** A conversation as it stood after one shown answer: what a follow-up of that answer continues. */
export interface Conversation {
	readonly id: string;
	readonly guildId: string;
	readonly ephemeral: boolean;
	/** The member whose ask made this record (its newest prompt is theirs); undefined in a record from before. */
	readonly ownerId: string | undefined;
	/** Oldest first, alternating prompt and answer, ending with the answer; only what a later body could hold. */
	readonly turns: readonly Turn[];
	/** The earlier versions of this answer its message keeps, oldest first (conversation ids); none before a Regenerate. */
	readonly versions: readonly string[];
	readonly expiresAt: Date;
}

/**
 * A short random id (12 characters, 60 bits); a Follow up button carries it. An answer takes its id before the
 * conversation is saved, so the save and the answer can travel at once.
 */
export function newConversationId(): string {
	return randomId(12);
}

/**
 * Conversations, kept `CONVERSATION_TTL_HOURS` after their last turn (store TTL), scoped to their server like flags.
 *
 * Every shown answer saves the conversation as it stands after it, under a new id that the answer's Follow up
 * button carries. Records are never changed: following up an older answer continues from that answer, two members
 * following up one answer at once each get their own branch, and processes sharing a store need no lock. A hidden
 * answer saves nothing, so its text never reaches a later body.
 *
 * The turns are sealed like a flag's text (TOKEN_ENCRYPTION_KEY, the server and conversation id as associated data),
 * so the store and what it leaves behind hold only ciphertext. A record sealed with the previous key still opens; it
 * is not sealed again, since records are never changed and expire soon anyway.
 */
export class ConversationRepository {
	readonly #store: Store;
	readonly #ttlMs: number;
	readonly #keys: Keyring;
	readonly #logger: Logger;
	readonly #saves: WriteBatch<PendingSave>;

	constructor(store: Store, ttlHours: number, keys: Keyring, logger: Logger) {
		this.#store = store;
		this.#ttlMs = Math.max(1, Math.round(ttlHours * HOUR_MS));
		this.#keys = keys;
		this.#logger = logger;
		// The store forgets each record when the record says it expires, however long it waited to be written.
		const write = (saves: readonly PendingSave[]) =>
			store.setMany(
				'conversations',
				saves.map((save) => ({ key: save.key, value: this.#sealed(save), ttlMs: Math.max(1, save.expiresAt - Date.now()) })),
			);
		this.#saves = new WriteBatch(write, { windowMs: SAVE_WINDOW_MS, maxItems: SAVE_BATCH_MAX });
	}

	/** Writes the saves still waiting for their batch: a process that stops calls it before it closes the store. */
	flush(): Promise<void> {
		return this.#saves.flush();
	}

	/** Saves the conversation after a shown answer (under `id`, or a new one), keeping only the turns a later body could hold. */
	async save(
		guildId: string,
		conversation: { id?: string; ownerId: string; ephemeral: boolean; turns: readonly Turn[]; versions?: readonly string[] },
		now = new Date(),
	): Promise<Conversation> {
		const id = conversation.id ?? newConversationId();
		// A follow-up adds at least a one-character prompt, so more than this can never be sent again.
		const turns = trimHistory(conversation.turns, { turns: TURN_LIMIT - 1, characters: CHARACTER_LIMIT - 1 });
		const expiresAt = new Date(now.getTime() + this.#ttlMs);
		const versions = conversation.versions?.length ? [...conversation.versions] : undefined;
		const content: z.infer<typeof contentSchema> = { ephemeral: conversation.ephemeral, ownerId: conversation.ownerId, turns, versions };
		// Sealed and written with the other saves of the next SAVE_WINDOW_MS, in one statement.
		await this.#saves.add({
			key: `${guildId}:${id}`,
			content,
			sealedWith: associatedData(guildId, id),
			createdAt: now,
			expiresAt: expiresAt.getTime(),
		});
		return { id, guildId, ephemeral: conversation.ephemeral, ownerId: conversation.ownerId, turns, versions: versions ?? [], expiresAt };
	}

	/** Forgets a conversation saved for an answer that was then held (its Follow up button never reached anyone). */
	async erase(guildId: string, id: string): Promise<void> {
		await this.#saves.settled(`${guildId}:${id}`);
		await this.#store.delete('conversations', `${guildId}:${id}`);
	}

	/**
	 * The conversation with this id in this server, or undefined: unknown, expired, another server's, or unreadable
	 * (one that does not open is logged, and the member told it expired like any other).
	 */
	async find(guildId: string, id: string, now = new Date()): Promise<Conversation | undefined> {
		if (!ID.test(id)) return undefined;
		// One saved here a moment ago may still be on its way to the store.
		await this.#saves.settled(`${guildId}:${id}`);
		const parsed = conversationRecordSchema.safeParse(await this.#store.get('conversations', `${guildId}:${id}`));
		if (!parsed.success) return undefined;
		const expiresAt = new Date(parsed.data.expiresAt);
		// The store forgets it on time too; this keeps the answer exact whatever the store's clock granularity.
		if (!(expiresAt.getTime() > now.getTime())) return undefined;
		const content = this.#open(parsed.data.sealed, guildId, id);
		if (!content) return undefined;
		return { id, guildId, ephemeral: content.ephemeral, ownerId: content.ownerId, turns: content.turns, versions: content.versions ?? [], expiresAt };
	}

	#sealed({ content, sealedWith, createdAt, expiresAt }: PendingSave): ConversationRecord {
		return {
			version: 2,
			sealed: seal(JSON.stringify(content), sealedWith, this.#keys.current),
			createdAt: createdAt.toISOString(),
			expiresAt: new Date(expiresAt).toISOString(),
		};
	}

	#open(sealed: string, guildId: string, id: string): z.infer<typeof contentSchema> | undefined {
		try {
			return contentSchema.parse(JSON.parse(unsealWithKeyring(sealed, associatedData(guildId, id), this.#keys).plaintext));
		} catch (error) {
			// Only SealError's message is logged: a JSON or schema error may quote the opened text.
			const reason = error instanceof SealError ? error.message : 'opened, but not in the expected shape';
			this.#logger.warn({ guildId, conversationId: id, reason }, 'a stored conversation did not open; answered as expired');
			return undefined;
		}
	}
}
