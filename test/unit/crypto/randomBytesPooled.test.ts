import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { randomBytesPooled } from '../../../src/crypto/randomBytesPooled.js';

describe('randomBytesPooled', () => {
	it('gives each caller the size asked for, across many refills of the pool', () => {
		fc.assert(
			fc.property(fc.array(fc.integer({ min: 0, max: 4096 }), { maxLength: 40 }), (sizes) => {
				for (const size of sizes) expect(randomBytesPooled(size)).toHaveLength(size);
			}),
		);
	});

	it('never hands out the same bytes twice (12-byte IVs, as sealing draws them)', () => {
		const seen = new Set<string>();
		// Over 4096 bytes, so the draws cross several refills of the pool.
		for (let n = 0; n < 2000; n++) seen.add(randomBytesPooled(12).toString('hex'));
		expect(seen.size).toBe(2000);
	});

	it('returns a copy: changing one draw changes no later draw', () => {
		const first = randomBytesPooled(16);
		first.fill(0);
		const later = Array.from({ length: 50 }, () => randomBytesPooled(16));
		expect(later.every((bytes) => !bytes.equals(Buffer.alloc(16)))).toBe(true);
		expect(later.every((bytes) => bytes.buffer !== first.buffer || bytes.byteOffset !== first.byteOffset)).toBe(true);
	});

	it('draws bytes that look random: each bit set about half the time', () => {
		const bytes = Buffer.concat(Array.from({ length: 1000 }, () => randomBytesPooled(10)));
		let ones = 0;
		for (const byte of bytes) for (let bit = 0; bit < 8; bit++) ones += (byte >> bit) & 1;
		// 80,000 bits: the mean is 40,000 and the standard deviation about 141; 1,000 away is over seven of them.
		expect(Math.abs(ones - 40_000)).toBeLessThan(1000);
	});

	it('refuses a size it cannot serve', () => {
		expect(() => randomBytesPooled(-1)).toThrow(RangeError);
		expect(() => randomBytesPooled(4097)).toThrow(RangeError);
		expect(() => randomBytesPooled(1.5)).toThrow(RangeError);
	});
});
