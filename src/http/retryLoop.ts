/** Retries after the first attempt (0: one attempt only), the first back-off before jitter, the cap of every wait. */
export interface RetryPolicy {
	maxRetries: number;
	minRetryDelayMs: number;
	maxRetryDelayMs: number;
}

/** `policy` with what it leaves out filled in: 2 retries, from 500 ms, each wait at most 8 s. */
export function retryPolicy(policy: Partial<RetryPolicy> = {}): RetryPolicy {
	return { maxRetries: policy.maxRetries ?? 2, minRetryDelayMs: policy.minRetryDelayMs ?? 500, maxRetryDelayMs: policy.maxRetryDelayMs ?? 8000 };
}

/** What one attempt came to: a value to hand back, or a failure, worth another attempt or not. */
export type Attempted<T> = { ok: true; value: T } | { ok: false; error: Error; retry: boolean; retryAfterMs?: number };

/** One attempt, which must stop when `signal` aborts (undici's request and body do). */
type Attempt<T> = (signal: AbortSignal) => Promise<Attempted<T>>;

/** Options of {@link retryLoop}. */
export interface RetryLoopOptions extends RetryPolicy {
	/** Per attempt, from sending the request to the last byte of the answer. */
	timeoutMs: number;
	/** The caller's: ends the attempt or the wait at once, and the call rejects with `signal.reason`. */
	signal?: AbortSignal;
	/** The failure to report for an attempt that threw: a network error, or the time-out when `timedOut`. */
	onThrow: (error: unknown, timedOut: boolean) => Error;
}

/**
 * Runs `attempt` until it succeeds, fails for good, or the retries run out, and returns its value or throws its
 * last failure. Each attempt gets a signal of its own that aborts at its deadline or when the caller's does; an
 * attempt that throws (its request or its body read) is retried. The caller's signal carries a listener only while
 * an attempt or a wait is under way, so a long-lived signal shared by many calls keeps none once they end.
 */
export async function retryLoop<T>(attempt: Attempt<T>, options: RetryLoopOptions): Promise<T> {
	const { signal } = options;
	for (let retry = 1; ; retry++) {
		signal?.throwIfAborted();
		const result = await attemptOnce(attempt, options);
		if (result.ok) return result.value;
		const { retryAfterMs } = result;
		// A wait longer than the cap is the service saying "not now": retrying sooner would only spend the retries.
		const tooLong = retryAfterMs !== undefined && retryAfterMs > options.maxRetryDelayMs;
		if (!result.retry || retry > options.maxRetries || tooLong) throw result.error;
		await backOff(retryDelayMs(retry, retryAfterMs, options), signal);
	}
}

async function attemptOnce<T>(attempt: Attempt<T>, { signal, timeoutMs, onThrow }: RetryLoopOptions): Promise<Attempted<T>> {
	const controller = new AbortController();
	let timedOut = false;
	const timer = setTimeout(() => {
		timedOut = true;
		controller.abort(new Error(`no complete answer within ${timeoutMs} ms`));
	}, timeoutMs);
	const forward = (): void => controller.abort(signal?.reason);
	signal?.addEventListener('abort', forward, { once: true });
	try {
		const result = await attempt(controller.signal);
		// An attempt may end on its own as the caller aborts (a body cut short still has its status): abort wins.
		signal?.throwIfAborted();
		return result;
	} catch (error) {
		if (signal?.aborted) throw signal.reason;
		return { ok: false, error: onThrow(error, timedOut), retry: true };
	} finally {
		clearTimeout(timer);
		signal?.removeEventListener('abort', forward);
	}
}

/** Waits `ms`, or rejects with `signal.reason` once it aborts; on the global timers, so a test can fake them. */
function backOff(ms: number, signal: AbortSignal | undefined): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal?.aborted) return reject(signal.reason);
		const abort = (): void => {
			clearTimeout(timer);
			reject(signal?.reason);
		};
		const timer = setTimeout(() => {
			signal?.removeEventListener('abort', abort);
			resolve();
		}, ms);
		signal?.addEventListener('abort', abort, { once: true });
	});
}

/**
 * How long to wait before retry number `retry` (1-based): the server's `Retry-After` when it gave one, else an
 * exponential back-off from `minRetryDelayMs` with "equal jitter" (half fixed, half random, so members who failed
 * together do not all come back at once); both capped at `maxRetryDelayMs`.
 */
export function retryDelayMs(retry: number, retryAfterMs: number | undefined, policy: Omit<RetryPolicy, 'maxRetries'>, random = Math.random): number {
	const cap = Math.max(0, policy.maxRetryDelayMs);
	if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), cap);
	const ceiling = Math.min(cap, Math.max(0, policy.minRetryDelayMs) * 2 ** Math.max(0, retry - 1));
	return ceiling / 2 + (random() * ceiling) / 2;
}
