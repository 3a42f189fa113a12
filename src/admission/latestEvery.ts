/**
 * Passes on the latest of a changing value at most once every `intervalMs`: the first value at once, a change
 * within the interval after the interval (only the newest one, and only if it differs from the last passed on).
 * Each "N asks ahead of yours" update is an edit of a Discord message; an edit per change of a long line would
 * spend the interaction's rate limit on news nobody reads.
 */
export class LatestEvery<T> {
	readonly #intervalMs: number;
	readonly #deliver: (value: T) => void;
	#last: { value: T; at: number } | undefined;
	#pending: { value: T } | undefined;
	#timer: NodeJS.Timeout | undefined;
	#stopped = false;

	constructor(intervalMs: number, deliver: (value: T) => void) {
		this.#intervalMs = intervalMs;
		this.#deliver = deliver;
	}

	push(value: T): void {
		if (this.#stopped) return;
		const now = Date.now();
		if (this.#last === undefined || now - this.#last.at >= this.#intervalMs) {
			this.#cancelPending();
			if (this.#last !== undefined && Object.is(this.#last.value, value)) return;
			this.#send(value, now);
			return;
		}
		this.#pending = { value };
		this.#timer ??= setTimeout(() => this.#flush(), this.#last.at + this.#intervalMs - now);
	}

	/** Nothing more is passed on, pending or later. */
	stop(): void {
		this.#stopped = true;
		this.#cancelPending();
	}

	#cancelPending(): void {
		this.#pending = undefined;
		clearTimeout(this.#timer);
		this.#timer = undefined;
	}

	#flush(): void {
		this.#timer = undefined;
		const pending = this.#pending;
		this.#pending = undefined;
		if (pending === undefined || this.#stopped) return;
		if (this.#last !== undefined && Object.is(this.#last.value, pending.value)) return;
		this.#send(pending.value, Date.now());
	}

	#send(value: T, now: number): void {
		this.#last = { value, at: now };
		this.#deliver(value);
	}
}
