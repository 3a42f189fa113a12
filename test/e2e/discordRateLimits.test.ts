import { ApplicationCommandOptionType, Routes } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { makeUser, routeRateLimit, type RecordedRequest } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { safeResponse } from '../support/upstreamStandIn.js';

// Unlinked members ask with the service key: no store write stands between the asks and their answers.
// The line is opened wide: this file is about Discord's limits, not Veil's own (see admissionLine.test.ts).
const harness = useHarness({ env: { REQUIRE_LINK: 'false', ASK_CONCURRENCY: '500' } });

function ask(prompt: string) {
	return harness().discord.slashCommand({
		name: 'ask',
		user: makeUser('asker'),
		options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: prompt }],
	});
}

/** The log lines Veil wrote for a wait on a rate limit since `from`, parsed. */
function rateLimitLines(from: number): Array<{ rateLimit: { global: boolean; route: string } }> {
	return harness()
		.logs.slice(from)
		.filter((line) => line.includes('Discord rate limit'))
		.map((line) => JSON.parse(line) as { rateLimit: { global: boolean; route: string } });
}

function requestsTo(method: string, pathPart: string, since: number): RecordedRequest[] {
	return harness()
		.discord.requests.slice(since)
		.filter((request) => request.method === method && request.path.includes(pathPart));
}

describe('answers and the client-side global limit', () => {
	it('answers 120 members at once without holding an answer back for the 50-a-second global limit', async () => {
		const { upstream } = harness();
		// Every generation call answers after the same pause, so the 120 answers are all ready within a moment.
		upstream.setDefaultGeneration((request) => ({
			json: safeResponse(`Answer to: ${(request.json as { contents: Array<{ parts: Array<{ text: string }> }> }).contents[0]?.parts[0]?.text}`),
			delayMs: 300,
		}));
		const logsBefore = harness().logs.length;
		const handles = Array.from({ length: 120 }, (_, n) => ask(`question ${n}`));
		const states = await Promise.all(handles.map((handle) => handle.waitForAnswer(20_000)));
		expect(states.map((state) => state.original?.content).sort()).toEqual(Array.from({ length: 120 }, (_, n) => `Answer to: question ${n}`).sort());
		expect(rateLimitLines(logsBefore)).toEqual([]);
	});

	it('keeps the global limit on requests made with the bot token', async () => {
		const logsBefore = harness().logs.length;
		const rest = harness().bot.client.rest;
		// More than two windows' worth: however the 1 s windows fall, some request has to wait for one.
		const answers = await Promise.all(Array.from({ length: 120 }, () => rest.get(Routes.user('@me'))));
		expect(answers).toHaveLength(120);
		const waits = rateLimitLines(logsBefore);
		expect(waits.length).toBeGreaterThan(0);
		expect(waits.every((line) => line.rateLimit.global)).toBe(true);
	});
});

describe('a 429 from Discord', () => {
	it('on an answer edit is waited out for its retry_after, then the answer lands', async () => {
		const { discord, upstream } = harness();
		upstream.setDefaultGeneration({ json: safeResponse('worth the wait') });
		discord.injectRestFailure(routeRateLimit('PATCH', '/messages/@original', 1));
		const since = discord.requests.length;
		const state = await ask('limited').waitForAnswer(10_000);
		expect(state.original?.content).toBe('worth the wait');
		const edits = requestsTo('PATCH', '/messages/@original', since);
		expect(edits).toHaveLength(2);
		const [refused, retried] = edits;
		expect(refused?.status).toBe(429);
		expect((retried?.at ?? 0) - (refused?.at ?? 0)).toBeGreaterThanOrEqual(1000);
	});

	it('on the interaction callback is waited out too, and the deferral still arrives', async () => {
		const { discord, upstream } = harness();
		upstream.setDefaultGeneration({ json: safeResponse('deferred after a wait') });
		discord.injectRestFailure(routeRateLimit('POST', '/callback', 0.5));
		const since = discord.requests.length;
		const state = await ask('limited callback').waitForAnswer(10_000);
		expect(state.original?.content).toBe('deferred after a wait');
		const [refused, retried] = requestsTo('POST', '/callback', since);
		expect(refused?.status).toBe(429);
		expect([200, 204]).toContain(retried?.status);
		expect((retried?.at ?? 0) - (refused?.at ?? 0)).toBeGreaterThanOrEqual(500);
	});

	it('saying the global limit is reached holds the bot-token routes for its retry_after', async () => {
		const { discord } = harness();
		discord.injectRestFailure({
			method: 'GET',
			pathIncludes: '/users/@me',
			status: 429,
			headers: { 'retry-after': '1', 'x-ratelimit-global': 'true', 'x-ratelimit-scope': 'global' },
			body: { message: 'You are being rate limited.', retry_after: 1, global: true },
		});
		const since = discord.requests.length;
		const rest = harness().bot.client.rest;
		await rest.get(Routes.user('@me'));
		const [refused, retried] = requestsTo('GET', '/users/@me', since);
		expect(refused?.status).toBe(429);
		expect(retried?.status).toBe(200);
		expect((retried?.at ?? 0) - (refused?.at ?? 0)).toBeGreaterThanOrEqual(1000);
	});
});
