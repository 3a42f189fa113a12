import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRetryable, retryDelayMs } from '../../../src/generation/generationRetry.js';

const policy = { minRetryDelayMs: 500, maxRetryDelayMs: 8000 };

describe('retryDelayMs', () => {
	it('doubles from minRetryDelayMs with equal jitter', () => {
		expect(retryDelayMs(1, undefined, policy, () => 0)).toBe(250);
		expect(retryDelayMs(1, undefined, policy, () => 1)).toBe(500);
		expect(retryDelayMs(2, undefined, policy, () => 1)).toBe(1000);
		expect(retryDelayMs(3, undefined, policy, () => 0.5)).toBe(1500);
	});

	it('honours Retry-After, even 0, capped at maxRetryDelayMs', () => {
		expect(retryDelayMs(1, 0, policy)).toBe(0);
		expect(retryDelayMs(1, 3000, policy)).toBe(3000);
		expect(retryDelayMs(1, 3_600_000, policy)).toBe(8000);
	});

	it('stays between half the back-off and the cap, whatever the inputs', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 60 }),
				fc.option(fc.integer({ min: 0, max: 10 ** 9 }), { nil: undefined }),
				fc.integer({ min: 0, max: 10_000 }),
				fc.integer({ min: 0, max: 100_000 }),
				fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
				(retry, retryAfter, min, max, random) => {
					const delay = retryDelayMs(retry, retryAfter, { minRetryDelayMs: min, maxRetryDelayMs: max }, () => random);
					expect(delay).toBeGreaterThanOrEqual(0);
					expect(delay).toBeLessThanOrEqual(max);
					if (retryAfter !== undefined) expect(delay).toBe(Math.min(retryAfter, max));
					else expect(delay).toBeGreaterThanOrEqual(Math.min(max, min * 2 ** (retry - 1)) / 2);
				},
			),
		);
	});
});

describe('isRetryable', () => {
	// What undici's RetryHandler hands over for a status: a RequestRetryError with the status and its headers.
	const status = (code: number) =>
		Object.assign(new Error('Request failed'), { code: 'UND_ERR_REQ_RETRY', statusCode: code, headers: {} });
	const coded = (code: string) => Object.assign(new Error(code), { code });

	it('retries 429 and the passing 5xx', () => {
		for (const code of [429, 500, 502, 503, 504]) expect(isRetryable(status(code))).toBe(true);
		for (const code of [400, 401, 403, 404, 501]) expect(isRetryable(status(code))).toBe(false);
	});

	it('retries network errors, time-outs and unusable bodies, nothing else', () => {
		for (const code of ['ECONNRESET', 'ECONNREFUSED', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']) {
			expect(isRetryable(coded(code))).toBe(true);
		}
		expect(isRetryable(coded('VEIL_ATTEMPT_TIMEOUT'))).toBe(true);
		expect(isRetryable(coded('VEIL_UNACCEPTABLE_BODY'))).toBe(true);
		expect(isRetryable(coded('UND_ERR_ABORTED'))).toBe(false);
		expect(isRetryable(coded('VEIL_RESPONSE_TOO_LARGE'))).toBe(false);
		expect(isRetryable(new Error('plain'))).toBe(false);
	});
});
