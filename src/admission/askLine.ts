import { LineFullError } from './admissionErrors.js';
import { LatestEvery } from './latestEvery.js';
import { WaitEstimate } from './waitEstimate.js';

/** How often, at most, a waiting ask hears of its place in line. */
const POSITION_INTERVAL_MS = 2000;

interface AskLineOptions {
	/** Asks let through at once (`ASK_CONCURRENCY`). */
	readonly concurrency: number;
	/** Asks that may wait (`ASK_QUEUE_MAX`); one more is refused at once. */
	readonly maxWaiting: number;
	/** At most one position update per ask this often. Default {@link POSITION_INTERVAL_MS}. */
	readonly positionIntervalMs?: number;
	/** Told the counts after every change (for the operators' gauges). */
	readonly onChange?: (holding: number, waiting: number) => void;
	/** Told how long each ask waited for its slot, in ms (0: a slot was free), once it holds one. */
	readonly onWaited?: (ms: number) => void;
	/** The clock slots are timed by, in ms (tests give their own). Default `performance.now`. */
	readonly now?: () => number;
}

/** A place in the line: waiting for its turn, then holding a slot, until {@link Ticket.leave}. */
export interface Ticket {
	/** Whether it had to wait when it entered; one that did not never hears of a position. */
	readonly waitedOnEntry: boolean;
	/**
	 * Resolves when the ticket holds a slot; rejects with the signal's reason when it aborts while waiting, or with
	 * a plain error when the ticket leaves first. Unawaited, a rejection is not reported as unhandled.
	 */
	readonly granted: Promise<void>;
	/**
	 * Tells `onPosition` how many asks wait ahead of this one: at once while it waits, then on each change, at most
	 * once per interval; never once it holds a slot or has left.
	 */
	watch(onPosition: (ahead: number) => void): void;
	/** Gives the slot back, or steps out of the line; a second call does nothing. */
	leave(): void;
}

interface Waiter {
	readonly settle: (error?: unknown) => void;
	updates: LatestEvery<number> | undefined;
}

/**
 * First in, first out, with at most `concurrency` holders of a slot at once and at most `maxWaiting` waiting.
 * Everything runs synchronously inside the event loop, so the counts cannot race.
 */
export class AskLine {
	readonly #concurrency: number;
	readonly #maxWaiting: number;
	readonly #intervalMs: number;
	readonly #onChange: (holding: number, waiting: number) => void;
	readonly #onWaited: (ms: number) => void;
	readonly #waiting: Waiter[] = [];
	readonly #now: () => number;
	readonly #estimate: WaitEstimate;
	#holding = 0;

	constructor(options: AskLineOptions) {
		this.#concurrency = options.concurrency;
		this.#maxWaiting = options.maxWaiting;
		this.#intervalMs = options.positionIntervalMs ?? POSITION_INTERVAL_MS;
		this.#onChange = options.onChange ?? (() => undefined);
		this.#onWaited = options.onWaited ?? (() => undefined);
		this.#now = options.now ?? (() => performance.now());
		this.#estimate = new WaitEstimate(options.concurrency);
	}

	/** About how many seconds an ask with `ahead` asks before it waits, from the latest asks' times; undefined before any. */
	estimateSeconds(ahead: number): number | undefined {
		return this.#estimate.secondsFor(ahead);
	}

	/** Asks holding a slot. */
	get holding(): number {
		return this.#holding;
	}

	/** Asks waiting for one. */
	get waiting(): number {
		return this.#waiting.length;
	}

	/**
	 * Takes a place: a slot at once when one is free and nobody waits, else a place at the back. Throws
	 * {@link LineFullError} when the line is full, and the signal's reason when it has already aborted.
	 */
	enter(signal?: AbortSignal): Ticket {
		signal?.throwIfAborted();
		if (this.#holding < this.#concurrency && this.#waiting.length === 0) {
			this.#holding++;
			this.#changed();
			this.#onWaited(0);
			return this.#heldTicket();
		}
		if (this.#waiting.length >= this.#maxWaiting) throw new LineFullError(this.#waiting.length);
		const ticket = this.#waitingTicket(signal);
		this.#changed();
		return ticket;
	}

	/** {@link enter}, resolving with the release once a slot is held; `onPosition` as in {@link Ticket.watch}. */
	async acquire(signal?: AbortSignal, onPosition?: (ahead: number) => void): Promise<() => void> {
		const ticket = this.enter(signal);
		if (onPosition) ticket.watch(onPosition);
		await ticket.granted;
		return () => ticket.leave();
	}

	#heldTicket(): Ticket {
		let held = true;
		const heldAt = this.#now();
		return {
			waitedOnEntry: false,
			granted: Promise.resolve(),
			watch: () => undefined,
			leave: () => {
				if (!held) return;
				held = false;
				this.#release(heldAt);
			},
		};
	}

	#waitingTicket(signal: AbortSignal | undefined): Ticket {
		let state: 'waiting' | 'holding' | 'gone' = 'waiting';
		let resolveGranted!: () => void;
		let rejectGranted!: (error: unknown) => void;
		const granted = new Promise<void>((resolve, reject) => {
			resolveGranted = resolve;
			rejectGranted = reject;
		});
		granted.catch(() => undefined);
		const enteredAt = this.#now();
		let heldAt = enteredAt;
		const onAbort = (): void => step(signal?.reason);
		const waiter: Waiter = {
			updates: undefined,
			settle: (error?: unknown) => {
				signal?.removeEventListener('abort', onAbort);
				waiter.updates?.stop();
				if (error === undefined) {
					state = 'holding';
					heldAt = this.#now();
					this.#onWaited(heldAt - enteredAt);
					resolveGranted();
				} else {
					state = 'gone';
					rejectGranted(error);
				}
			},
		};
		// Leaving the line early, by abort or by leave(): those behind move up.
		const step = (error: unknown): void => {
			const index = this.#waiting.indexOf(waiter);
			if (index < 0) return;
			this.#waiting.splice(index, 1);
			waiter.settle(error);
			this.#changed();
			this.#tellPositions(index);
		};
		signal?.addEventListener('abort', onAbort, { once: true });
		this.#waiting.push(waiter);
		return {
			waitedOnEntry: true,
			granted,
			watch: (onPosition) => {
				if (state !== 'waiting' || waiter.updates) return;
				waiter.updates = new LatestEvery(this.#intervalMs, onPosition);
				waiter.updates.push(this.#waiting.indexOf(waiter));
			},
			leave: () => {
				if (state === 'waiting') step(new Error('left the line before its turn'));
				else if (state === 'holding') {
					state = 'gone';
					this.#release(heldAt);
				}
			},
		};
	}

	#release(heldAt: number): void {
		this.#estimate.record(this.#now() - heldAt);
		this.#holding--;
		const next = this.#waiting.shift();
		if (next !== undefined) {
			this.#holding++;
			next.settle();
		}
		this.#changed();
		if (next !== undefined) this.#tellPositions(0);
	}

	#changed(): void {
		this.#onChange(this.#holding, this.#waiting.length);
	}

	/** Everyone from `from` on has moved up one place. */
	#tellPositions(from: number): void {
		for (let index = from; index < this.#waiting.length; index++) this.#waiting[index]?.updates?.push(index);
	}
}
