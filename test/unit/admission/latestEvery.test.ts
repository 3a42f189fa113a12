import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LatestEvery } from '../../../src/admission/latestEvery.js';

beforeEach(() => {
	vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
	vi.useRealTimers();
});

function recorder() {
	const seen: Array<{ value: number; at: number }> = [];
	return { seen, deliver: (value: number) => seen.push({ value, at: Date.now() }) };
}

describe('LatestEvery', () => {
	it('passes the first value on at once', () => {
		const { seen, deliver } = recorder();
		new LatestEvery(2000, deliver).push(7);
		expect(seen).toEqual([{ value: 7, at: 1_000_000 }]);
	});

	it('holds changes inside the interval and passes on only the newest, when the interval ends', () => {
		const { seen, deliver } = recorder();
		const updates = new LatestEvery(2000, deliver);
		updates.push(9);
		vi.advanceTimersByTime(500);
		updates.push(8);
		vi.advanceTimersByTime(500);
		updates.push(7);
		expect(seen.map((s) => s.value)).toEqual([9]);
		vi.advanceTimersByTime(1000);
		expect(seen).toEqual([
			{ value: 9, at: 1_000_000 },
			{ value: 7, at: 1_002_000 },
		]);
	});

	it('says nothing when the value came back to what was last passed on', () => {
		const { seen, deliver } = recorder();
		const updates = new LatestEvery(2000, deliver);
		updates.push(3);
		updates.push(2);
		updates.push(3);
		vi.advanceTimersByTime(5000);
		updates.push(3);
		expect(seen.map((s) => s.value)).toEqual([3]);
	});

	it('passes nothing on after stop, not even what was pending', () => {
		const { seen, deliver } = recorder();
		const updates = new LatestEvery(2000, deliver);
		updates.push(3);
		updates.push(2);
		updates.stop();
		vi.advanceTimersByTime(5000);
		updates.push(1);
		expect(seen.map((s) => s.value)).toEqual([3]);
		expect(vi.getTimerCount()).toBe(0);
	});

	it('property: deliveries are at least an interval apart, never repeat, and end on the newest value', () => {
		fc.assert(
			fc.property(fc.array(fc.tuple(fc.nat(3000), fc.integer({ min: 0, max: 5 })), { minLength: 1, maxLength: 60 }), (pushes) => {
				vi.setSystemTime(1_000_000);
				const { seen, deliver } = recorder();
				const updates = new LatestEvery(2000, deliver);
				for (const [wait, value] of pushes) {
					vi.advanceTimersByTime(wait);
					updates.push(value);
				}
				vi.advanceTimersByTime(2000);
				for (let i = 1; i < seen.length; i++) {
					expect((seen[i] as { at: number }).at - (seen[i - 1] as { at: number }).at).toBeGreaterThanOrEqual(2000);
					expect(seen[i]?.value).not.toBe(seen[i - 1]?.value);
				}
				expect(seen.at(-1)?.value).toBe(pushes.at(-1)?.[1]);
				updates.stop();
			}),
		);
	});
});
