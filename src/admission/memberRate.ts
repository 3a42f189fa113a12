/** The window of `ASK_MEMBER_PER_MINUTE`. */
const RATE_WINDOW_MS = 60_000;

/**
 * How many asks one member may start in any {@link RATE_WINDOW_MS}, per process: a sliding window over the times
 * of their last asks, so a burst at the end of one minute does not double up with one at the start of the next.
 * `perMinute` 0 means no limit.
 */
export class MemberRate {
	readonly #perMinute: number;
	readonly #windowMs: number;
	/** Each member's ask times within the window, oldest first; never more than `perMinute`. */
	readonly #started = new Map<string, number[]>();
	#lastSweep = 0;

	constructor(perMinute: number, windowMs = RATE_WINDOW_MS) {
		this.#perMinute = perMinute;
		this.#windowMs = windowMs;
	}

	/** Members with an ask inside the window (for the memory it holds). */
	get tracked(): number {
		return this.#started.size;
	}

	/** When the member may start another ask: undefined when they may now. */
	nextAllowedAt(memberId: string, now: number): number | undefined {
		if (this.#perMinute === 0) return undefined;
		const times = this.#recent(memberId, now);
		if (times.length < this.#perMinute) return undefined;
		return (times[0] as number) + this.#windowMs;
	}

	/** Counts an ask the member starts now. */
	record(memberId: string, now: number): void {
		if (this.#perMinute === 0) return;
		this.#sweep(now);
		const times = this.#recent(memberId, now);
		times.push(now);
		if (times.length > this.#perMinute) times.splice(0, times.length - this.#perMinute);
		this.#started.set(memberId, times);
	}

	#recent(memberId: string, now: number): number[] {
		const times = this.#started.get(memberId) ?? [];
		const firstInside = times.findIndex((at) => at > now - this.#windowMs);
		if (firstInside !== 0) times.splice(0, firstInside < 0 ? times.length : firstInside);
		if (times.length === 0) this.#started.delete(memberId);
		return times;
	}

	/** Once a window, forgets the members whose asks all lie outside it, so the map does not grow with every asker. */
	#sweep(now: number): void {
		if (now - this.#lastSweep < this.#windowMs) return;
		this.#lastSweep = now;
		for (const [memberId, times] of this.#started) {
			const newest = times[times.length - 1];
			if (newest === undefined || newest <= now - this.#windowMs) this.#started.delete(memberId);
		}
	}
}
