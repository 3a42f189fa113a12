/**
 * Discord gives an interaction 3 s to be acknowledged, and its answer 15 minutes. When asks arrive faster than one
 * process can do the whole of each, the older asks' generation and delivery would hold up the newer ones'
 * acknowledgements past that deadline: so an acknowledged ask lets every ask that has arrived and is not yet
 * acknowledged go first, and waits at most `maxWaitMs` for them (under a load that never pauses, answers still come).
 */
export class AcksFirst {
	readonly #maxWaitMs: number;
	#unacknowledged = 0;
	readonly #waiting = new Set<() => void>();

	constructor(maxWaitMs = 5000) {
		this.#maxWaitMs = maxWaitMs;
	}

	/** An ask has arrived. Returns what to call once it is acknowledged (or has ended): later calls do nothing. */
	arrived(): () => void {
		this.#unacknowledged++;
		let acknowledged = false;
		return () => {
			if (acknowledged) return;
			acknowledged = true;
			this.#unacknowledged--;
			if (this.#unacknowledged === 0) for (const wake of [...this.#waiting]) wake();
		};
	}

	/** Resolves once no ask that has arrived is waiting for its acknowledgement, after `maxWaitMs` at most, or on `signal`. */
	turn(signal?: AbortSignal): Promise<void> {
		if (this.#unacknowledged === 0 || signal?.aborted) return Promise.resolve();
		return new Promise((resolve) => {
			const wake = () => {
				clearTimeout(timer);
				signal?.removeEventListener('abort', wake);
				this.#waiting.delete(wake);
				resolve();
			};
			const timer = setTimeout(wake, this.#maxWaitMs);
			signal?.addEventListener('abort', wake, { once: true });
			this.#waiting.add(wake);
		});
	}
}
