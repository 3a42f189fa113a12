import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UpstreamError } from '../../../src/generation/upstreamError.js';
import { candidateText } from '../../../src/generation/generationResponse.js';
import type { GenerationClientOptions } from '../../../src/generation/generationClient.js';
import { useGenerationClient } from '../../support/generationClientFixture.js';
import { answerOf, rejectionOf } from '../../support/errorChecks.js';
import { safeResponse } from '../../support/upstreamStandIn.js';

const fixture = useGenerationClient();
afterEach(() => {
	vi.restoreAllMocks();
	vi.useRealTimers();
});

/** Fakes the clock the back-offs wait on; resolves the returned wait once a back-off of `ms` is on it. */
function fakeClock(): { backOff(ms: number): Promise<void> } {
	vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
	const scheduled = vi.spyOn(globalThis, 'setTimeout');
	return { backOff: (ms) => expect.poll(() => scheduled.mock.calls.some(([, delay]) => delay === ms)).toBe(true) };
}
const client = (overrides?: Partial<GenerationClientOptions>) => fixture.client(overrides);

const upstreamError = (promise: Promise<unknown>) => rejectionOf(promise, UpstreamError);

describe('GenerationClient retries', () => {
	it('honours Retry-After: 0 on a 429, then succeeds', async () => {
		fixture.standIn.scriptGeneration({ status: 429, headers: { 'retry-after': '0' }, json: { error: 'slow down' } });
		expect(candidateText(await client().generate('hi'))).toBe('Answer to: hi');
		expect(fixture.standIn.requests).toHaveLength(2);
	});

	it('honours Retry-After: 1 in seconds', async () => {
		const clock = fakeClock();
		fixture.standIn.scriptGeneration({ status: 429, headers: { 'retry-after': '1' } });
		const answer = client({ maxRetryDelayMs: 8000 }).generate('hi');
		await clock.backOff(1000);
		await vi.advanceTimersByTimeAsync(999);
		expect(fixture.standIn.requests).toHaveLength(1);
		await vi.advanceTimersByTimeAsync(1);
		expect(candidateText(await answer)).toBe('Answer to: hi');
		expect(fixture.standIn.requests).toHaveLength(2);
	});

	it('honours Retry-After as an HTTP date', async () => {
		fixture.standIn.scriptGeneration({ status: 503, headers: { 'retry-after': new Date(Date.now() - 5000).toUTCString() } });
		expect(candidateText(await client({ maxRetryDelayMs: 20 }).generate('hi'))).toBe('Answer to: hi');
		expect(fixture.standIn.requests).toHaveLength(2);
	});

	it('gives up at once when Retry-After asks for longer than maxRetryDelayMs, rather than retrying early', async () => {
		// An hour: retrying before then would spend the retries on answers already known.
		fixture.standIn.scriptGeneration({ status: 429, headers: { 'retry-after': '3600' } });
		const error = await upstreamError(client({ maxRetryDelayMs: 20 }).generate('hi'));
		expect(error.code).toBe('upstream_unavailable');
		expect(error.status).toBe(429);
		expect(error.kind).toBe('rate_limited');
		expect(fixture.standIn.requests).toHaveLength(1);
	});

	it('retries a 500 and returns the answer that follows', async () => {
		fixture.standIn.scriptGeneration({ status: 500, body: 'internal' });
		expect(candidateText(await client().generate('hi'))).toBe('Answer to: hi');
		expect(fixture.standIn.requests).toHaveLength(2);
	});

	it('gives up as upstream_unavailable after exactly three attempts at 503', async () => {
		fixture.standIn.setDefaultGeneration({ status: 503, json: { error: 'overloaded' } });
		const error = await upstreamError(client().generate('hi'));
		expect(error.code).toBe('upstream_unavailable');
		expect(error.status).toBe(503);
		expect(error.kind).toBe('server_error');
		expect(answerOf(error)).toBe("The model's service isn't answering right now. Please try again in a minute.");
		expect(fixture.standIn.requests).toHaveLength(3);
	});

	it.each([429, 500, 502, 503, 504])('retries a %i', async (status) => {
		fixture.standIn.setDefaultGeneration({ status });
		expect((await upstreamError(client().generate('hi'))).code).toBe('upstream_unavailable');
		expect(fixture.standIn.requests).toHaveLength(3);
	});

	it.each([400, 401, 403, 404, 501])('does not retry a %i', async (status) => {
		fixture.standIn.setDefaultGeneration({ status });
		expect((await upstreamError(client().generate('hi'))).status).toBe(status);
		expect(fixture.standIn.requests).toHaveLength(1);
	});

	it('makes one attempt only when maxRetries is 0', async () => {
		fixture.standIn.setDefaultGeneration({ status: 502 });
		expect((await upstreamError(client({ maxRetries: 0 }).generate('hi'))).status).toBe(502);
		expect(fixture.standIn.requests).toHaveLength(1);
	});

	it('times out each attempt that does not answer, retries, then gives up', async () => {
		fixture.standIn.setDefaultGeneration({ delayMs: 1000, json: safeResponse('late') });
		const error = await upstreamError(client({ timeoutMs: 200 }).generate('hi'));
		expect(error.code).toBe('upstream_unavailable');
		expect(error.status).toBeUndefined();
		expect(error.kind).toBe('timeout');
		expect(fixture.standIn.requests).toHaveLength(3);
	});

	it('times out an attempt whose headers came but whose body stalls', async () => {
		fixture.standIn.setDefaultGeneration({ stallBodyMs: 1000, json: safeResponse('late') });
		const error = await upstreamError(client({ timeoutMs: 200 }).generate('hi'));
		expect(error.code).toBe('upstream_unavailable');
		expect(fixture.standIn.requests).toHaveLength(3);
	});

	it('retries a stalled body like any failed attempt', async () => {
		fixture.standIn.scriptGeneration({ stallBodyMs: 1000, json: safeResponse('late') });
		expect(candidateText(await client({ timeoutMs: 200 }).generate('hi'))).toBe('Answer to: hi');
		expect(fixture.standIn.requests).toHaveLength(2);
	});

	it('retries a reset connection', async () => {
		fixture.standIn.scriptGeneration({ destroy: true });
		expect(candidateText(await client().generate('hi'))).toBe('Answer to: hi');
		expect(fixture.standIn.requests).toHaveLength(2);
	});

	it('reports reset connections as upstream_unavailable, keeping only a sanitized cause', async () => {
		fixture.standIn.setDefaultGeneration({ destroy: true });
		const error = await upstreamError(client().generate('hi'));
		expect(error.code).toBe('upstream_unavailable');
		expect(error.kind).toBe('network');
		expect(fixture.standIn.requests).toHaveLength(3);
		expect((error.cause as { code?: string }).code).toMatch(/^(UND_ERR_SOCKET|ECONNRESET|EPIPE)$/);
		expect(error.cause).not.toHaveProperty('socket');
	});

	it('reports a refused connection as upstream_unavailable', async () => {
		const closed = fixture.standIn.baseUrl;
		await fixture.standIn.stop();
		const error = await upstreamError(client({ baseUrl: closed }).generate('hi'));
		expect(error.code).toBe('upstream_unavailable');
		expect((error.cause as { code?: string }).code).toBe('ECONNREFUSED');
	});
});

describe('GenerationClient cancellation', () => {
	it("leaves no abort listener on the caller's signal once a call has ended, whatever the outcome", async () => {
		const shutdown = new AbortController().signal;
		const generation = client({ timeoutMs: 200 });
		fixture.standIn.scriptGeneration({ status: 503 }, { destroy: true });
		await generation.generate('retried then answered', { signal: shutdown });
		fixture.standIn.scriptGeneration({ status: 400 }, { delayMs: 1000 }, { delayMs: 1000 }, { delayMs: 1000 });
		await expect(generation.generate('refused', { signal: shutdown })).rejects.toBeInstanceOf(UpstreamError);
		await expect(generation.generate('timed out', { signal: shutdown })).rejects.toBeInstanceOf(UpstreamError);
		expect(fixture.standIn.requests).toHaveLength(7);
		expect(getEventListeners(shutdown, 'abort')).toHaveLength(0);
	});

	it("holds at most one listener per running call on the caller's signal", async () => {
		const shutdown = new AbortController().signal;
		fixture.standIn.setDefaultGeneration({ hang: true });
		const generation = client({ timeoutMs: 20_000 });
		const pending = [1, 2, 3].map((n) => generation.generate(`hang ${n}`, { signal: shutdown }).catch(() => undefined));
		await fixture.standIn.waitForRequests(3);
		expect(getEventListeners(shutdown, 'abort').length).toBeLessThanOrEqual(3);
		await fixture.standIn.stop();
		await Promise.all(pending);
		expect(getEventListeners(shutdown, 'abort')).toHaveLength(0);
	});

	it('rejects at once with the reason of an already aborted signal, sending nothing', async () => {
		const reason = new Error('gone');
		await expect(client().generate('hi', { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
		expect(fixture.standIn.requests).toHaveLength(0);
	});

	it('stops waiting for a hanging attempt when aborted', async () => {
		fixture.standIn.setDefaultGeneration({ hang: true });
		const controller = new AbortController();
		const pending = client({ timeoutMs: 20_000 }).generate('hi', { signal: controller.signal });
		await fixture.standIn.waitForRequests(1);
		controller.abort(new Error('member left'));
		await expect(pending).rejects.toThrow('member left');
		expect(fixture.standIn.requests).toHaveLength(1);
	});

	it('stops retrying when aborted during the back-off', async () => {
		const clock = fakeClock();
		fixture.standIn.setDefaultGeneration({ status: 503, headers: { 'retry-after': '1' } });
		const controller = new AbortController();
		const pending = client({ maxRetryDelayMs: 8000 }).generate('hi', { signal: controller.signal });
		// The answer read, the one-second back-off (Retry-After: 1) is waiting on the clock.
		await clock.backOff(1000);
		const timers = vi.getTimerCount();
		controller.abort(new Error('cancelled'));
		await expect(pending).rejects.toThrow('cancelled');
		// The one-second back-off is gone with the abort, and the clock running past it sends nothing.
		expect(vi.getTimerCount()).toBe(timers - 1);
		await vi.advanceTimersByTimeAsync(1500);
		expect(fixture.standIn.requests).toHaveLength(1);
	});

	it('stops retrying a refused connection when aborted', async () => {
		const closed = fixture.standIn.baseUrl;
		await fixture.standIn.stop();
		const controller = new AbortController();
		const pending = client({ baseUrl: closed, minRetryDelayMs: 60_000, maxRetryDelayMs: 60_000 }).generate('hi', {
			signal: controller.signal,
		});
		setTimeout(() => controller.abort(new Error('cancelled')), 50);
		await expect(pending).rejects.toThrow('cancelled');
	});
});
