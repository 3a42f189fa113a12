import { SERVICE_DOWN_KINDS, UpstreamError } from '../generation/upstreamError.js';

export interface CircuitBreakerOptions {
	/** Failures in a row that open it. Default 5. */
	readonly failureThreshold?: number;
	/** How long it stays open before one trial ask is let through. Default 30 s. */
	readonly openMs?: number;
	readonly now?: () => number;
}

type BreakerState = 'closed' | 'open' | 'half-open';

/**
 * One ask's permission to go upstream, taken before the ask is acknowledged and checked again just before the
 * call, since the breaker may have opened while the ask waited in line. Exactly one of the outcomes should follow.
 */
export interface Pass {
	/** Whether the call may go upstream now. */
	mayProceed(): boolean;
	/** The service answered (whatever it said): it is up. */
	succeeded(): void;
	/** The service did not answer: a 5xx, a time-out or a network error, after the retries. */
	failed(): void;
	/** The ask ended without asking (refused, aborted): no news of the service. */
	abandon(): void;
}

/**
 * Stops sending asks to a service that has failed `failureThreshold` times in a row: for `openMs` every ask is
 * refused at once, then one trial ask is let through, and its outcome closes the breaker or opens it again.
 * Outcomes count in the order they arrive; those of asks let through before it opened change nothing.
 */
export class CircuitBreaker {
	readonly #threshold: number;
	readonly #openMs: number;
	readonly #now: () => number;
	#failures = 0;
	/** Bumped each time the breaker opens: passes from an earlier closed period no longer count. */
	#epoch = 0;
	#openUntil: number | undefined;
	#trialOut = false;

	constructor(options: CircuitBreakerOptions = {}) {
		this.#threshold = options.failureThreshold ?? 5;
		this.#openMs = options.openMs ?? 30_000;
		this.#now = options.now ?? Date.now;
	}

	get state(): BreakerState {
		if (this.#openUntil === undefined) return 'closed';
		return this.#now() < this.#openUntil ? 'open' : 'half-open';
	}

	/** A pass, or undefined while open or while the half-open trial is out. */
	tryPass(): Pass | undefined {
		const state = this.state;
		if (state === 'closed') return this.#pass(false);
		if (state === 'half-open' && !this.#trialOut) {
			this.#trialOut = true;
			return this.#pass(true);
		}
		return undefined;
	}

	#pass(trial: boolean): Pass {
		let epoch = this.#epoch;
		let settled = false;
		const settle = (run: () => void): void => {
			if (settled) return;
			settled = true;
			run();
		};
		return {
			mayProceed: () => {
				if (settled) return false;
				if (trial) return true;
				const state = this.state;
				if (state === 'closed') {
					epoch = this.#epoch;
					return true;
				}
				// An ask let in before the breaker opened becomes the trial if none is out yet.
				if (state === 'half-open' && !this.#trialOut) {
					this.#trialOut = true;
					trial = true;
					return true;
				}
				return false;
			},
			succeeded: () => settle(() => this.#outcome(trial, epoch, true)),
			failed: () => settle(() => this.#outcome(trial, epoch, false)),
			abandon: () =>
				settle(() => {
					if (trial) this.#trialOut = false;
				}),
		};
	}

	#outcome(trial: boolean, epoch: number, ok: boolean): void {
		if (trial) {
			this.#trialOut = false;
			if (ok) this.#close();
			else this.#open();
			return;
		}
		if (this.#openUntil !== undefined || epoch !== this.#epoch) return;
		if (ok) {
			this.#failures = 0;
			return;
		}
		this.#failures++;
		if (this.#failures >= this.#threshold) this.#open();
	}

	#open(): void {
		this.#epoch++;
		this.#failures = 0;
		this.#openUntil = this.#now() + this.#openMs;
	}

	#close(): void {
		this.#failures = 0;
		this.#openUntil = undefined;
	}
}

/** Whether a generation error means the service is not answering (rather than answering no). */
export function isServiceFailure(error: unknown): boolean {
	return error instanceof UpstreamError && SERVICE_DOWN_KINDS.has(error.kind);
}
