import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../../src/generation/upstreamError.js';
import { candidateText } from '../../../src/generation/generationResponse.js';
import type { GenerationClientOptions } from '../../../src/generation/generationClient.js';
import { useGenerationClient } from '../../support/generationClientFixture.js';
import { answerOf, loggable, rejectionOf } from '../../support/errorChecks.js';
import { REAL_SERVICE_EXTRAS, ratingsWith, safeResponse } from '../../support/upstreamStandIn.js';

const fixture = useGenerationClient();
const client = (overrides?: Partial<GenerationClientOptions>) => fixture.client(overrides);

const upstreamError = (promise: Promise<unknown>) => rejectionOf(promise, UpstreamError);

describe('GenerationClient wire format', () => {
	it('posts exactly the documented body to the model path with the key as a query parameter', async () => {
		const answer = await client().generate('What is a "veil"? & ünïcode');
		expect(candidateText(answer)).toBe('Answer to: What is a "veil"? & ünïcode');
		expect(fixture.standIn.requests).toHaveLength(1);
		const [request] = fixture.standIn.requests;
		expect(request?.endpoint).toBe('generate');
		expect(request?.method).toBe('POST');
		expect(request?.path).toBe('/v1beta/models/textmodel-pro:generateContent');
		expect(request?.query).toEqual({ key: fixture.standIn.apiKey });
		expect(request?.headers['content-type']).toBe('application/json');
		expect(request?.json).toEqual({ contents: [{ parts: [{ text: 'What is a "veil"? & ünïcode' }] }] });
		expect(request?.rawBody).toBe(JSON.stringify({ contents: [{ parts: [{ text: 'What is a "veil"? & ünïcode' }] }] }));
		expect(request?.headers.authorization).toBeUndefined();
		expect(request?.headers['x-session-token']).toBeUndefined();
	});

	it('encodes the key and the model, and accepts a base URL with a trailing slash', async () => {
		await fixture.restartStandIn({ apiKey: 'k+y/=&?# é', model: 'text model' });
		await client({ baseUrl: `${fixture.standIn.baseUrl}/` }).generate('hi');
		const [request] = fixture.standIn.requests;
		expect(request?.endpoint).toBe('generate');
		expect(request?.path).toBe('/v1beta/models/text%20model:generateContent');
		expect(request?.query).toEqual({ key: 'k+y/=&?# é' });
	});

	it('sends the linked tokens as a bearer and a session header', async () => {
		await client().generate('hi', { credentials: { accessToken: 'acc-123', sessionToken: 'ses-456' } });
		const [request] = fixture.standIn.requests;
		expect(request?.headers.authorization).toBe('Bearer acc-123');
		expect(request?.headers['x-session-token']).toBe('ses-456');
	});

	it('reuses kept-alive connections across calls, retries and error answers', async () => {
		fixture.standIn.scriptGeneration(
			{ status: 503, body: 'busy' },
			{ json: safeResponse('one') },
			{ status: 400, json: {} },
			{ status: 500, body: 'oops' },
		);
		const generation = client();
		await generation.generate('a');
		await expect(generation.generate('b')).rejects.toBeInstanceOf(UpstreamError);
		await generation.generate('c');
		await generation.generate('d');
		expect(fixture.standIn.requests).toHaveLength(6);
		// undici alternates between two sockets for back-to-back calls; a body left unread would pin one for good
		// and force a new connection per request.
		expect(new Set(fixture.standIn.requests.map((request) => request.remotePort)).size).toBeLessThanOrEqual(2);
	});

	it('logs its URL with the key redacted', () => {
		const url = client().describeUrl();
		expect(url).not.toContain(fixture.standIn.apiKey);
		expect(url).toContain('key=REDACTED');
	});
});

describe('GenerationClient answers', () => {
	it('returns the parsed answer and drops members docs/upstream.md does not list', async () => {
		const body = safeResponse('fine', { extra: { ...REAL_SERVICE_EXTRAS } });
		const candidates = body.candidates as Array<Record<string, unknown>>;
		candidates[0] = { ...candidates[0], citationMetadata: { citations: [] }, avgLogprobs: -0.2 };
		fixture.standIn.scriptGeneration({ json: body });
		const answer = await client().generate('hi');
		expect(answer).toEqual({
			candidates: [{ content: { parts: [{ text: 'fine' }], role: 'model' }, finishReason: 'STOP', index: 0, safetyRatings: ratingsWith() }],
			promptFeedback: { safetyRatings: ratingsWith() },
		});
	});

	it('reports a 200 that is not JSON as upstream_invalid, after retrying it', async () => {
		fixture.standIn.setDefaultGeneration({ body: '<html>oops</html>' });
		const error = await upstreamError(client().generate('hi'));
		expect(error.code).toBe('upstream_invalid');
		expect(error.status).toBe(200);
		expect(answerOf(error)).toBe("The model's service sent an answer Veil couldn't read. Please try again.");
		expect(fixture.standIn.requests).toHaveLength(3);
	});

	it('reports an off-shape body as upstream_invalid', async () => {
		fixture.standIn.setDefaultGeneration({ json: { candidates: 'x' } });
		const error = await upstreamError(client().generate('hi'));
		expect(error.code).toBe('upstream_invalid');
		expect(error.message).toContain('candidates');
	});

	it('refuses a 7.8 MB answer, otherwise valid, as unreadable, and does not ask again', async () => {
		// A huge nested array in a member the schema drops: parsed, it would block the event loop for a second.
		const padding = Array.from({ length: 1_310_000 }, () => [[0]]);
		const body = safeResponse('buried', { extra: { padding } });
		expect(JSON.stringify(body).length).toBeGreaterThan(7_800_000);
		fixture.standIn.setDefaultGeneration({ json: body });
		const error = await upstreamError(client().generate('hi'));
		expect(error.code).toBe('upstream_invalid');
		expect(answerOf(error)).toBe("The model's service sent an answer Veil couldn't read. Please try again.");
		expect(error.message).toContain('over 1048576 bytes');
		// One attempt, read no further than 1 MB: a body over the cap is never asked for again.
		expect(fixture.standIn.requests).toHaveLength(1);
	});

	it('accepts an answer just under the 1 MB cap', async () => {
		const body = safeResponse('roomy', { extra: { padding: 'x'.repeat(1024 * 1024 - 1000) } });
		expect(JSON.stringify(body).length).toBeLessThan(1024 * 1024);
		fixture.standIn.scriptGeneration({ json: body });
		expect(candidateText(await client().generate('hi'))).toBe('roomy');
	});

	it('uses a good answer that follows an unreadable one', async () => {
		fixture.standIn.scriptGeneration({ body: 'not json' });
		expect(candidateText(await client().generate('hi'))).toBe('Answer to: hi');
		expect(fixture.standIn.requests).toHaveLength(2);
	});

	it('maps 401 to upstream_refused without retrying', async () => {
		fixture.standIn.setDefaultGeneration({ status: 401, json: { error: 'expired' } });
		const credentials = { accessToken: 'acc', sessionToken: 'ses' };
		const error = await upstreamError(client().generate('hi', { credentials }));
		expect(error.code).toBe('upstream_refused');
		expect(error.status).toBe(401);
		expect(answerOf(error)).toBe(
			"The model's service refused your linked account. Run /link again to refresh it; your current link is kept until then.",
		);
		expect(fixture.standIn.requests).toHaveLength(1);
	});

	it('refuses a stored link whose token no header can carry, sending nothing and asking for /link', async () => {
		const credentials = { accessToken: 'acc', sessionToken: 'ses\r\nX-Injected: 1' };
		const error = await upstreamError(client().generate('hi', { credentials }));
		expect(error.code).toBe('upstream_refused');
		expect(answerOf(error)).toContain('/link');
		expect(loggable(error)).not.toContain('X-Injected');
		expect(fixture.standIn.requests).toHaveLength(0);
	});

	it('maps a refused API key (403, nothing linked) to upstream_refused without telling the member to /link', async () => {
		const error = await upstreamError(client({ apiKey: 'wrong-key' }).generate('hi'));
		expect(error.code).toBe('upstream_refused');
		expect(error.status).toBe(403);
		expect(answerOf(error)).not.toContain('/link');
		expect(fixture.standIn.requests).toHaveLength(1);
	});

	it('maps another 4xx to upstream_rejected without retrying', async () => {
		fixture.standIn.setDefaultGeneration({ status: 400, json: { error: { message: 'prompt too long' } } });
		const error = await upstreamError(client().generate('hi'));
		expect(error.code).toBe('upstream_rejected');
		expect(error.status).toBe(400);
		expect(answerOf(error)).not.toContain('prompt too long');
		expect(fixture.standIn.requests).toHaveLength(1);
	});
});

describe('GenerationClient secrecy', () => {
	const apiKey = 'CANARY-KEY-é/+&=7c1e';
	const credentials = { accessToken: 'CANARY-ACCESS-93b1', sessionToken: 'CANARY-SESSION-0f4d' };
	const secrets = [apiKey, encodeURIComponent(apiKey), credentials.accessToken, credentials.sessionToken];

	it.each([
		['reset connections', { destroy: true }],
		['503s', { status: 503, body: `overloaded for key=${apiKey}` }],
		['time-outs', { delayMs: 1000 }],
		['a body that is not JSON', { body: `bad ${apiKey}` }],
		['a 401 echoing the key', { status: 401, json: { error: `key ${apiKey} bearer ${credentials.accessToken}` } }],
		['a 400', { status: 400, json: { error: apiKey } }],
	] as const)('keeps the key and the tokens out of errors from %s', async (_name, answer) => {
		await fixture.restartStandIn({ apiKey });
		fixture.standIn.setDefaultGeneration(answer);
		const error = await upstreamError(client({ apiKey, timeoutMs: 200 }).generate('hi', { credentials }));
		const text = loggable(error);
		for (const secret of secrets) expect(text).not.toContain(secret);
		expect(text).not.toContain(fixture.standIn.baseUrl + '/v1beta/models/textmodel-pro:generateContent?key=C');
	});

	it('keeps the key out of errors when nothing listens', async () => {
		const closed = fixture.standIn.baseUrl;
		await fixture.standIn.stop();
		const error = await upstreamError(client({ baseUrl: closed, apiKey }).generate('hi', { credentials }));
		for (const secret of secrets) expect(loggable(error)).not.toContain(secret);
	});
});
