/** How many of the latest answers' times the estimate averages: recent enough to follow a slower model. */
const KEPT = 20;

/**
 * "About N s" for an ask waiting in line, from how long the latest asks held a slot. An ask `ahead` places back
 * waits for `ahead + 1` slots to come free, and `concurrency` slots free up side by side. Before any ask has held a
 * slot there is nothing to go on, and no estimate.
 */
export class WaitEstimate {
	readonly #concurrency: number;
	readonly #heldMs: number[] = [];
	#next = 0;
	#sum = 0;

	constructor(concurrency: number) {
		this.#concurrency = concurrency;
	}

	/** An ask held its slot this long. */
	record(heldMs: number): void {
		const ms = Math.max(0, heldMs);
		if (this.#heldMs.length < KEPT) this.#heldMs.push(ms);
		else {
			this.#sum -= this.#heldMs[this.#next] as number;
			this.#heldMs[this.#next] = ms;
			this.#next = (this.#next + 1) % KEPT;
		}
		this.#sum += ms;
	}

	/** Whole seconds, at least 1, until an ask with `ahead` asks before it holds a slot; undefined before any answer. */
	secondsFor(ahead: number): number | undefined {
		if (this.#heldMs.length === 0) return undefined;
		const meanMs = this.#sum / this.#heldMs.length;
		return Math.max(1, Math.ceil(((ahead + 1) * meanMs) / this.#concurrency / 1000));
	}
}
