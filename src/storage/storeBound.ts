import type { OperationClock } from './sqliteGate.js';
import type { StoreBackend } from './storeBackend.js';
import { StoreError } from './storeError.js';

/**
 * How long one store operation may take before it fails with StoreError: an ask's store work, plain records and
 * atomic operations alike, fails within this bound whatever the back end does.
 */
export const STORE_OPERATION_TIMEOUT_MS = 1000;

/** How long a look at every key under a prefix may take: made once at start, never on an ask's path. */
export const PREFIXED_READ_TIMEOUT_MS = 60_000;

/**
 * The one time bound of every store operation, with one policy for what a failure means. A write reported as failed
 * must not happen later. Where that is certain (SQLite's gate; Redis not connected, so the command is never sent)
 * the error says the store did not answer; where the write may still land (a SQLite statement still running at
 * the deadline; a Redis command that was sent) it says the change may not have been saved.
 */
export class StoreBound {
	readonly backend: StoreBackend;
	readonly timeoutMs: number;
	/** Told of every operation that failed or timed out (the operators' metrics count them). */
	readonly #onError: () => void;

	constructor(backend: StoreBackend, timeoutMs: number, onError: () => void = () => {}) {
		this.backend = backend;
		this.timeoutMs = timeoutMs;
		this.#onError = onError;
	}

	/** A read: it cannot land later, so it runs beside the gate's line (a member's link is never read behind saves). */
	read<T>(what: string, operation: (signal: AbortSignal) => Promise<T>, timeoutMs = this.timeoutMs): Promise<T> {
		return this.#bounded(what, operation, false, timeoutMs);
	}

	/** A write: refused at once when Redis is not connected, since a command sent later would land after the answer. */
	write<T>(what: string, operation: () => Promise<T>): Promise<T> {
		if (this.backend.kind === 'redis' && !this.backend.client.isReady) {
			this.#onError();
			return Promise.reject(new StoreError(`store not connected: ${what} not sent`));
		}
		return this.#bounded(what, operation, true, this.timeoutMs);
	}

	/** Runs `operation` within `timeoutMs`; its signal aborts at the deadline, so a long read stops when given up. */
	async #bounded<T>(what: string, operation: (signal: AbortSignal) => Promise<T>, writes: boolean, timeoutMs: number): Promise<T> {
		const clock: OperationClock = { deadline: Date.now() + timeoutMs, inFlight: 0 };
		const backend = this.backend;
		const abort = new AbortController();
		const running = backend.kind === 'sqlite' && writes ? backend.gate.run(clock, () => operation(abort.signal)) : operation(abort.signal);
		// A SQLite statement that errs wrote nothing, so only one still running at the deadline leaves a doubt; a Redis
		// command that was sent may be applied whatever the client saw.
		const unsureAtDeadline = () => writes && (backend.kind === 'redis' || (backend.kind === 'sqlite' && clock.inFlight > 0));
		let timer: NodeJS.Timeout | undefined;
		let lastLook: NodeJS.Immediate | undefined;
		const timeout = new Promise<never>((_, reject) => {
			timer = setTimeout(() => {
				// A process busy past the bound runs this timer before the answer the store already gave, which waits in
				// the loop's I/O phase: one turn of the loop lets that answer in before the operation is called late.
				lastLook = setImmediate(() => {
					abort.abort();
					reject(new StoreError(`store did not answer ${what} within ${timeoutMs} ms`, { outcomeUnknown: unsureAtDeadline() }));
				});
			}, timeoutMs);
		});
		try {
			return await Promise.race([running, timeout]);
		} catch (error) {
			this.#onError();
			if (error instanceof StoreError) throw error;
			const reason = error instanceof Error ? error.message : String(error);
			throw new StoreError(`store failed ${what}: ${reason}`, { cause: error, outcomeUnknown: writes && backend.kind === 'redis' });
		} finally {
			clearTimeout(timer);
			clearImmediate(lastLook);
		}
	}
}
