import { z } from 'zod';
import type { LinkedCredentials } from './credentials.js';
import { maskEmail } from './maskEmail.js';
import { SealError } from '../crypto/sealError.js';
import { UnreadableLinkError } from './unreadableLinkError.js';
import { openTokensWithKeyring, sealTokens } from './sealTokens.js';
import type { Keyring } from '../crypto/sealing.js';
import type { Logger } from '../logging/logger.js';
import { KeyedLock } from '../storage/keyedLock.js';
import type { Store } from '../storage/store.js';

const accountRecordSchema = z.object({
	version: z.literal(1),
	sealedTokens: z.string(),
	maskedEmail: z.string(),
	linkedAt: z.string(),
});

/** Opened links kept at most: about the members active in a few minutes of a busy process. */
const OPENED_MAX = 5_000;

/** What a link looks like to the rest of the bot: the tokens already opened, the email only masked. */
export interface LinkedAccount {
	readonly credentials: LinkedCredentials;
	readonly maskedEmail: string;
	readonly linkedAt: Date;
}

type AccountRecord = z.infer<typeof accountRecordSchema>;

/**
 * Each member's link, stored under their Discord user id. The tokens are sealed with the user id as associated
 * data, so a record copied to another id does not open; the email is kept only masked; the password never.
 *
 * During a key rotation a link sealed with the previous key still opens, and is sealed again with the current key
 * the first time it is used. Changes to one member's link run one at a time, so that re-sealing cannot bring back a
 * link the member has just removed (in this process; see FlagRepository on several processes).
 */
export class AccountRepository {
	readonly #store: Store;
	readonly #keys: Keyring;
	readonly #logger: Logger;
	readonly #locks = new KeyedLock();
	/**
	 * Tokens already opened, by member and sealed text: every ask reads the link again (an /unlink anywhere counts
	 * at once), but the same sealed text need not be decrypted each time. Bounded; the oldest are forgotten first.
	 */
	readonly #opened = new Map<string, LinkedCredentials>();

	constructor(store: Store, keys: Keyring, logger: Logger) {
		this.#store = store;
		this.#keys = keys;
		this.#logger = logger;
	}

	/** The member's link, or undefined. Throws UnreadableLinkError when the stored record does not open. */
	async find(userId: string): Promise<LinkedAccount | undefined> {
		const record = await this.#read(userId);
		if (record === undefined) return undefined;
		const opened = `${userId}:${record.sealedTokens}`;
		let credentials = this.#opened.get(opened);
		if (!credentials) {
			const open = this.#open(record.sealedTokens, userId);
			credentials = open.credentials;
			if (open.stale) await this.#reseal(userId, record, credentials);
			else this.#remember(opened, credentials);
		}
		return { credentials, maskedEmail: record.maskedEmail, linkedAt: new Date(record.linkedAt) };
	}

	/** Replaces the member's link; returns the masked email that was stored. */
	async save(userId: string, email: string, credentials: LinkedCredentials, now = new Date()): Promise<string> {
		const maskedEmail = maskEmail(email);
		const record: AccountRecord = {
			version: 1,
			sealedTokens: sealTokens(credentials, userId, this.#keys.current),
			maskedEmail,
			linkedAt: now.toISOString(),
		};
		await this.#locks.run(userId, () => this.#store.set('accounts', userId, record));
		return maskedEmail;
	}

	/** Erases the member's link; true when there was one. */
	remove(userId: string): Promise<boolean> {
		return this.#locks.run(userId, () => this.#store.delete('accounts', userId));
	}

	#open(sealedTokens: string, userId: string): ReturnType<typeof openTokensWithKeyring> {
		try {
			return openTokensWithKeyring(sealedTokens, userId, this.#keys);
		} catch (error) {
			if (error instanceof SealError) throw new UnreadableLinkError(error.message, { cause: error });
			throw error;
		}
	}

	#remember(opened: string, credentials: LinkedCredentials): void {
		this.#opened.set(opened, credentials);
		if (this.#opened.size > OPENED_MAX) this.#opened.delete(this.#opened.keys().next().value as string);
	}

	async #read(userId: string): Promise<AccountRecord | undefined> {
		const raw = await this.#store.get('accounts', userId);
		if (raw === undefined) return undefined;
		const parsed = accountRecordSchema.safeParse(raw);
		if (!parsed.success) throw new UnreadableLinkError('stored link record is not in the expected shape');
		return parsed.data;
	}

	/**
	 * Seals a link opened with the previous key again with the current one, if it is still the record that was read.
	 * A failure is only logged: the member's ask goes on with the tokens already opened, and the next use tries again.
	 */
	async #reseal(userId: string, read: AccountRecord, credentials: LinkedCredentials): Promise<void> {
		try {
			const resealed = await this.#locks.run(userId, async () => {
				const now = await this.#read(userId);
				if (now?.sealedTokens !== read.sealedTokens) return false;
				await this.#store.set('accounts', userId, { ...now, sealedTokens: sealTokens(credentials, userId, this.#keys.current) });
				return true;
			});
			if (resealed) this.#logger.info('a link sealed with the previous key was sealed again with the current key');
		} catch (error) {
			this.#logger.warn({ err: error }, 'sealing a link again with the current key failed; it still opens with the previous key');
		}
	}
}

/** What reading a member's link for an ask needs: whether REQUIRE_LINK is on, the links, and where to log a fault. */
export interface LinkDeps {
	readonly config: { readonly requireLink: boolean };
	readonly accounts: AccountRepository;
	readonly log: Logger;
}

/** What REQUIRE_LINK's gate found: off, or on with the member's link (or none). */
export type LinkGate = { readonly required: false } | { readonly required: true; readonly account: LinkedAccount | undefined };

/**
 * The one store read allowed before an ask's acknowledgement: it decides whether the answer is the link-first one,
 * which must be chosen before a deferral fixes the answer's visibility. The store bounds it.
 */
export async function readLinkGate(userId: string, deps: LinkDeps): Promise<LinkGate> {
	if (!deps.config.requireLink) return { required: false };
	return { required: true, account: await deps.accounts.find(userId) };
}

/** True when the gate turns the member away. */
export function mustLinkFirst(gate: LinkGate): boolean {
	return gate.required && gate.account === undefined;
}

/** The link the ask goes with: the gate's, or with REQUIRE_LINK off one read now, whose absence or fault fails nothing. */
export async function linkOf(userId: string, gate: LinkGate, deps: LinkDeps): Promise<LinkedAccount | undefined> {
	if (gate.required) return gate.account;
	try {
		return await deps.accounts.find(userId);
	} catch (error) {
		deps.log.warn({ err: error }, 'could not read the link; asking with the service key alone');
		return undefined;
	}
}
