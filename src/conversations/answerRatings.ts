import { z } from 'zod';
import type { AtomicStore } from '../storage/atomicStore.js';
import type { Store } from '../storage/store.js';
import { randomId } from '../storage/recordId.js';
import { DAY_MS } from '../time/durations.js';

export const VOTES = ['up', 'down'] as const;
export type Vote = (typeof VOTES)[number];

/** How long a member's vote holds its lock: the read and the write under it take a few milliseconds. */
const LOCK_MS = 5_000;
/** Tries at a lock another press of the same member on the same answer holds. */
const LOCK_TRIES = 20;
const LOCK_WAIT_MS = 25;

const voteSchema = z.enum(VOTES);

/** A server's ratings over some days: answers rated, and the votes as they stand (a changed vote counts once, as it is now). */
export interface RatingSummary {
	readonly rated: number;
	readonly up: number;
	readonly down: number;
}

/** What a press did: the vote now, the one it replaced (undefined: the first), and whether anything changed. */
export interface VoteResult {
	readonly vote: Vote;
	readonly previous: Vote | undefined;
	readonly changed: boolean;
}

const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);

/**
 * 👍 / 👎 on shown answers: one vote per member per answer (a version of an answer is one), which they may change.
 *
 * A member's vote is a record of its own, changed under a short claim (a lock in the store), so two presses at once,
 * in one process or two, never both read the old vote: each change is counted once. The counts are the store's
 * atomic counters, of votes cast and votes taken back, per answer and per server and UTC day (the day of the
 * press), so a summary reads a fixed number of counters and never the votes. Everything is forgotten after
 * `retentionMs` (FLAG_RETENTION_DAYS): no vote names a member past it.
 */
export class AnswerRatings {
	constructor(
		private readonly store: Store,
		private readonly atomic: AtomicStore,
		private readonly retentionMs: number,
	) {}

	/** Records `memberId`'s vote on the answer `answerId` in `scope` (a server's id, or outside's). */
	async vote(scope: string, answerId: string, memberId: string, vote: Vote, now = Date.now()): Promise<VoteResult> {
		const key = `${scope}:${answerId}:${memberId}`;
		const lock = await this.#lock(`vote-lock:${key}`);
		try {
			const held = voteSchema.safeParse(await this.store.get('answer-votes', key));
			const previous = held.success ? held.data : undefined;
			if (previous === vote) return { vote, previous, changed: false };
			await this.store.set('answer-votes', key, vote, this.retentionMs);
			const expires = now + this.retentionMs + DAY_MS;
			const counted = [this.atomic.increment(answerKey(scope, answerId, vote), expires), this.atomic.increment(dayKey(scope, now, vote), expires)];
			if (previous) {
				counted.push(
					this.atomic.increment(answerKey(scope, answerId, `un${previous}`), expires),
					this.atomic.increment(dayKey(scope, now, `un${previous}`), expires),
				);
			} else if ((await this.atomic.claim(`answer-rated:${scope}:${answerId}`, memberId, this.retentionMs)) === undefined) {
				counted.push(this.atomic.increment(dayKey(scope, now, 'rated'), expires));
			}
			await Promise.all(counted);
			return { vote, previous, changed: true };
		} finally {
			await this.atomic.release(`vote-lock:${key}`, lock).catch(() => undefined);
		}
	}

	/** One answer's votes as they stand. */
	async counts(scope: string, answerId: string): Promise<{ up: number; down: number }> {
		const [up = 0, down = 0, unup = 0, undown = 0] = await this.atomic.readCounts(
			['up', 'down', 'unup', 'undown'].map((name) => answerKey(scope, answerId, name)),
		);
		return { up: Math.max(0, up - unup), down: Math.max(0, down - undown) };
	}

	/** A server's last `days` UTC days (today included), from its counters. */
	async summary(scope: string, days: number, now = Date.now()): Promise<RatingSummary> {
		const names = ['rated', 'up', 'down', 'unup', 'undown'];
		const keys = Array.from({ length: days }, (_, n) => now - n * DAY_MS).flatMap((at) => names.map((name) => dayKey(scope, at, name)));
		const counts = await this.atomic.readCounts(keys);
		const total = (name: string) => keys.reduce((sum, key, at) => (key.endsWith(`:${name}`) ? sum + (counts[at] ?? 0) : sum), 0);
		// A vote changed on a later day than it was cast is taken back from that day: the sum over the days holds.
		return { rated: total('rated'), up: Math.max(0, total('up') - total('unup')), down: Math.max(0, total('down') - total('undown')) };
	}

	async #lock(key: string): Promise<string> {
		const token = randomId(12);
		for (let attempt = 0; attempt < LOCK_TRIES; attempt++) {
			if ((await this.atomic.claim(key, token, LOCK_MS)) === undefined) return token;
			await new Promise((resolve) => setTimeout(resolve, LOCK_WAIT_MS));
		}
		throw new Error('a vote stayed locked');
	}
}

const answerKey = (scope: string, answerId: string, name: string) => `answer-votes:${scope}:${answerId}:${name}`;
const dayKey = (scope: string, at: number, name: string) => `answer-stats:${scope}:${dayOf(at)}:${name}`;
