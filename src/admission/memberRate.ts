/** The window of `ASK_MEMBER_PER_MINUTE`. */
const RATE_WINDOW_MS = 60_000;

/**
 * How many asks one member may start in any window ({@link RATE_WINDOW_MS} unless told), per process: a sliding
 * window over the times of their last asks, so a burst at the end of one minute does not double up with one at the
 * start of the next. `perWindow` 0 means no limit. /link's limits use it too, one of them under a single key for
 * the whole process.
 */
export class MemberRate {
	readonly #perWindow: number;
	readonly #windowMs: number;
	/** Each member's ask times within the window, oldest first; never more than `perWindow`. */
	readonly #started = new Map<string, number[]>();
	#lastSweep = 0;

	constructor(perWindow: number, windowMs = RATE_WINDOW_MS) {
		this.#perWindow = perWindow;
		this.#windowMs = windowMs;
	}

	/** Members with an ask inside the window (for the memory it holds). */
	get tracked(): number {
		return this.#started.size;
	}

	/** When the member may start another ask: undefined when they may now. */
	nextAllowedAt(memberId: string, now: number): number | undefined {
		if (this.#perWindow === 0) return undefined;
		const times = this.#recent(memberId, now);
		if (times.length < this.#perWindow) return undefined;
		return (times[0] as number) + this.#windowMs;
	}

	/** Counts an ask the member starts now. */
	record(memberId: string, now: number): void {
		if (this.#perWindow === 0) return;
		this.#sweep(now);
		const times = this.#recent(memberId, now);
		times.push(now);
		if (times.length > this.#perWindow) times.splice(0, times.length - this.#perWindow);
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
