import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemberRate } from '../../../src/admission/memberRate.js';

const T0 = 1_700_000_000_000;

describe('MemberRate', () => {
	it('lets 6 asks through in a minute and names when the 7th may come: a minute after the first', () => {
		const rate = new MemberRate(6);
		for (let i = 0; i < 6; i++) {
			expect(rate.nextAllowedAt('alice', T0 + i * 1000)).toBeUndefined();
			rate.record('alice', T0 + i * 1000);
		}
		expect(rate.nextAllowedAt('alice', T0 + 10_000)).toBe(T0 + 60_000);
		expect(rate.nextAllowedAt('bob', T0 + 10_000)).toBeUndefined();
		expect(rate.nextAllowedAt('alice', T0 + 59_999)).toBe(T0 + 60_000);
		expect(rate.nextAllowedAt('alice', T0 + 60_000)).toBeUndefined();
	});

	it('is a sliding window: a burst at the end of one minute still counts at the start of the next', () => {
		const rate = new MemberRate(2);
		rate.record('alice', T0 + 50_000);
		rate.record('alice', T0 + 59_000);
		expect(rate.nextAllowedAt('alice', T0 + 61_000)).toBe(T0 + 110_000);
	});

	it('0 means no limit', () => {
		const rate = new MemberRate(0);
		for (let i = 0; i < 1000; i++) rate.record('alice', T0);
		expect(rate.nextAllowedAt('alice', T0)).toBeUndefined();
		expect(rate.tracked).toBe(0);
	});

	it('forgets members whose asks are all older than the window', () => {
		const rate = new MemberRate(3);
		for (let i = 0; i < 100; i++) rate.record(`member-${i}`, T0);
		expect(rate.tracked).toBe(100);
		rate.record('late', T0 + 120_000);
		expect(rate.tracked).toBe(1);
	});

	it('property: never more than N asks in any 60 s, never a refusal below N, and the named moment is when one is allowed', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 8 }),
				fc.array(fc.tuple(fc.nat(30_000), fc.constantFrom('a', 'b')), { maxLength: 120 }),
				(perMinute, attempts) => {
					const rate = new MemberRate(perMinute);
					const accepted: Record<string, number[]> = { a: [], b: [] };
					let now = T0;
					for (const [wait, member] of attempts) {
						now += wait;
						const inWindow = (accepted[member] as number[]).filter((at) => at > now - 60_000);
						const next = rate.nextAllowedAt(member, now);
						if (next === undefined) {
							expect(inWindow.length).toBeLessThan(perMinute);
							rate.record(member, now);
							accepted[member]?.push(now);
						} else {
							expect(inWindow.length).toBe(perMinute);
							expect(next).toBeGreaterThan(now);
							expect(next).toBeLessThanOrEqual(now + 60_000);
							// At the named moment the oldest has left the window, and a moment before it has not.
							expect(inWindow.filter((at) => at > next - 60_000).length).toBeLessThan(perMinute);
							expect(inWindow.filter((at) => at > next - 1 - 60_000).length).toBe(perMinute);
						}
					}
				},
			),
			{ numRuns: 500 },
		);
	});
});
