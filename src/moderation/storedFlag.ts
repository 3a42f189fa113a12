import { z } from 'zod';
import { resolveLocale } from '../i18n/locales.js';
import { seal, unsealWithKeyring, type Keyring } from '../crypto/sealing.js';

const ratingLineSchema = z.object({
	source: z.enum(['prompt', 'reply']),
	category: z.string(),
	probability: z.string(),
	blocked: z.boolean(),
});

/** The channelId of a flag asked outside Veil's servers, and of its index entry: no channel id is ever this. */
export const OUTSIDE_CHANNEL = 'outside';

/** Release, Dismiss and Mark reviewed close a held answer's case; Remove and Keep a reported answer's. */
export const FLAG_DECISIONS = ['released', 'dismissed', 'reviewed', 'removed', 'kept'] as const;
/** The decisions on a reported answer's case. */
export const REPORT_DECISIONS: ReadonlySet<FlagDecision> = new Set(['removed', 'kept']);
export type FlagDecision = (typeof FLAG_DECISIONS)[number];

/** A moderator's decision on a flag, as saved with it and as claimed in the store while it is acted on. */
export const flagDecisionSchema = z.object({ kind: z.enum(FLAG_DECISIONS), by: z.string(), at: z.string(), reason: z.string().optional() });

/** Everything about a flag but the prompt and the text: kept in plain so flags can be listed without opening them. */
const flagMetadataSchema = z.object({
	id: z.string(),
	guildId: z.string(),
	channelId: z.string(),
	userId: z.string(),
	/** The member's hidden-reply notice; absent when it was ephemeral (a private ask) and so cannot be replied to. */
	noticeMessageId: z.string().optional(),
	/**
	 * The language the member asked in (the reader's locale the router decided), for what reaches them alone later (a
	 * private release, a dismissal notice); absent in records from before it was kept: the server's language then.
	 * Older records kept Discord's own code (`es-419`), read here as the router would.
	 */
	locale: z.string().max(16).transform(resolveLocale).optional(),
	/** Asked with `private:true`; absent in records from before it was kept (see askedPrivately). */
	private: z.boolean().optional(),
	/**
	 * Asked outside Veil's servers (a DM, a group DM, a server without Veil), kept in the operators' server: the
	 * kind of place only, never a foreign server's name or channel (the flag's channelId is then OUTSIDE_CHANNEL).
	 */
	outside: z.enum(['dm', 'group-dm', 'server']).optional(),
	ratings: z.array(ratingLineSchema),
	finishReason: z.string().optional(),
	blockReason: z.string().optional(),
	/** The server's AutoMod rule that held a reply the ratings cleared, and the keyword or pattern that matched. */
	automod: z.object({ ruleId: z.string(), ruleName: z.string(), keyword: z.string() }).optional(),
	model: z.string(),
	/**
	 * A shown answer members reported, rather than one Veil held: where it is, so Remove can delete it (the message
	 * with its buttons and the first part), and the conversation saved with it, erased by Remove. In a DM with Veil,
	 * `channelId` is the DM's (the flag's own is OUTSIDE_CHANNEL); elsewhere outside it is absent.
	 */
	report: z
		.object({
			channelId: z.string().optional(),
			messageIds: z.array(z.string()).max(4),
			/** The conversation saved with the answer, and the scope it is kept under (a server's id, or outside's). */
			conversationId: z.string().optional(),
			scope: z.string().optional(),
		})
		.optional(),
	/** The server's case number (`#N`), counted in the store; absent in flags from before cases were numbered. */
	caseNumber: z.number().int().positive().optional(),
	createdAt: z.string(),
	expiresAt: z.string(),
	/** One decision per flag: a second press finds it here and answers without acting twice. */
	decision: flagDecisionSchema.optional(),
});

/** Who wrote the message an Ask Veil prompt quotes: another member's words, which the flag's prompt holds. */
const quotedAuthorSchema = z.object({ id: z.string(), name: z.string() });

const flagFileSchema = z.object({ name: z.string(), text: z.string() });

/** A flag as the bot works with it: the prompt and the text opened (null once erased). */
export type FlagRecord = z.infer<typeof flagMetadataSchema> & {
	prompt: string | null;
	/** The files sent with the prompt, their text as it went upstream; sealed with it, and erased with it. */
	files?: Array<z.infer<typeof flagFileSchema>>;
	text: string | null;
	/** For an Ask Veil ask: whose message the prompt quotes. Sealed with the prompt, and erased with it. */
	quotedAuthor?: z.infer<typeof quotedAuthorSchema>;
	/** Sealed content that did not open (sealed with a key Veil no longer has); kept as it is, shown as unreadable. */
	unopened?: string;
};

const storedFlagSchema = z.discriminatedUnion('version', [
	/** The prompt and the text sealed together with TOKEN_ENCRYPTION_KEY; null once erased. */
	flagMetadataSchema.extend({ version: z.literal(2), sealed: z.string().nullable() }),
	/** Written before flags were sealed: still read, sealed when next saved, and otherwise gone when it expires. */
	flagMetadataSchema.extend({ version: z.literal(1), prompt: z.string().nullable(), text: z.string().nullable() }),
]);

const contentSchema = z.object({
	prompt: z.string().nullable(),
	text: z.string().nullable(),
	quotedAuthor: quotedAuthorSchema.optional(),
	files: z.array(flagFileSchema).optional(),
});

// "flag:" keeps a flag's associated data apart from a member's (a bare user id), so neither opens as the other.
const associatedData = (guildId: string, id: string) => `flag:${guildId}:${id}`;

/**
 * The stored form of a flag: its prompt and text sealed with the server and flag id as associated data, so the store
 * (its file, its journal, Redis's persistence) never holds them in plain, and a dismissed or expired flag leaves
 * only ciphertext behind.
 */
export function sealFlag(record: FlagRecord, keys: Keyring): z.infer<typeof storedFlagSchema> {
	const { prompt, text, files, unopened, quotedAuthor, ...metadata } = record;
	const erased = prompt === null && text === null;
	const content = { prompt, text, quotedAuthor, ...(files?.length ? { files } : {}) };
	const sealed = unopened ?? (erased ? null : seal(JSON.stringify(content), associatedData(record.guildId, record.id), keys.current));
	return { ...metadata, version: 2, sealed };
}

/**
 * Reads a stored flag found under `guildId` and `id`, or undefined when it is not a flag. Content sealed with the
 * previous key opens too (and is sealed with the current one when the flag is next saved); content that does not
 * open (another key, or copied under another id) leaves the flag listed with its prompt and text unreadable.
 */
export function openFlag(raw: unknown, guildId: string, id: string, keys: Keyring): FlagRecord | undefined {
	const parsed = storedFlagSchema.safeParse(raw);
	if (!parsed.success) return undefined;
	const stored = parsed.data;
	if (stored.version === 1) {
		const { version: _version, ...legacy } = stored;
		return legacy;
	}
	const { version: _version, sealed, ...metadata } = stored;
	if (sealed === null) return { ...metadata, prompt: null, text: null };
	try {
		const content = contentSchema.parse(JSON.parse(unsealWithKeyring(sealed, associatedData(guildId, id), keys).plaintext));
		return { ...metadata, ...content };
	} catch {
		return { ...metadata, prompt: null, text: null, unopened: sealed };
	}
}
