import type { RetryHandler } from 'undici';
import { parseRetryAfterMs } from '../http/parseRetryAfter.js';

/** Statuses worth another attempt: the service is busy or broken for a moment. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/** Failures worth another attempt: undici's default network codes, the time-outs, and an unusable 2xx body. */
export const RETRY_CODES: ReadonlySet<string> = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'ENETDOWN',
	'ENETUNREACH',
	'EHOSTDOWN',
	'EHOSTUNREACH',
	'EPIPE',
	'ETIMEDOUT',
	'UND_ERR_SOCKET',
	'UND_ERR_CONNECT_TIMEOUT',
	'UND_ERR_HEADERS_TIMEOUT',
	'UND_ERR_BODY_TIMEOUT',
	'VEIL_ATTEMPT_TIMEOUT',
	'VEIL_UNACCEPTABLE_BODY',
]);

/** Options of {@link jitteredRetry} and {@link retryDelayMs}. */
export interface RetryPolicy {
	maxRetries: number;
	minRetryDelayMs: number;
	maxRetryDelayMs: number;
}

/**
 * How long to wait before retry number `retry` (1-based): the server's `Retry-After` when it gave one, else an
 * exponential back-off from `minRetryDelayMs` with "equal jitter" (half fixed, half random, so members who failed
 * together do not all come back at once); both capped at `maxRetryDelayMs`.
 */
export function retryDelayMs(
	retry: number,
	retryAfterMs: number | undefined,
	policy: Pick<RetryPolicy, 'minRetryDelayMs' | 'maxRetryDelayMs'>,
	random: () => number = Math.random,
): number {
	const cap = Math.max(0, policy.maxRetryDelayMs);
	if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), cap);
	const ceiling = Math.min(cap, Math.max(0, policy.minRetryDelayMs) * 2 ** Math.max(0, retry - 1));
	return ceiling / 2 + (random() * ceiling) / 2;
}

/** Whether an error undici's RetryHandler hands over deserves another attempt. */
export function isRetryable(error: Error): boolean {
	const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
	// RetryHandler reports a status it was shown as a RequestRetryError carrying `statusCode`.
	if (typeof statusCode === 'number' && code === 'UND_ERR_REQ_RETRY') return RETRY_STATUSES.has(statusCode);
	return typeof code === 'string' && RETRY_CODES.has(code);
}

/**
 * The `retry` callback for undici's `interceptors.retry`, which asks it after every failed attempt: `cb(null)`
 * retries, `cb(err)` gives up. Ours adds jitter, reads `Retry-After` as seconds or a date, and stops waiting the
 * moment the request's signal aborts (undici's default keeps its timer running).
 */
export function jitteredRetry(policy: RetryPolicy): RetryHandler.RetryCallback {
	return (error, { state, opts }, cb) => {
		// request() hands its options, signal included, down to dispatch; the dispatch type just does not say so.
		const { signal: given } = opts as { signal?: unknown };
		const signal = given instanceof AbortSignal ? given : undefined;
		// state.counter is the number of attempts made so far.
		if (signal?.aborted || !isRetryable(error) || state.counter > policy.maxRetries) {
			cb(error);
			return;
		}
		const headers = (error as { headers?: Record<string, string | string[] | undefined> }).headers;
		const retryAfterMs = parseRetryAfterMs(headers?.['retry-after']);
		// A wait longer than we are willing to hold a member for is the service saying "not now": retrying sooner
		// than it asked would only spend the retries on answers already known.
		if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryDelayMs) {
			cb(error);
			return;
		}
		const delay = retryDelayMs(state.counter, retryAfterMs, policy);
		const onAbort = (): void => {
			clearTimeout(timer);
			// A held response (an error with a status) is ended by the abort reaching its controller. A failed
			// attempt may never have reached the request's abort hook (a refused connect), so give up here.
			if (typeof (error as { statusCode?: unknown }).statusCode !== 'number') cb(error);
		};
		const timer = setTimeout(() => {
			signal?.removeEventListener('abort', onAbort);
			cb(null);
		}, delay);
		signal?.addEventListener('abort', onAbort, { once: true });
	};
}
