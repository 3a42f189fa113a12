import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DailyLimit, nextUtcMidnight, utcDay, type Counter } from '../../../src/admission/dailyLimit.js';
import { DailyLimitError } from '../../../src/admission/admissionErrors.js';
import { answerOf } from '../../support/errorChecks.js';

class CountingCounter implements Counter {
	readonly counts = new Map<string, number>();
	readonly calls: Array<{ key: string; expiresAt: number }> = [];

	async increment(key: string, expiresAt: number): Promise<number> {
		this.calls.push({ key, expiresAt });
		const next = (this.counts.get(key) ?? 0) + 1;
		this.counts.set(key, next);
		return next;
	}
}

const NOON = Date.UTC(2026, 10, 23, 12, 0, 0);
const base = { guildId: 'g1', memberId: 'm1', limit: 3, exempt: false, now: NOON };

describe('utcDay and nextUtcMidnight', () => {
	it('name the UTC day and its end', () => {
		expect(utcDay(NOON)).toBe('2026-11-23');
		expect(nextUtcMidnight(NOON)).toBe(Date.UTC(2026, 10, 24));
		expect(nextUtcMidnight(Date.UTC(2026, 10, 24))).toBe(Date.UTC(2026, 10, 25));
		expect(utcDay(Date.UTC(2026, 10, 24) - 1)).toBe('2026-11-23');
	});

	it('property: the reset is the first moment of the next day', () => {
		fc.assert(
			fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (now) => {
				const reset = nextUtcMidnight(now);
				expect(reset).toBeGreaterThan(now);
				expect(reset - now).toBeLessThanOrEqual(86_400_000);
				expect(utcDay(reset - 1)).toBe(utcDay(now));
				expect(utcDay(reset)).not.toBe(utcDay(now));
			}),
		);
	});
});

describe('DailyLimit', () => {
	it('lets `limit` asks a day through, then refuses naming the limit and the next UTC midnight', async () => {
		const counter = new CountingCounter();
		const limit = new DailyLimit(counter);
		for (let i = 0; i < 3; i++) await limit.count(base);
		const refusal = await limit.count(base).catch((error: unknown) => error);
		expect(refusal).toBeInstanceOf(DailyLimitError);
		expect((refusal as DailyLimitError).resetsAt).toBe(Date.UTC(2026, 10, 24));
		expect(answerOf(refusal as DailyLimitError)).toBe(
			`You've reached this server's limit of 3 questions a day. It resets <t:${Date.UTC(2026, 10, 24) / 1000}:R>.`,
		);
	});

	it('counts each member, each server and each UTC day apart', async () => {
		const limit = new DailyLimit(new CountingCounter());
		for (let i = 0; i < 3; i++) await limit.count(base);
		await limit.count({ ...base, memberId: 'm2' });
		await limit.count({ ...base, guildId: 'g2' });
		await limit.count({ ...base, now: Date.UTC(2026, 10, 24, 0, 0, 0) });
		await expect(limit.count(base)).rejects.toBeInstanceOf(DailyLimitError);
	});

	it('does not touch the store for exempt members or without a limit', async () => {
		const counter = new CountingCounter();
		const limit = new DailyLimit(counter);
		for (let i = 0; i < 10; i++) {
			await limit.count({ ...base, exempt: true });
			await limit.count({ ...base, limit: 0 });
			await limit.count({ ...base, limit: undefined });
		}
		expect(counter.calls).toEqual([]);
	});

	it('has the store forget a count after its day is over', async () => {
		const counter = new CountingCounter();
		await new DailyLimit(counter).count(base);
		expect(counter.calls[0]?.expiresAt).toBeGreaterThan(Date.UTC(2026, 10, 24));
		expect(counter.calls[0]?.expiresAt).toBeLessThan(Date.UTC(2026, 10, 25));
	});

	it('property: out of any number of asks in a day, exactly `limit` get through', async () => {
		await fc.assert(
			fc.asyncProperty(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 40 }), async (max, asks) => {
				const limit = new DailyLimit(new CountingCounter());
				const results = await Promise.all(
					Array.from({ length: asks }, (_, i) =>
						limit.count({ ...base, limit: max, now: NOON + i }).then(
							() => true,
							() => false,
						),
					),
				);
				expect(results.filter(Boolean).length).toBe(Math.min(max, asks));
			}),
		);
	});
});
