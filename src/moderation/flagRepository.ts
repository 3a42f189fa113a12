import { z } from 'zod';
import type { Keyring } from '../crypto/sealing.js';
import type { AtomicStore } from '../storage/atomicStore.js';
import type { Store } from '../storage/store.js';
import { randomId } from '../storage/recordId.js';
import { StoreError } from '../storage/storeError.js';
import { DAY_MS } from '../time/durations.js';
import { FlagCases, parseCaseReference } from './flagCases.js';
import { FlagStats } from './flagStats.js';
import { FlagIndex, type FlagIndexEntry } from './flagIndex.js';
import { CaseNotes } from './caseNotes.js';
import { flagDecisionSchema, openFlag, sealFlag, type FlagDecision, type FlagRecord } from './storedFlag.js';

export type { FlagDecision, FlagRecord } from './storedFlag.js';
export type NewFlag = Omit<FlagRecord, 'id' | 'createdAt' | 'expiresAt' | 'decision' | 'unopened'>;

type Decision = NonNullable<FlagRecord['decision']>;

/** Given the channel ids a server's flags were asked in, the ones whose flags the caller may list. */
type ChannelFilter = (channelIds: readonly string[]) => Promise<ReadonlySet<string>>;

/**
 * Whether the member asked privately, so the answer must reach them alone. Records from before the field was kept
 * are given it at start (see moveLegacyFlags); one that still lacks it counts as private, which never posts a
 * private ask in public.
 */
export function askedPrivately(flag: FlagRecord): boolean {
	return flag.private !== false;
}

/** `card`: posted as a case card (Components V2); a post without it is an embed, and is edited as one. */
const modlogPostSchema = z.object({ channelId: z.string(), messageId: z.string(), card: z.boolean().optional() });
/** A flag's mod-log post: its channel and message. */
export type ModlogPost = z.infer<typeof modlogPostSchema>;

/** A short random id (10 characters, 50 bits): nothing about one id tells the next. */
export function newFlagId(): string {
	return randomId(10);
}

/** A moderator's decision as asked for: what and by whom; the time is stamped when it is recorded. */
interface DecisionRequest {
	readonly kind: FlagDecision;
	readonly by: string;
	/** Why, as the moderator typed it in the decision's form; kept with the decision. */
	readonly reason?: string;
}

/** What `decide` did: recorded this decision, found an earlier one (and did nothing), or found no such flag. */
type DecideOutcome =
	| { readonly kind: 'decided'; readonly flag: FlagRecord }
	| { readonly kind: 'already-decided'; readonly flag: FlagRecord }
	| { readonly kind: 'not-found' };

export interface FlagPage {
	readonly flags: readonly FlagRecord[];
	readonly page: number;
	readonly pageCount: number;
	readonly total: number;
	/** The flags of the page whose asker asked for a review that is still pending: they list first. */
	readonly reviewAsked: ReadonlySet<string>;
}

/**
 * How long a decision's claim holds the flag while its action runs (a release posts the answer): long enough for
 * the posts, short enough that a claim whose press failed frees the flag within a minute.
 */
export const DECISION_CLAIM_MS = 60_000;

/** Flags a page of `/flagged list` shows. */
export const FLAG_PAGE_SIZE = 10;
/** The longest flag id: ids are made shorter, the cap only bounds what a moderator may type. */
export const FLAG_ID_MAX_LENGTH = 32;
const FLAG_ID = new RegExp(`^[a-z0-9]{1,${FLAG_ID_MAX_LENGTH}}$`);

/**
 * Flag records, each kept for the retention period (store TTL), scoped to their server: the key holds the server
 * id, so an id from another server is simply not found. A per-server index (newest first, see FlagIndex) lets a
 * page be read without scanning the store.
 *
 * Processes sharing the store may serve the same server (a member's flag is created by one, its Release pressed in
 * another), so nothing here relies on an in-process lock: entries are added to the index atomically, and a
 * decision is claimed in the store before it is acted on.
 */
export class FlagRepository {
	readonly #store: Store;
	readonly #atomic: AtomicStore;
	readonly #index: FlagIndex;
	readonly #cases: FlagCases;
	readonly #retentionMs: number;
	/** How long a flag is kept, as configured (`FLAG_RETENTION_DAYS`); views say it from here. */
	readonly retentionDays: number;
	readonly #keys: Keyring;
	/** Per-server counters of held answers and decisions, for `/flagged stats`. */
	readonly stats: FlagStats;
	/** What members add to cases: review requests and reports (see CaseNotes). */
	readonly notes: CaseNotes;

	/** `keys` are TOKEN_ENCRYPTION_KEY (and its previous one): they seal each flag's prompt and text (see sealFlag). */
	constructor(store: Store, atomic: AtomicStore, retentionDays: number, keys: Keyring) {
		this.#store = store;
		this.#atomic = atomic;
		this.#retentionMs = retentionDays * DAY_MS;
		this.#index = new FlagIndex(atomic, this.#retentionMs);
		this.#cases = new FlagCases(store, atomic, this.#retentionMs);
		this.retentionDays = retentionDays;
		this.#keys = keys;
		this.stats = new FlagStats(atomic, this.#retentionMs);
		this.notes = new CaseNotes(atomic, keys, this.#retentionMs);
	}

	/** Stores a new flag with the server's next case number; `id` when one was claimed for it (a reported answer's case). */
	async create(flag: NewFlag, now = new Date(), id = newFlagId()): Promise<FlagRecord> {
		const caseNumber = await this.#cases.assign(flag.guildId, id, now);
		const record: FlagRecord = {
			...flag,
			id,
			caseNumber,
			createdAt: now.toISOString(),
			expiresAt: new Date(now.getTime() + this.#retentionMs).toISOString(),
		};
		await this.#store.set('flags', `${record.guildId}:${record.id}`, sealFlag(record, this.#keys), this.#retentionMs);
		await this.#index.add(record.guildId, [[record.id, now.getTime(), record.channelId]], now.getTime());
		// A count lost to a store error costs the summary one flag; the flag itself is kept. A report is counted as made.
		if (!record.report) await this.stats.held(record).catch(() => undefined);
		return record;
	}

	/** The flag with this id in this server, or undefined (unknown, expired, or another server's). */
	async find(guildId: string, id: string): Promise<FlagRecord | undefined> {
		if (!FLAG_ID.test(id)) return undefined;
		return openFlag(await this.#store.get('flags', `${guildId}:${id}`), guildId, id, this.#keys);
	}

	/** The flag with this case number in this server, or undefined (unknown, expired, or another server's). */
	async findByCase(guildId: string, caseNumber: number): Promise<FlagRecord | undefined> {
		const id = await this.#cases.idOf(guildId, caseNumber);
		return id === undefined ? undefined : this.find(guildId, id);
	}

	/** A flag by what a moderator typed: `#12` (or `12`) its case number, otherwise its id. */
	async findByReference(guildId: string, reference: string): Promise<FlagRecord | undefined> {
		const caseNumber = parseCaseReference(reference);
		if (caseNumber !== undefined) return this.findByCase(guildId, caseNumber);
		return this.find(guildId, reference.trim().toLowerCase());
	}

	/** Remembers where a flag's mod-log post is, for as long as the flag is kept, so a decision can update it. */
	async notePost(flag: FlagRecord, post: ModlogPost): Promise<void> {
		const ttl = Date.parse(flag.expiresAt) - Date.now();
		if (ttl > 0) await this.#store.set('flag-modlog', `${flag.guildId}:${flag.id}`, post, ttl);
	}

	/** Where a flag's mod-log post is; undefined for none (no mod-log, or a post from before they were remembered). */
	async postOf(flag: FlagRecord): Promise<ModlogPost | undefined> {
		const parsed = modlogPostSchema.safeParse(await this.#store.get('flag-modlog', `${flag.guildId}:${flag.id}`));
		return parsed.success ? parsed.data : undefined;
	}

	/** Saves a changed record, keeping its original expiry. */
	async replace(record: FlagRecord, now = new Date()): Promise<void> {
		const ttl = Date.parse(record.expiresAt) - now.getTime();
		if (ttl <= 0) return;
		await this.#store.set('flags', `${record.guildId}:${record.id}`, sealFlag(record, this.#keys), ttl);
	}

	/**
	 * Records a moderator's decision. One decision per flag: released, dismissed and reviewed each close it, and a
	 * later press finds the first decision and changes nothing. The decision is claimed in the store first (set if
	 * absent), so of two presses at once, in one process or two, one acts and the other reports the first one's.
	 *
	 * `act` runs once the claim is won and before the decision is saved (a release posts the answer there): when it
	 * throws, the claim is given back, nothing is recorded and the error goes to the caller. A dismissal erases the
	 * prompt and the text and keeps the rest.
	 *
	 * The claim lives {@link DECISION_CLAIM_MS} only: it guards the action, and the saved record is what closes the
	 * flag. A claim whose reply never came (the store slow past its bound) may still land: it is given back at once
	 * when the store answers again, or expires on its own, and never locks the flag for its retention.
	 */
	async decide(guildId: string, id: string, request: DecisionRequest, act?: (flag: FlagRecord) => Promise<void>, now?: Date): Promise<DecideOutcome> {
		const flag = await this.find(guildId, id);
		if (!flag) return { kind: 'not-found' };
		if (flag.decision) return { kind: 'already-decided', flag };
		const at = now ?? new Date();
		if (Date.parse(flag.expiresAt) <= at.getTime()) return { kind: 'not-found' };
		const decision: Decision = { kind: request.kind, by: request.by, at: at.toISOString(), ...(request.reason ? { reason: request.reason } : {}) };
		const claimKey = `flag-decision:${guildId}:${id}`;
		const claim = JSON.stringify(decision);
		const held = await this.#claim(claimKey, claim);
		if (held !== undefined) return { kind: 'already-decided', flag: await this.#decidedElsewhere(flag, held) };
		// Read again under the claim: a decision saved by a press whose claim has since expired closes the flag.
		const current = await this.find(guildId, id).catch(async (error: unknown) => {
			await this.#atomic.release(claimKey, claim).catch(() => undefined);
			throw error;
		});
		if (current?.decision) {
			await this.#atomic.release(claimKey, claim).catch(() => undefined);
			return { kind: 'already-decided', flag: current };
		}
		const decided = withDecision(current ?? flag, decision);
		let acted = false;
		try {
			if (act) await act(current ?? flag);
			acted = act !== undefined;
			await this.#saveDecision(decided, at, acted);
			await Promise.all([
				this.stats.decided(decided).catch(() => undefined),
				// Decided, a case no longer waits for the review its asker asked for.
				this.notes.reviewClosed(guildId, id).catch(() => undefined),
			]);
		} catch (error) {
			// Once something was posted, the claim stays (until it expires): a second press must not post it again.
			if (!acted) await this.#atomic.release(claimKey, claim).catch(() => undefined);
			throw error;
		}
		return { kind: 'decided', flag: decided };
	}

	/**
	 * Claims the decision for {@link DECISION_CLAIM_MS}. When the store fails to answer, the claim may still land:
	 * it is given back at once (on Redis the release runs after the claim, on the same connection), and when that
	 * is done the claim is certainly gone and the failure is a plain one; otherwise it expires within the minute,
	 * and the moderator is told the change may not have been saved.
	 */
	async #claim(claimKey: string, claim: string): Promise<string | undefined> {
		try {
			return await this.#atomic.claim(claimKey, claim, DECISION_CLAIM_MS);
		} catch (error) {
			if (!(error instanceof StoreError) || !error.outcomeUnknown) throw error;
			const released = await this.#atomic.release(claimKey, claim).then(
				() => true,
				() => false,
			);
			throw released ? new StoreError(`${error.message}; the claim was given back`, { cause: error }) : error;
		}
	}

	/** The flag as another press decided it: its saved record, or, while that one is still acting, its claim. */
	async #decidedElsewhere(flag: FlagRecord, held: string): Promise<FlagRecord> {
		const saved = await this.find(flag.guildId, flag.id);
		if (saved?.decision) return saved;
		let claimed: unknown;
		try {
			claimed = JSON.parse(held);
		} catch {
			claimed = undefined;
		}
		const decision = flagDecisionSchema.safeParse(claimed);
		return decision.success ? withDecision(saved ?? flag, decision.data) : (saved ?? flag);
	}

	/**
	 * Once `act` has posted, the decision must stick, or a second press would post again: a store that fails is
	 * tried a few times more before the failure goes to the moderator.
	 */
	async #saveDecision(decided: FlagRecord, at: Date, acted: boolean): Promise<void> {
		const attempts = acted ? 3 : 1;
		for (let attempt = 1; ; attempt++) {
			try {
				await this.replace(decided, at);
				return;
			} catch (error) {
				if (attempt >= attempts) throw error;
			}
		}
	}

	/**
	 * One page (1-based) of the server's live flags: those whose review was asked and is pending first, then the
	 * rest, newest first in each. With `channels`, only flags asked in the channels it keeps are counted and paged,
	 * so a page is never short and the total never tells of the others.
	 */
	async list(guildId: string, page: number, options: { pageSize?: number; now?: Date; channels?: ChannelFilter } = {}): Promise<FlagPage> {
		const { pageSize = FLAG_PAGE_SIZE, now = new Date(), channels } = options;
		const [read, reviewAsked] = await Promise.all([this.#index.read(guildId, now.getTime()), this.notes.pendingReviews(guildId, now.getTime())]);
		let index = [...read.filter(([id]) => reviewAsked.has(id)), ...read.filter(([id]) => !reviewAsked.has(id))];
		if (channels) index = await this.#inChannels(index, channels);
		const pageCount = Math.max(1, Math.ceil(index.length / pageSize));
		const current = Math.min(Math.max(1, page), pageCount);
		const slice = index.slice((current - 1) * pageSize, current * pageSize);
		const raw = await this.#store.getMany(
			'flags',
			slice.map(([id]) => `${guildId}:${id}`),
		);
		const flags = raw
			.map((value, at) => openFlag(value, guildId, slice[at]?.[0] ?? '', this.#keys))
			.filter((flag): flag is FlagRecord => flag !== undefined);
		if (flags.length < slice.length) {
			const found = new Set(flags.map((flag) => flag.id));
			await this.#index.remove(
				guildId,
				slice.filter(([id]) => !found.has(id)),
			);
		}
		return { flags, page: current, pageCount, total: index.length, reviewAsked };
	}

	async #inChannels(index: FlagIndexEntry[], keep: ChannelFilter): Promise<FlagIndexEntry[]> {
		const allowed = await keep([...new Set(index.map(([, , channelId]) => channelId))]);
		return index.filter(([, , channelId]) => allowed.has(channelId));
	}
}

/** A flag closed by `decision`; a dismissal erases the prompt, the files and the text. */
function withDecision(flag: FlagRecord, decision: Decision): FlagRecord {
	return { ...flag, ...(decision.kind === 'dismissed' ? { prompt: null, text: null, files: undefined, unopened: undefined } : {}), decision };
}
