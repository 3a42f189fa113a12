import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SealError } from '../../../src/crypto/sealError.js';
import { generateEncryptionKey, parseEncryptionKey } from '../../../src/crypto/sealing.js';
import { openTokens, sealTokens } from '../../../src/accounts/sealTokens.js';

const key = parseEncryptionKey(generateEncryptionKey());
const otherKey = parseEncryptionKey(generateEncryptionKey());
const tokens = { accessToken: 'access-abc.123', sessionToken: 'session-ü-😀' };
const userId = '123456789012345678';

function decoded(sealed: string): { version: string; payload: Buffer; ivLength: number; tagLength: number } {
	const [version, ...parts] = sealed.split('.');
	const buffers = parts.map((part) => Buffer.from(part, 'base64url'));
	const [iv, tag] = buffers as [Buffer, Buffer];
	return { version: version!, payload: Buffer.concat(buffers), ivLength: iv.length, tagLength: tag.length };
}

function encoded(version: string, payload: Buffer, ivLength: number, tagLength: number): string {
	const cuts = [0, ivLength, ivLength + tagLength, payload.length];
	const parts = [0, 1, 2].map((i) => payload.subarray(cuts[i], cuts[i + 1]).toString('base64url'));
	return [version, ...parts].join('.');
}

function sealError(run: () => unknown): SealError {
	try {
		run();
	} catch (error) {
		expect(error).toBeInstanceOf(SealError);
		return error as SealError;
	}
	throw new Error('expected a SealError');
}

describe('sealTokens / openTokens', () => {
	it('round-trips, in the v1 format with a 12-byte IV and a 16-byte tag', () => {
		const sealed = sealTokens(tokens, userId, key);
		expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
		expect(openTokens(sealed, userId, key)).toEqual(tokens);
		expect(sealed).not.toContain('access');
	});

	it('round-trips any tokens and user id', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'binary' }), fc.string(), fc.string({ unit: 'binary' }), (accessToken, sessionToken, id) => {
				const sealed = sealTokens({ accessToken, sessionToken }, id, key);
				expect(openTokens(sealed, id, key)).toEqual({ accessToken, sessionToken });
			}),
		);
	});

	it('keeps only the two tokens', () => {
		const extra = { ...tokens, password: 'hunter2' };
		expect(openTokens(sealTokens(extra, userId, key), userId, key)).toEqual(tokens);
	});

	it('seals the same input differently each time', () => {
		const seals = new Set(Array.from({ length: 20 }, () => sealTokens(tokens, userId, key)));
		expect(seals.size).toBe(20);
		expect(new Set([...seals].map((sealed) => sealed.split('.')[1])).size).toBe(20);
	});

	it('does not open for another user id', () => {
		const sealed = sealTokens(tokens, userId, key);
		for (const other of ['123456789012345679', `${userId} `, '', userId.slice(1)]) {
			expect(sealError(() => openTokens(sealed, other, key)).message).toMatch(/authentication failed/);
		}
	});

	it('does not open with another key', () => {
		const sealed = sealTokens(tokens, userId, key);
		expect(sealError(() => openTokens(sealed, userId, otherKey)).message).toMatch(/authentication failed/);
	});

	it('does not open with any single bit of the IV, tag or ciphertext flipped', () => {
		const sealed = sealTokens(tokens, userId, key);
		const { version, payload, ivLength, tagLength } = decoded(sealed);
		fc.assert(
			fc.property(fc.nat(payload.length * 8 - 1), (bit) => {
				const altered = Buffer.from(payload);
				altered[bit >> 3]! ^= 1 << (bit & 7);
				const error = sealError(() => openTokens(encoded(version, altered, ivLength, tagLength), userId, key));
				expect(error.message).toMatch(/authentication failed/);
			}),
			{ numRuns: payload.length * 8 },
		);
	});

	it('rejects every truncation', () => {
		const sealed = sealTokens(tokens, userId, key);
		for (let length = 0; length < sealed.length; length++) {
			sealError(() => openTokens(sealed.slice(0, length), userId, key));
		}
	});

	it('rejects a spare-bit respelling of a part', () => {
		const sealed = sealTokens(tokens, userId, key);
		const [version, iv, tag, ciphertext] = sealed.split('.') as [string, string, string, string];
		// 16 bytes take 22 characters, the last of which carries 4 spare bits: flipping one keeps the same bytes.
		const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
		const respelled = tag.slice(0, -1) + alphabet[alphabet.indexOf(tag.at(-1)!) ^ 1]!;
		expect(respelled).not.toBe(tag);
		expect(Buffer.from(respelled, 'base64url')).toEqual(Buffer.from(tag, 'base64url'));
		sealError(() => openTokens([version, iv, respelled, ciphertext].join('.'), userId, key));
	});

	it('names an unknown version and a malformed string', () => {
		const [, ...rest] = sealTokens(tokens, userId, key).split('.');
		const v2 = ['v2', ...rest].join('.');
		expect(sealError(() => openTokens(v2, userId, key)).message).toMatch(/unknown format version v2/);
		const parts = rest.join('.');
		for (const garbage of ['', 'v1', 'v1...', 'v1.a.b.c', `v1.${parts}.x`, `V1.${parts}`, `v1.${rest.join('+')}`]) {
			expect(sealError(() => openTokens(garbage, userId, key)).message).toMatch(/malformed/);
		}
	});

	it('never says the key or the tokens when it fails', () => {
		const sealed = sealTokens(tokens, userId, key);
		const attempts = [() => openTokens(sealed, 'x', key), () => openTokens(sealed, userId, otherKey), () => openTokens('v1.x', userId, key)];
		const secrets = ['base64', 'hex', 'base64url'].map((encoding) => key.toString(encoding as BufferEncoding));
		secrets.push(tokens.accessToken, tokens.sessionToken);
		for (const attempt of attempts) {
			const error = sealError(attempt);
			const said = `${error.message} ${String(error.cause ?? '')}`;
			for (const secret of secrets) {
				expect(said).not.toContain(secret);
			}
		}
	});

	it('throws only SealError for any string', () => {
		const sealed = sealTokens(tokens, userId, key);
		const mangled = fc.oneof(
			fc.string({ unit: 'binary' }),
			fc.array(fc.stringMatching(/^[A-Za-z0-9_-]{0,30}$/), { maxLength: 5 }).map((parts) => ['v1', ...parts].join('.')),
			fc
				.tuple(fc.nat(sealed.length), fc.nat(sealed.length), fc.string({ maxLength: 3 }))
				.map(([from, to, insert]) => sealed.slice(0, Math.min(from, to)) + insert + sealed.slice(Math.max(from, to))),
		);
		fc.assert(
			fc.property(mangled, (input) => {
				fc.pre(input !== sealed);
				sealError(() => openTokens(input, userId, key));
			}),
		);
	});

	it('refuses a key of the wrong size outright', () => {
		expect(() => sealTokens(tokens, userId, randomBytes(16))).toThrow(RangeError);
		expect(() => openTokens('v1.a.b.c', userId, randomBytes(31))).toThrow(RangeError);
	});

	it('refuses a user id with a lone surrogate', () => {
		expect(() => sealTokens(tokens, '\ud800', key)).toThrow(TypeError);
	});
});

describe('parseEncryptionKey / generateEncryptionKey', () => {
	const help =
		'TOKEN_ENCRYPTION_KEY must be 32 random bytes in base64 (44 characters); ' + 'make one with `npm run keygen` or `openssl rand -base64 32`';

	it('generates 44 base64 characters of 32 random bytes', () => {
		const generated = generateEncryptionKey();
		expect(generated).toMatch(/^[A-Za-z0-9+/]{43}=$/);
		expect(parseEncryptionKey(generated)).toEqual(Buffer.from(generated, 'base64'));
		expect(parseEncryptionKey(generated)).toHaveLength(32);
		expect(generateEncryptionKey()).not.toBe(generated);
	});

	it('accepts surrounding whitespace and a missing pad', () => {
		const generated = generateEncryptionKey();
		expect(parseEncryptionKey(` ${generated}\n`)).toHaveLength(32);
		expect(parseEncryptionKey(generated.slice(0, -1))).toHaveLength(32);
	});

	it.each([
		['31 bytes', randomBytes(31).toString('base64')],
		['33 bytes', randomBytes(33).toString('base64')],
		['16 bytes', randomBytes(16).toString('base64')],
		['hex', randomBytes(32).toString('hex')],
		['base64url', `${'-_'.repeat(21)}A=`],
		['not base64', `${'!'.repeat(43)}=`],
		['empty', ''],
		['64 bytes', randomBytes(64).toString('base64')],
	])('rejects %s without repeating it', (_name, value) => {
		expect(() => parseEncryptionKey(value)).toThrow(help);
		try {
			parseEncryptionKey(value);
		} catch (error) {
			expect(error).not.toBeInstanceOf(SealError);
			if (value !== '') expect((error as Error).message).not.toContain(value);
		}
	});
});
