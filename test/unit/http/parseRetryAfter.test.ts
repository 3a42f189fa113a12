import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRetryAfterMs } from '../../../src/http/parseRetryAfter.js';

const now = Date.parse('2025-03-01T12:00:00Z');

describe('parseRetryAfterMs', () => {
	it('reads delay-seconds', () => {
		expect(parseRetryAfterMs('120', now)).toBe(120_000);
		expect(parseRetryAfterMs(' 0 ', now)).toBe(0);
		expect(parseRetryAfterMs('1.5', now)).toBe(1500);
	});

	it('reads an HTTP date, a past one as no wait', () => {
		expect(parseRetryAfterMs('Sat, 01 Mar 2025 12:00:30 GMT', now)).toBe(30_000);
		expect(parseRetryAfterMs('Sat, 01 Mar 2025 11:00:00 GMT', now)).toBe(0);
	});

	it('takes the first of repeated headers', () => {
		expect(parseRetryAfterMs(['5', '60'], now)).toBe(5000);
	});

	it('gives undefined for absent or unreadable values', () => {
		for (const value of [undefined, null, '', '  ', 'soon', '-5', '1e3', 'Tuesday-ish', []]) {
			expect(parseRetryAfterMs(value, now)).toBeUndefined();
		}
	});

	it('never throws and never returns a negative or non-finite wait', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'binary' }), (value) => {
				const ms = parseRetryAfterMs(value, now);
				if (ms !== undefined) expect(Number.isFinite(ms) && ms >= 0).toBe(true);
			}),
		);
	});
});
