import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractTokens, isAcceptableToken, MAX_TOKEN_LENGTH } from '../../../src/accounts/extractTokens.js';

const json = (body: unknown, setCookie: string[] = []) => ({
	body: JSON.stringify(body),
	contentType: 'application/json',
	setCookie,
});
const both = { accessToken: 'acc', sessionToken: 'ses' };

describe('extractTokens from a JSON body', () => {
	it('reads snake_case members', () => {
		expect(extractTokens(json({ access_token: 'acc', session_token: 'ses', expires_in: 3600 }))).toEqual(both);
	});

	it('reads camelCase members', () => {
		expect(extractTokens(json({ accessToken: 'acc', sessionToken: 'ses' }))).toEqual(both);
	});

	it('reads token with sessionId, and token with session', () => {
		expect(extractTokens(json({ token: 'acc', sessionId: 'ses' }))).toEqual(both);
		expect(extractTokens(json({ token: 'acc', session: 'ses' }))).toEqual(both);
	});

	it('reads them inside a data member', () => {
		expect(extractTokens(json({ status: 'ok', data: { access_token: 'acc', session_token: 'ses' } }))).toEqual(both);
		expect(extractTokens(json({ data: { accessToken: 'acc', sessionId: 'ses' } }))).toEqual(both);
	});

	it('prefers the top level to data, and the first name of each list', () => {
		const body = { access_token: 'acc', token: 'other', session_token: 'ses', data: { access_token: 'x', session: 'y' } };
		expect(extractTokens(json(body))).toEqual(both);
	});

	it('skips empty strings and values that are not strings', () => {
		expect(extractTokens(json({ access_token: '', token: 'acc', session_token: 42, session: 'ses' }))).toEqual(both);
		expect(extractTokens(json({ access_token: { value: 'acc' }, session_token: 'ses' }))).toBeUndefined();
	});

	it('does not pair a top-level token with one inside data', () => {
		expect(extractTokens(json({ access_token: 'acc', data: { session_token: 'ses' } }))).toBeUndefined();
	});

	it('reads JSON whatever the content type claims', () => {
		expect(extractTokens({ ...json({ token: 'acc', session: 'ses' }), contentType: 'text/plain' })).toEqual(both);
	});

	it('gives up on one token alone', () => {
		expect(extractTokens(json({ access_token: 'acc' }))).toBeUndefined();
		expect(extractTokens(json({ session_token: 'ses' }))).toBeUndefined();
	});
});

describe('extractTokens from cookies', () => {
	it('reads access_token and session_token cookies, attributes and all', () => {
		const setCookie = ['access_token=acc; Path=/; HttpOnly; Secure', 'session_token=ses; Max-Age=3600; SameSite=Lax'];
		expect(extractTokens({ body: '', setCookie })).toEqual(both);
	});

	it('reads accessToken and session cookies', () => {
		expect(extractTokens({ body: '<html></html>', contentType: 'text/html', setCookie: ['accessToken=acc', 'session=ses'] })).toEqual(both);
	});

	it('undoes percent-encoding and quotes, and keeps a value with a malformed escape as sent', () => {
		const setCookie = ['access_token="a%2Bc%3D%3D"; Path=/', 'session=50%25-%zz'];
		expect(extractTokens({ body: '', setCookie })).toEqual({ accessToken: 'a+c==', sessionToken: '50%25-%zz' });
	});

	it('lets a later cookie override an earlier one, and ignores an emptied one', () => {
		const setCookie = ['access_token=old', 'access_token=acc', 'session_token=ses', 'session_token=; Max-Age=0'];
		expect(extractTokens({ body: '', setCookie })).toEqual(both);
	});

	it('ignores other cookies and malformed headers', () => {
		expect(extractTokens({ body: '', setCookie: ['csrf=1', '=nameless', 'novalue', 'access_token=acc'] })).toBeUndefined();
	});

	it('uses cookies when the JSON body has only one token, never mixing the two', () => {
		const response = json({ access_token: 'json-acc' }, ['access_token=acc', 'session_token=ses']);
		expect(extractTokens(response)).toEqual(both);
		expect(extractTokens(json({ access_token: 'json-acc' }, ['session_token=ses']))).toBeUndefined();
	});

	it('prefers a JSON body that has both tokens', () => {
		const response = json({ accessToken: 'acc', sessionToken: 'ses' }, ['access_token=c-acc', 'session_token=c-ses']);
		expect(extractTokens(response)).toEqual(both);
	});
});

describe('extractTokens refuses tokens it could not send back', () => {
	it('refuses a token holding CR LF, from JSON or a cookie, whatever the other source holds', () => {
		expect(extractTokens(json({ access_token: 'acc', session_token: 'ses\r\nX-Injected: 1' }))).toBeUndefined();
		expect(extractTokens({ body: '', setCookie: ['access_token=acc', 'session_token=ses%0D%0AX-Injected%3A%201'] })).toBeUndefined();
		// The pair found decides: a bad JSON pair does not fall back to good cookies.
		expect(extractTokens(json({ access_token: 'acc\n', session_token: 'ses' }, ['access_token=acc', 'session_token=ses']))).toBeUndefined();
	});

	it('refuses spaces, controls and anything past ASCII', () => {
		for (const bad of ['a b', 'tab\there', 'nul\u0000', 'del\u007f', 'café', '🔑', '\u00a0nbsp']) {
			expect(isAcceptableToken(bad)).toBe(false);
			expect(extractTokens(json({ access_token: bad, session_token: 'ses' }))).toBeUndefined();
		}
	});

	it('accepts a token of 8 KiB and refuses one a character longer', () => {
		const longest = 'a'.repeat(MAX_TOKEN_LENGTH);
		expect(MAX_TOKEN_LENGTH).toBe(8192);
		expect(extractTokens(json({ access_token: longest, session_token: 'ses' }))).toEqual({ accessToken: longest, sessionToken: 'ses' });
		expect(extractTokens(json({ access_token: `${longest}a`, session_token: 'ses' }))).toBeUndefined();
		expect(extractTokens({ body: '', setCookie: ['access_token=acc', `session_token=${longest}a`] })).toBeUndefined();
	});
});

// Every visible ASCII character, 0x21 to 0x7E.
const visibleAscii = fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code));
const invisibleOrWide = fc
	.oneof(fc.integer({ min: 0, max: 0x20 }), fc.constant(0x7f), fc.integer({ min: 0x80, max: 0xffff }))
	.map((code) => String.fromCharCode(code));

describe('isAcceptableToken properties', () => {
	it('accepts exactly the visible ASCII strings of 1 to 8192 characters', () => {
		fc.assert(
			fc.property(fc.string({ unit: visibleAscii, minLength: 1, maxLength: MAX_TOKEN_LENGTH }), (token) => {
				expect(isAcceptableToken(token)).toBe(true);
			}),
		);
	});

	it('refuses any token with one character outside visible ASCII, wherever it sits', () => {
		fc.assert(
			fc.property(fc.string({ unit: visibleAscii }), invisibleOrWide, fc.string({ unit: visibleAscii }), (before, bad, after) => {
				expect(isAcceptableToken(before + bad + after)).toBe(false);
			}),
		);
	});

	it('refuses any token longer than 8192 characters', () => {
		fc.assert(
			fc.property(fc.integer({ min: MAX_TOKEN_LENGTH + 1, max: 4 * MAX_TOKEN_LENGTH }), visibleAscii, (length, char) => {
				expect(isAcceptableToken(char.repeat(length))).toBe(false);
			}),
		);
	});

	it('refuses the empty token', () => {
		expect(isAcceptableToken('')).toBe(false);
	});
});

describe('extractTokens properties', () => {
	// What a login may hand over: visible ASCII, as header values need.
	const token = fc.string({ unit: visibleAscii, minLength: 1, maxLength: 200 });

	it('never throws, whatever the input', () => {
		fc.assert(
			fc.property(
				fc.oneof(fc.string({ unit: 'binary' }), fc.json()),
				fc.option(fc.string()),
				fc.array(fc.string({ unit: 'binary' })),
				(body, contentType, setCookie) => {
					extractTokens({ body, contentType, setCookie });
				},
			),
		);
	});

	it('round-trips any pair of acceptable tokens through every JSON shape', () => {
		const shapes = [
			(a: string, s: string) => ({ access_token: a, session_token: s }),
			(a: string, s: string) => ({ accessToken: a, sessionToken: s }),
			(a: string, s: string) => ({ token: a, sessionId: s }),
			(a: string, s: string) => ({ data: { access_token: a, session: s } }),
		];
		fc.assert(
			fc.property(token, token, fc.constantFrom(...shapes), (accessToken, sessionToken, shape) => {
				expect(extractTokens(json(shape(accessToken, sessionToken)))).toEqual({ accessToken, sessionToken });
			}),
		);
	});

	it('round-trips any pair of acceptable tokens through percent-encoded cookies', () => {
		fc.assert(
			fc.property(token, token, (accessToken, sessionToken) => {
				const setCookie = [`access_token=${encodeURIComponent(accessToken)}; Path=/`, `session_token=${encodeURIComponent(sessionToken)}; HttpOnly`];
				expect(extractTokens({ body: 'ok', setCookie })).toEqual({ accessToken, sessionToken });
			}),
		);
	});

	it('never hands over a token outside visible ASCII, whatever the answer holds', () => {
		const anyText = fc.string({ unit: 'binary', minLength: 1 });
		fc.assert(
			fc.property(anyText, anyText, fc.boolean(), (accessToken, sessionToken, asCookies) => {
				const response = asCookies
					? { body: '', setCookie: [`access_token=${encodeURIComponent(accessToken)}`, `session_token=${sessionToken}`] }
					: json({ access_token: accessToken, session_token: sessionToken });
				const tokens = extractTokens(response);
				if (tokens !== undefined) {
					expect(isAcceptableToken(tokens.accessToken)).toBe(true);
					expect(isAcceptableToken(tokens.sessionToken)).toBe(true);
				}
			}),
		);
	});
});
