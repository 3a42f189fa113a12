import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AskLine } from '../../../src/admission/askLine.js';
import { WaitEstimate } from '../../../src/admission/waitEstimate.js';

describe('the wait estimate', () => {
	it('says nothing before the line has timed an answer', () => {
		expect(new WaitEstimate(2).secondsFor(0)).toBeUndefined();
	});

	it('is the places to wait for times the mean of the latest 20 answers, shared by the slots, in whole seconds', () => {
		fc.assert(
			fc.property(
				fc.array(fc.integer({ min: 0, max: 120_000 }), { minLength: 1, maxLength: 60 }),
				fc.integer({ min: 1, max: 8 }),
				fc.integer({ min: 0, max: 50 }),
				(times, concurrency, ahead) => {
					const estimate = new WaitEstimate(concurrency);
					for (const ms of times) estimate.record(ms);
					const latest = times.slice(-20);
					const mean = latest.reduce((a, b) => a + b, 0) / latest.length;
					expect(estimate.secondsFor(ahead)).toBe(Math.max(1, Math.ceil(((ahead + 1) * mean) / concurrency / 1000)));
				},
			),
		);
	});

	it('never shrinks for an ask further back', () => {
		fc.assert(
			fc.property(fc.array(fc.nat(60_000), { minLength: 1 }), fc.nat(30), (times, ahead) => {
				const estimate = new WaitEstimate(1);
				for (const ms of times) estimate.record(ms);
				expect(estimate.secondsFor(ahead + 1)).toBeGreaterThanOrEqual(estimate.secondsFor(ahead) as number);
			}),
		);
	});

	it('moves as the line moves: an ask two places back hears less once the one ahead of it is answered', () => {
		let now = 0;
		const line = new AskLine({ concurrency: 1, maxWaiting: 5, now: () => now });
		// One answer timed: 4 s.
		const first = line.enter();
		now += 4000;
		first.leave();
		const holder = line.enter();
		line.enter();
		const last = line.enter();
		expect(last.waitedOnEntry).toBe(true);
		expect(line.estimateSeconds(1)).toBe(8);
		// The holder's answer takes 6 s: the mean is now 5 s, and the last ask is next.
		now += 6000;
		holder.leave();
		expect(line.estimateSeconds(0)).toBe(5);
		expect(line.estimateSeconds(0)).toBeLessThan(8);
	});
});
