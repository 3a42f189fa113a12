import { getEventListeners } from 'node:events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { retryDelayMs, retryLoop, type Attempted, type RetryLoopOptions } from '../../../src/http/retryLoop.js';

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

// retryLoop against scripted attempts; the generation and login clients' tests drive it over real sockets.
const failure = (message: string, retry = true, retryAfterMs?: number): Attempted<never> => ({
	ok: false,
	error: new Error(message),
	retry,
	retryAfterMs,
});

function scripted<T>(...outcomes: Array<Attempted<T> | 'throw' | 'hang'>) {
	const signals: AbortSignal[] = [];
	const attempt = async (signal: AbortSignal): Promise<Attempted<T>> => {
		signals.push(signal);
		const next = outcomes.shift() ?? failure('script ran out');
		if (next === 'throw') throw new Error('socket hang up');
		if (next === 'hang') {
			// As undici does: the attempt ends when its signal aborts, with the signal's reason.
			return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));
		}
		return next;
	};
	return { attempt, signals };
}

const loopOptions = (overrides: Partial<RetryLoopOptions> = {}): RetryLoopOptions => ({
	maxRetries: 2,
	minRetryDelayMs: 1,
	maxRetryDelayMs: 5,
	timeoutMs: 5000,
	onThrow: (error, timedOut) => new Error(timedOut ? 'timed out' : `network: ${(error as Error).message}`),
	...overrides,
});

describe('retryLoop', () => {
	it('returns the first value, after retrying what asks for it', async () => {
		const { attempt, signals } = scripted(failure('503'), 'throw', { ok: true, value: 'answer' });
		await expect(retryLoop(attempt, loopOptions())).resolves.toBe('answer');
		expect(signals).toHaveLength(3);
	});

	it('throws the last failure after maxRetries retries, and stops at once on one not worth retrying', async () => {
		const three = scripted(failure('one'), failure('two'), failure('three'), { ok: true, value: 'late' });
		await expect(retryLoop(three.attempt, loopOptions())).rejects.toThrow('three');
		expect(three.signals).toHaveLength(3);
		const once = scripted(failure('401', false), { ok: true, value: 'never' });
		await expect(retryLoop(once.attempt, loopOptions())).rejects.toThrow('401');
		expect(once.signals).toHaveLength(1);
		const single = scripted(failure('503'), { ok: true, value: 'never' });
		await expect(retryLoop(single.attempt, loopOptions({ maxRetries: 0 }))).rejects.toThrow('503');
		expect(single.signals).toHaveLength(1);
	});

	it('gives up at once when Retry-After asks for longer than the cap, and honours a shorter one', async () => {
		const long = scripted(failure('429', true, 6), { ok: true, value: 'never' });
		await expect(retryLoop(long.attempt, loopOptions({ maxRetryDelayMs: 5 }))).rejects.toThrow('429');
		expect(long.signals).toHaveLength(1);
		const short = scripted(failure('429', true, 5), { ok: true, value: 'answer' });
		await expect(retryLoop(short.attempt, loopOptions({ maxRetryDelayMs: 5 }))).resolves.toBe('answer');
	});

	it('reports an attempt that throws through onThrow, and one past its deadline as timed out', async () => {
		await expect(retryLoop(scripted('throw').attempt, loopOptions({ maxRetries: 0 }))).rejects.toThrow('network: socket hang up');
		const hung = scripted('hang', 'hang');
		await expect(retryLoop(hung.attempt, loopOptions({ maxRetries: 1, timeoutMs: 20 }))).rejects.toThrow('timed out');
		expect(hung.signals.map((signal) => signal.aborted)).toEqual([true, true]);
	});

	it("ends a running attempt with the caller's reason when the caller aborts, and retries nothing", async () => {
		const controller = new AbortController();
		const hung = scripted('hang', { ok: true, value: 'never' });
		const pending = retryLoop(hung.attempt, loopOptions({ signal: controller.signal }));
		await new Promise((resolve) => setImmediate(resolve));
		const reason = new Error('member left');
		controller.abort(reason);
		await expect(pending).rejects.toBe(reason);
		expect(hung.signals).toHaveLength(1);
		expect(hung.signals[0]?.reason).toBe(reason);
	});

	it("ends the wait between attempts with the caller's reason", async () => {
		const controller = new AbortController();
		const { attempt, signals } = scripted(failure('503'), { ok: true, value: 'never' });
		const pending = retryLoop(attempt, loopOptions({ signal: controller.signal, minRetryDelayMs: 60_000, maxRetryDelayMs: 60_000 }));
		await new Promise((resolve) => setImmediate(resolve));
		const reason = new Error('shutting down');
		controller.abort(reason);
		await expect(pending).rejects.toBe(reason);
		expect(signals).toHaveLength(1);
	});

	it('leaves no listener on a long-lived signal once a call ends, however it ended', async () => {
		const shared = new AbortController().signal;
		await retryLoop(scripted(failure('503'), 'throw', { ok: true, value: 1 }).attempt, loopOptions({ signal: shared }));
		await retryLoop(scripted(failure('a'), failure('b'), failure('c')).attempt, loopOptions({ signal: shared })).catch(() => {});
		await retryLoop(scripted('hang').attempt, loopOptions({ signal: shared, maxRetries: 0, timeoutMs: 10 })).catch(() => {});
		expect(getEventListeners(shared, 'abort')).toHaveLength(0);
	});
});
