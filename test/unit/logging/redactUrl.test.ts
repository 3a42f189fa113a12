import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../../src/logging/redactUrl.js';

const GENERATION = 'https://generation.test/v1beta/models/textmodel-pro:generateContent';

describe('redactUrl', () => {
	it('replaces the key and keeps the rest', () => {
		expect(redactUrl(`${GENERATION}?key=AIza-secret&alt=json`)).toBe(`${GENERATION}?key=REDACTED&alt=json`);
	});

	it('takes a URL object', () => {
		expect(redactUrl(new URL(`${GENERATION}?key=abc`))).toBe(`${GENERATION}?key=REDACTED`);
	});

	it('redacts every secret name in any case and leaves other parameters alone', () => {
		const url = 'https://x.test/p?KEY=1&Token=2&access_TOKEN=3&PassWord=4&secret=5&Api_Key=6&keyword=7&page=8';
		expect(redactUrl(url)).toBe(
			'https://x.test/p?KEY=REDACTED&Token=REDACTED&access_TOKEN=REDACTED&PassWord=REDACTED&secret=REDACTED' + '&Api_Key=REDACTED&keyword=7&page=8',
		);
	});

	it('redacts a repeated key and a percent-encoded name a server would decode to key', () => {
		const redacted = redactUrl('https://x.test/?key=one&key=two&%6Bey=three');
		expect(redacted).not.toMatch(/one|two|three/);
	});

	it('redacts userinfo and tokens in the fragment', () => {
		const redacted = redactUrl('https://user:hunter2@x.test/cb#access_token=tok123&state=s');
		expect(redacted).not.toMatch(/hunter2|tok123/);
		expect(redacted).toContain('state=s');
	});

	it('returns a URL without secrets exactly as given', () => {
		const url = 'https://x.test/a%20b?q=c%20d&e=f+g';
		expect(redactUrl(url)).toBe(url);
	});

	it('still hides key=... in a string that is not a URL', () => {
		expect(redactUrl('/v1beta/models/m:generateContent?key=abc123&alt=json')).toBe('/v1beta/models/m:generateContent?key=REDACTED&alt=json');
		expect(redactUrl('http://[broken?key=abc123')).not.toContain('abc123');
		expect(redactUrl('request to key=abc123 failed')).not.toContain('abc123');
		expect(redactUrl('')).toBe('');
	});

	it('never throws, whatever the string', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'binary' }), (text) => {
				expect(typeof redactUrl(text)).toBe('string');
			}),
		);
	});

	const names = fc.constantFrom('key', 'KEY', 'Key', 'api_key', 'token', 'access_token', 'password', 'secret');
	const prefixes = fc.constantFrom(GENERATION, '::not a url', '/relative/path');

	it('gives an output that does not depend on the secret at all', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'binary', minLength: 1 }), names, prefixes, (secret, name, prefix) => {
				const redacted = redactUrl(`${prefix}?alt=json&${name}=${encodeURIComponent(secret)}&x=1`);
				expect(redacted).toBe(redactUrl(`${prefix}?alt=json&${name}=placeholder&x=1`));
			}),
		);
	});

	it('never lets a random key through, in a URL or not', () => {
		// The marker keeps a short key from matching the fixed text by chance ("-" is in every URL here).
		const secrets = fc.string({ unit: 'binary', minLength: 1 }).map((random) => `sEcReT${random}`);
		fc.assert(
			fc.property(secrets, names, prefixes, (secret, name, prefix) => {
				const redacted = redactUrl(`${prefix}?alt=json&${name}=${encodeURIComponent(secret)}&x=1`);
				expect(redacted).not.toContain(secret);
				expect(redacted).not.toContain(encodeURIComponent(secret));
				expect(redacted).not.toContain('sEcReT');
			}),
		);
	});
});
