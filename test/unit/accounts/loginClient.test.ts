import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoginError } from '../../../src/accounts/loginError.js';
import { LoginClient, type LoginClientOptions } from '../../../src/accounts/loginClient.js';
import { answerOf, loggable, rejectionOf } from '../../support/errorChecks.js';
import { loginResponse, UpstreamStandIn, type LoginShape, type ScriptedAnswer } from '../../support/upstreamStandIn.js';
import { startFloodServer } from '../../support/floodServer.js';

let standIn: UpstreamStandIn;
const clients: LoginClient[] = [];

beforeEach(async () => {
	standIn = await UpstreamStandIn.start({ pathPrefix: 'acme' });
});

afterEach(async () => {
	await Promise.all(clients.splice(0).map((client) => client.close()));
	await standIn.stop();
});

function client(overrides: Partial<LoginClientOptions> = {}): LoginClient {
	const created = new LoginClient({ authBaseUrl: standIn.authBaseUrl, pathPrefix: standIn.pathPrefix, ...overrides });
	clients.push(created);
	return created;
}

const loginError = (promise: Promise<unknown>) => rejectionOf(promise, LoginError);

const tokens = { accessToken: 'acc-1', sessionToken: 'ses-1' };

describe('LoginClient wire format', () => {
	it('posts the form to the prefixed login path, email and password round-tripping exactly', async () => {
		const email = 'first+tag@example.com';
		const password = 'p&ss=w rd+%20 ü';
		standIn.addAccount(email, password, 'json-snake', tokens);
		expect(await client().login(email, password)).toEqual(tokens);
		expect(standIn.requests).toHaveLength(1);
		const [request] = standIn.requests;
		expect(request?.endpoint).toBe('login');
		expect(request?.method).toBe('POST');
		expect(request?.path).toBe('/acme/api/auth/login');
		expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
		// Form encoding: a space is "+", so a literal "+" must be "%2B".
		expect(request?.rawBody).toBe('username=first%2Btag%40example.com&password=p%26ss%3Dw+rd%2B%2520+%C3%BC');
		expect(request?.form).toEqual({ username: email, password });
	});

	it('accepts a trailing slash on the base and slashes around the prefix', async () => {
		standIn.addAccount('a@example.com', 'pw', 'json-camel', tokens);
		const login = client({ authBaseUrl: `${standIn.authBaseUrl}/`, pathPrefix: '/acme/' });
		expect(await login.login('a@example.com', 'pw')).toEqual(tokens);
	});

	it.each(['json-snake', 'json-camel', 'json-token-sessionId', 'json-data', 'cookies'] as const)(
		'reads the tokens of a %s answer',
		async (shape: LoginShape) => {
			standIn.addAccount('a@example.com', 'pw', shape, tokens);
			expect(await client().login('a@example.com', 'pw')).toEqual(tokens);
		},
	);
});

describe('LoginClient failures', () => {
	it.each([401, 403])('maps %i to login_invalid_credentials', async (status) => {
		standIn.scriptLogin({ status, json: { error: 'nope' } });
		const error = await loginError(client().login('a@example.com', 'pw'));
		expect(error.code).toBe('login_invalid_credentials');
		expect(answerOf(error)).toBe("That email and password weren't accepted. Your earlier link, if any, is unchanged.");
	});

	it('maps a wrong password to login_invalid_credentials', async () => {
		standIn.addAccount('a@example.com', 'right');
		expect((await loginError(client().login('a@example.com', 'wrong'))).code).toBe('login_invalid_credentials');
	});

	it.each<[string, (() => string) | undefined, number]>([
		['30', () => '30', 30],
		['1', () => '1', 1],
		['0', () => '0', 1],
		['a date two minutes ahead', () => new Date(Date.now() + 120_000).toUTCString(), 120],
		['soon', () => 'soon', 60],
		['absent', undefined, 60],
	])('maps 429 with Retry-After %s to login_rate_limited', async (_name, retryAfter, seconds) => {
		standIn.scriptLogin({ status: 429, headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter() } });
		const error = await loginError(client().login('a@example.com', 'pw'));
		expect(error.code).toBe('login_rate_limited');
		// An HTTP date has a one-second resolution and is read a moment later.
		expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(seconds - 1);
		expect(error.retryAfterSeconds).toBeLessThanOrEqual(seconds);
		expect(answerOf(error)).toBe(
			`Too many login attempts. Please wait about ${error.retryAfterSeconds} second${error.retryAfterSeconds === 1 ? '' : 's'} and try again.`,
		);
	});

	it.each<[string, ScriptedAnswer]>([
		['500', { status: 500, body: 'internal error: stack trace here' }],
		['503', { status: 503 }],
		['a reset connection', { destroy: true }],
		['no answer in time', { delayMs: 1000 }],
		['a stalled body', { stallBodyMs: 1000, json: { access_token: 'a', session_token: 's' } }],
	])('maps %s to login_unavailable, with exactly one request', async (_name, answer) => {
		standIn.setDefaultLogin(answer);
		const error = await loginError(client({ timeoutMs: 200 }).login('a@example.com', 'pw'));
		expect(error.code).toBe('login_unavailable');
		expect(answerOf(error)).toBe("The account service isn't answering right now; nothing was changed. Please try again later.");
		expect(answerOf(error)).not.toContain('stack trace');
		expect(standIn.requests).toHaveLength(1);
	});

	it('maps a refused connection to login_unavailable', async () => {
		const closed = standIn.authBaseUrl;
		await standIn.stop();
		const error = await loginError(client({ authBaseUrl: closed }).login('a@example.com', 'pw'));
		expect(error.code).toBe('login_unavailable');
		standIn = await UpstreamStandIn.start({ pathPrefix: 'acme' });
	});

	it.each<[string, ScriptedAnswer]>([
		['a 200 without tokens', { json: { ok: true } }],
		['a 200 with only the access token', { json: { access_token: 'a' } }],
		['a 200 that is not JSON and sets no cookie', { body: '<html>Welcome!</html>' }],
		['a redirect', { status: 302, headers: { location: '/login?error=1' } }],
		['a 404', { status: 404, body: 'no such page' }],
	])('maps %s to login_unreadable', async (_name, answer) => {
		standIn.scriptLogin(answer);
		const error = await loginError(client().login('a@example.com', 'pw'));
		expect(error.code).toBe('login_unreadable');
		expect(answerOf(error)).not.toMatch(/Welcome|no such page/);
		expect(standIn.requests).toHaveLength(1);
	});

	it.each<[string, ScriptedAnswer]>([
		['a session token holding CR LF', { json: { access_token: 'acc', session_token: 'ses\r\nX-Injected: 1' } }],
		['a cookie token holding CR LF', { json: {}, headers: { 'set-cookie': ['access_token=acc', 'session_token=s%0D%0Ab'] } }],
		['an access token of 8 KiB and one byte', { json: { access_token: 'a'.repeat(8193), session_token: 'ses' } }],
		['a token with a space', { json: { access_token: 'acc one', session_token: 'ses' } }],
		['a token past ASCII', { json: { access_token: 'accé', session_token: 'ses' } }],
	])('refuses %s as login_unreadable', async (_name, answer) => {
		standIn.scriptLogin(answer);
		const error = await loginError(client().login('a@example.com', 'pw'));
		expect(error.code).toBe('login_unreadable');
		expect(answerOf(error)).toBe("The account service answered in a way Veil couldn't read, so nothing was changed. Please try again later.");
	});

	it('accepts tokens of 8 KiB', async () => {
		const long = { accessToken: 'a'.repeat(8192), sessionToken: 's'.repeat(8192) };
		standIn.scriptLogin(loginResponse('json-camel', long));
		expect(await client().login('a@example.com', 'pw')).toEqual(long);
	});

	it.each([
		['sent chunked', false],
		['with its length declared', true],
	])('stops reading a login answer of megabytes %s, and calls it unreadable', async (_name, contentLength) => {
		// Valid JSON holding both tokens: read whole, it would link the account.
		const totalBytes = 16 * 1024 * 1024;
		const flood = await startFloodServer({ head: '{"access_token":"acc","session_token":"ses","pad":"', tail: '"}', totalBytes, contentLength });
		try {
			const error = await loginError(client({ authBaseUrl: flood.url }).login('a@example.com', 'pw'));
			expect(error.code).toBe('login_unreadable');
			const [sent] = await flood.floods();
			expect(sent?.finished).toBe(false);
			expect(sent?.bytesWritten).toBeLessThan(totalBytes);
		} finally {
			await flood.stop();
		}
	});

	it('reads an answer just under 64 KiB', async () => {
		standIn.scriptLogin({ json: { access_token: 'acc', session_token: 'ses', pad: 'x'.repeat(64 * 1024 - 100) } });
		expect(await client().login('a@example.com', 'pw')).toEqual({ accessToken: 'acc', sessionToken: 'ses' });
	});

	it('rejects with the reason of an aborted signal', async () => {
		standIn.setDefaultLogin({ hang: true });
		const controller = new AbortController();
		const pending = client().login('a@example.com', 'pw', { signal: controller.signal });
		await standIn.waitForRequests(1);
		controller.abort(new Error('member left'));
		await expect(pending).rejects.toThrow('member left');
		await expect(client().login('a@example.com', 'pw', { signal: controller.signal })).rejects.toThrow('member left');
		expect(standIn.requests).toHaveLength(1);
	});
});

describe('LoginClient secrecy', () => {
	const email = 'canary.EMAIL+7f3a@example.com';
	const password = 'CANARY-PASS w/ &=+ 51be';
	const secrets = [email, password, encodeURIComponent(email), encodeURIComponent(password)];

	it.each<[string, ScriptedAnswer]>([
		['401', { status: 401, json: { error: `bad password ${password} for ${email}` } }],
		['429', { status: 429, body: password }],
		['500', { status: 500, body: `username=${encodeURIComponent(email)}` }],
		['a reset connection', { destroy: true }],
		['a time-out', { delayMs: 1000 }],
		['a 200 without tokens', { json: { echo: { email, password } } }],
		['a 418', { status: 418, json: { password } }],
	])('keeps the email and password out of the error from %s', async (_name, answer) => {
		standIn.scriptLogin(answer);
		const error = await loginError(client({ timeoutMs: 200 }).login(email, password));
		for (const secret of secrets) expect(loggable(error)).not.toContain(secret);
	});

	it('still reads a good login answer for that account', async () => {
		standIn.scriptLogin(loginResponse('cookies', tokens));
		expect(await client().login(email, password)).toEqual(tokens);
	});
});
