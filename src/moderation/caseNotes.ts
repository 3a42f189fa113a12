import { z } from 'zod';
import { seal, unsealWithKeyring, type Keyring } from '../crypto/sealing.js';
import type { AtomicStore } from '../storage/atomicStore.js';

/** A member's request for a second look at their held answer: when, and their note if they wrote one. */
export interface ReviewRequest {
	readonly at: string;
	readonly note?: string;
}

/** One member's report of a shown answer: who (moderators alone see it), when, and their note. */
export interface CaseReport {
	readonly by: string;
	readonly at: string;
	readonly note?: string;
}

/** What members added to a case: the asker's review request, and the reports. */
export interface CaseNotesOf {
	readonly reviewRequest?: ReviewRequest;
	readonly reports: readonly CaseReport[];
}

/** Reports kept per case: past this many, the oldest go (the count a case card shows stays bounded). */
const REPORTS_LIMIT = 100;

const claimSchema = z.object({ at: z.string(), sealed: z.string().optional() });

const reviewKey = (guildId: string, flagId: string) => `flag-review:${guildId}:${flagId}`;
const reviewIndexKey = (guildId: string) => `flag-review-index:${guildId}`;
const reporterKey = (guildId: string, flagId: string, userId: string) => `flag-report:${guildId}:${flagId}:${userId}`;
const reportsKey = (guildId: string, flagId: string) => `flag-reports:${guildId}:${flagId}`;
const answerCaseKey = (guildId: string, messageId: string) => `flag-report-case:${guildId}:${messageId}`;
// "case-note:" keeps a note's associated data apart from a flag's, a conversation's and a member's.
const noteData = (guildId: string, flagId: string, userId: string) => `case-note:${guildId}:${flagId}:${userId}`;
/** Whose words a review request's note is: the asker's, the one member a held answer has (no user id is this). */
const ASKER = 'asker';

/**
 * What members add to cases, kept beside the flag record and never by rewriting it, so nothing here races a
 * moderator's decision: each step is one atomic operation of the store, shared by every process.
 *
 * - A review request is a claim (set if absent): the asker asks once, and a second press finds the first. The
 *   server's pending requests are a sorted index, read by `/flagged list` to put them first.
 * - A report is a claim per member and case (one report per member per answer), then an entry in the case's sorted
 *   index of reporters. A shown answer's case is itself a claim on the answer's message: the first report makes it,
 *   and every later one finds it.
 *
 * Notes are the members' words: sealed like a flag's text, with the server, flag and member as associated data.
 */
export class CaseNotes {
	readonly #atomic: AtomicStore;
	readonly #keys: Keyring;
	readonly #retentionMs: number;

	constructor(atomic: AtomicStore, keys: Keyring, retentionMs: number) {
		this.#atomic = atomic;
		this.#keys = keys;
		this.#retentionMs = retentionMs;
	}

	/** Records the asker's request; `already` when they (or a press in another process) asked before. */
	async askReview(guildId: string, flagId: string, note: string | undefined, now = new Date()): Promise<'asked' | 'already'> {
		const claim = this.#claimOf(guildId, flagId, ASKER, note, now);
		if ((await this.#atomic.claim(reviewKey(guildId, flagId), claim, this.#retentionMs)) !== undefined) return 'already';
		await this.#atomic.indexAdd(reviewIndexKey(guildId), [{ member: flagId, score: now.getTime() }], {
			limit: 5000,
			minScore: now.getTime() - this.#retentionMs,
			ttlMs: this.#retentionMs,
		});
		return 'asked';
	}

	/** The ids of the server's cases whose review was asked and that are not decided yet. */
	async pendingReviews(guildId: string, now = Date.now()): Promise<ReadonlySet<string>> {
		const entries = await this.#atomic.indexRead(reviewIndexKey(guildId), now - this.#retentionMs);
		return new Set(entries.map((entry) => entry.member));
	}

	/** A decided case no longer waits for its review: it leaves the pending requests. */
	async reviewClosed(guildId: string, flagId: string): Promise<void> {
		await this.#atomic.indexRemove(reviewIndexKey(guildId), [flagId]);
	}

	/**
	 * The case of the shown answer `messageId` (its message with the buttons): `candidateId` when this call made it
	 * (the caller then stores the flag under that id), else the id the first report gave it.
	 */
	async caseOfAnswer(guildId: string, messageId: string, candidateId: string): Promise<{ readonly id: string; readonly isNew: boolean }> {
		const held = await this.#atomic.claim(answerCaseKey(guildId, messageId), candidateId, this.#retentionMs);
		return held === undefined ? { id: candidateId, isNew: true } : { id: held, isNew: false };
	}

	/** Whether `userId` already reported the shown answer `messageId` (two reads; the claim in addReport decides). */
	async reportedBy(guildId: string, messageId: string, userId: string): Promise<boolean> {
		const flagId = await this.#atomic.read(answerCaseKey(guildId, messageId));
		return flagId !== undefined && (await this.#atomic.read(reporterKey(guildId, flagId, userId))) !== undefined;
	}

	/** Adds a member's report to a case; `already` when that member reported this answer before. */
	async addReport(guildId: string, flagId: string, userId: string, note: string | undefined, now = new Date()): Promise<'added' | 'already'> {
		const claim = this.#claimOf(guildId, flagId, userId, note, now);
		if ((await this.#atomic.claim(reporterKey(guildId, flagId, userId), claim, this.#retentionMs)) !== undefined) return 'already';
		await this.#atomic.indexAdd(reportsKey(guildId, flagId), [{ member: userId, score: now.getTime() }], {
			limit: REPORTS_LIMIT,
			minScore: now.getTime() - this.#retentionMs,
			ttlMs: this.#retentionMs,
		});
		return 'added';
	}

	/** The review request and the reports of a case, oldest report first, notes opened. */
	async of(guildId: string, flagId: string, now = Date.now()): Promise<CaseNotesOf> {
		const [review, reporters] = await Promise.all([
			this.#atomic.read(reviewKey(guildId, flagId)),
			this.#atomic.indexRead(reportsKey(guildId, flagId), now - this.#retentionMs),
		]);
		const reports = await Promise.all(
			reporters.reverse().map(async ({ member }) => {
				const claim = this.#open(await this.#atomic.read(reporterKey(guildId, flagId, member)), guildId, flagId, member);
				return claim && { by: member, ...claim };
			}),
		);
		const reviewRequest = this.#open(review, guildId, flagId, ASKER);
		return { ...(reviewRequest ? { reviewRequest } : {}), reports: reports.filter((report): report is CaseReport => report !== undefined) };
	}

	#claimOf(guildId: string, flagId: string, userId: string, note: string | undefined, now: Date): string {
		const sealed = note ? { sealed: seal(note, noteData(guildId, flagId, userId), this.#keys.current) } : {};
		return JSON.stringify({ at: now.toISOString(), ...sealed });
	}

	/** A claim's time and note; a note that does not open (another key) is left out, the request or report kept. */
	#open(raw: string | undefined, guildId: string, flagId: string, userId: string): ReviewRequest | undefined {
		if (raw === undefined) return undefined;
		let parsed: z.infer<typeof claimSchema>;
		try {
			parsed = claimSchema.parse(JSON.parse(raw));
		} catch {
			return undefined;
		}
		if (parsed.sealed === undefined) return { at: parsed.at };
		try {
			const note = unsealWithKeyring(parsed.sealed, noteData(guildId, flagId, userId), this.#keys).plaintext;
			return { at: parsed.at, note };
		} catch {
			return { at: parsed.at };
		}
	}
}
