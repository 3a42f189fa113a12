import { describe, expect, it } from 'vitest';
import { sanitizeError, secretScrubber } from '../../../src/logging/sanitizeError.js';

describe('secretScrubber', () => {
	it('removes every occurrence of each secret and the secret parameters of URLs', () => {
		const scrub = secretScrubber(['hunter2-pass', undefined, 'abc']);
		expect(scrub('x hunter2-pass y hunter2-pass GET https://h.test/p?key=k1&q=2 abc')).toBe(
			'x REDACTED y REDACTED GET https://h.test/p?key=REDACTED&q=2 abc',
		);
	});

	it('replaces a longer secret whole before a shorter one inside it', () => {
		expect(secretScrubber(['token', 'token-and-more'])('token-and-more')).toBe('REDACTED');
	});
});

describe('sanitizeError', () => {
	it('keeps the name, the code and a scrubbed message, and drops everything else', () => {
		const original = Object.assign(new Error('failed for s3cr3t-value'), {
			name: 'SocketError',
			code: 'UND_ERR_SOCKET',
			socket: { remoteAddress: '127.0.0.1' },
			body: 'password=s3cr3t-value',
			cause: new Error('s3cr3t-value'),
		});
		const safe = sanitizeError(original, secretScrubber(['s3cr3t-value']));
		expect(safe.name).toBe('SocketError');
		expect(safe.message).toBe('failed for REDACTED');
		expect((safe as Error & { code?: string }).code).toBe('UND_ERR_SOCKET');
		expect(safe).not.toHaveProperty('socket');
		expect(safe).not.toHaveProperty('body');
		expect(safe.cause).toBeUndefined();
		expect(safe.stack?.startsWith('SocketError: failed for REDACTED\n')).toBe(true);
		expect(safe.stack).not.toContain('s3cr3t');
	});

	it('accepts things that are not errors', () => {
		expect(sanitizeError('oops https://h.test/?token=t0k', (text) => text).message).toBe('oops https://h.test/?token=t0k');
		expect(sanitizeError(undefined, (text) => text).message).toBe('undefined');
	});
});
