import { AskCancelledError } from './admissionErrors.js';
import type { AtomicStore } from '../storage/atomicStore.js';

/** How long a Cancel pressed for an ask not running here is kept for the process that runs it to find. */
const CANCEL_RECORD_MS = 15 * 60_000;
/** Asks that ended lately, so a Cancel pressed as the answer went out is answered as too late, not as cancelled. */
const RECENT_MAX = 1000;

/**
 * Where an ask is, as Cancel sees it: waiting in line, gathering what it is made of, generating (the service has
 * been reached: a cancel now still counts against the limits), or delivering (too late to cancel).
 */
export type AskStage = 'waiting' | 'gathering' | 'generating' | 'delivering';

/** What Cancel found of an ask in this process. */
export type CancelOutcome =
	/** Stopped; `reached`: the service had already been called, so the ask still counts. */
	| { readonly kind: 'cancelled'; readonly reached: boolean }
	| { readonly kind: 'tooLate' }
	/** Not running here: another process's, or one that ended (or died with a restart). */
	| { readonly kind: 'unknown' };

/** One running ask: the signal its line and its call take, and where it is. */
export class RunningAsk {
	readonly #controller = new AbortController();
	/** Aborts with the interaction's signal (the process stopping), or when Cancel stops the ask. */
	readonly signal = this.#controller.signal;
	stage: AskStage = 'waiting';
	/** Where Cancel found it; undefined: not cancelled. */
	cancelledAt: AskStage | undefined;
	/** Whether its message carries Cancel now (so a press may have come in another process; see askCancel.ts). */
	offeredCancel = false;
	#cancelled = false;

	constructor(parent: AbortSignal) {
		// One listener rather than AbortSignal.any, which on Node 20 ties the signals it joins with weak references the
		// collector must process, on every ask, for the same outcome: the first abort's reason wins.
		if (parent.aborted) this.#controller.abort(parent.reason);
		else parent.addEventListener('abort', () => this.#controller.abort(parent.reason), { once: true });
	}

	/** Whether Cancel stopped it. */
	get cancelled(): boolean {
		return this.#cancelled;
	}

	/** Whether the service had been called when Cancel stopped it: then the ask still counts. */
	get reached(): boolean {
		return this.cancelledAt === 'generating';
	}

	/** @internal */
	cancel(): CancelOutcome {
		if (this.stage === 'delivering') return { kind: 'tooLate' };
		if (!this.#cancelled) {
			this.#cancelled = true;
			this.cancelledAt = this.stage;
			this.#controller.abort(new AskCancelledError());
		}
		return { kind: 'cancelled', reached: this.reached };
	}

	/** Stops it for a Cancel pressed in another process; returns the error to end it with. */
	cancelFromElsewhere(): AskCancelledError {
		this.cancel();
		return new AskCancelledError();
	}
}

/**
 * The asks this process runs, by the id of the interaction that asked, for Cancel. Discord sends a server's
 * interactions to its shard, and DMs to shard 0, so a press of Cancel reaches the process that runs the ask; a
 * press that finds nothing here leaves a record in the store instead (see askCancel.ts).
 */
export class RunningAsks {
	readonly #asks = new Map<string, RunningAsk>();
	readonly #recent = new Set<string>();

	constructor(private readonly atomic: AtomicStore) {}

	/** Starts keeping an ask; {@link end} forgets it. */
	start(askId: string, parent: AbortSignal): RunningAsk {
		const ask = new RunningAsk(parent);
		this.#asks.set(askId, ask);
		return ask;
	}

	end(askId: string): void {
		if (!this.#asks.delete(askId)) return;
		this.#recent.add(askId);
		// A Set iterates in insertion order: the oldest goes first.
		if (this.#recent.size > RECENT_MAX) for (const old of this.#recent) if (this.#recent.delete(old)) break;
	}

	/** Stops the ask when it is here and not yet being delivered. Two presses: the second finds it cancelled already. */
	cancel(askId: string): CancelOutcome {
		const ask = this.#asks.get(askId);
		if (ask) return ask.cancel();
		return this.#recent.has(askId) ? { kind: 'tooLate' } : { kind: 'unknown' };
	}

	/** Leaves a Cancel for an ask not running here, for the process that runs it (if any still does) to find. */
	async recordCancel(askId: string): Promise<void> {
		await this.atomic.claim(cancelKey(askId), 'cancelled', CANCEL_RECORD_MS);
	}

	/** Claims a message's regeneration (see regenerate.ts): undefined when this call won it, else the claim held. */
	claimRegeneration(key: string, claim: string, ttlMs: number): Promise<string | undefined> {
		return this.atomic.claim(key, claim, ttlMs);
	}

	releaseRegeneration(key: string, claim: string): Promise<void> {
		return this.atomic.release(key, claim);
	}

	/** Whether a Cancel was pressed for this ask in another process: one read, made only by asks that showed Cancel. */
	async cancelRecorded(askId: string): Promise<boolean> {
		return (await this.atomic.read(cancelKey(askId))) !== undefined;
	}
}

const cancelKey = (askId: string) => `ask-cancel:${askId}`;
