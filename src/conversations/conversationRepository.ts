import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { CHARACTER_LIMIT, TURN_LIMIT, trimHistory, type Turn } from './buildContents.js';
import type { Store } from '../storage/store.js';

const HOUR_MS = 3_600_000;
const ID_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const ID = /^[a-z0-9]{12}$/;

const conversationRecordSchema = z.object({
	version: z.literal(1),
	/** Whether its answers went only to the member (a private /ask); every follow-up answers the same way. */
	ephemeral: z.boolean(),
	turns: z.array(z.object({ role: z.enum(['user', 'model']), text: z.string() })),
	createdAt: z.string(),
	expiresAt: z.string(),
});

/** A conversation as it stood after one shown answer: what a follow-up of that answer continues. */
export interface Conversation {
	readonly id: string;
	readonly guildId: string;
	readonly ephemeral: boolean;
	/** Oldest first, alternating prompt and answer, ending with the answer; only what a later body could hold. */
	readonly turns: readonly Turn[];
	readonly expiresAt: Date;
}

/** A short random id (12 characters, 60 bits); a Follow up button carries it. */
function newConversationId(): string {
	return [...randomBytes(12)].map((byte) => ID_ALPHABET[byte & 31]).join('');
}

/**
 * Conversations, kept `CONVERSATION_TTL_HOURS` after their last turn (store TTL), scoped to their server like flags.
 *
 * Every shown answer saves the conversation as it stands after it, under a new id that the answer's Follow up
 * button carries. Records are never changed: following up an older answer continues from that answer, two members
 * following up one answer at once each get their own branch, and processes sharing a store need no lock. A hidden
 * answer saves nothing, so its text never reaches a later body.
 */
export class ConversationRepository {
	readonly #store: Store;
	readonly #ttlMs: number;

	constructor(store: Store, ttlHours: number) {
		this.#store = store;
		this.#ttlMs = Math.max(1, Math.round(ttlHours * HOUR_MS));
	}

	/** Saves the conversation after a shown answer, keeping only the turns a later body could hold. */
	async save(guildId: string, conversation: { ephemeral: boolean; turns: readonly Turn[] }, now = new Date()): Promise<Conversation> {
		const id = newConversationId();
		// A follow-up adds at least a one-character prompt, so more than this can never be sent again.
		const turns = trimHistory(conversation.turns, { turns: TURN_LIMIT - 1, characters: CHARACTER_LIMIT - 1 });
		const expiresAt = new Date(now.getTime() + this.#ttlMs);
		const record: z.infer<typeof conversationRecordSchema> = {
			version: 1,
			ephemeral: conversation.ephemeral,
			turns,
			createdAt: now.toISOString(),
			expiresAt: expiresAt.toISOString(),
		};
		await this.#store.set('conversations', `${guildId}:${id}`, record, this.#ttlMs);
		return { id, guildId, ephemeral: conversation.ephemeral, turns, expiresAt };
	}

	/** The conversation with this id in this server, or undefined: unknown, expired, another server's, or unreadable. */
	async find(guildId: string, id: string, now = new Date()): Promise<Conversation | undefined> {
		if (!ID.test(id)) return undefined;
		const parsed = conversationRecordSchema.safeParse(await this.#store.get('conversations', `${guildId}:${id}`));
		if (!parsed.success) return undefined;
		const expiresAt = new Date(parsed.data.expiresAt);
		// The store forgets it on time too; this keeps the answer exact whatever the store's clock granularity.
		if (!(expiresAt.getTime() > now.getTime())) return undefined;
		return { id, guildId, ephemeral: parsed.data.ephemeral, turns: parsed.data.turns, expiresAt };
	}
}
