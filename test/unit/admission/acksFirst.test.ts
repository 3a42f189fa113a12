import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AcksFirst } from '../../../src/admission/acksFirst.js';

/** Whether `promise` has settled once the microtasks queued so far have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
	let done = false;
	void promise.then(() => (done = true));
	for (let tick = 0; tick < 5; tick++) await Promise.resolve();
	return done;
}

describe('acknowledgements go before the rest of older asks', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it('lets an acknowledged ask go on at once when no other ask waits for its acknowledgement', async () => {
		const acks = new AcksFirst(5000);
		const acknowledged = acks.arrived();
		acknowledged();
		expect(await settled(acks.turn())).toBe(true);
	});

	it('holds an acknowledged ask while a newer one waits, and lets it go when the last is acknowledged', async () => {
		const acks = new AcksFirst(5000);
		const first = acks.arrived();
		first();
		const second = acks.arrived();
		const third = acks.arrived();
		const turn = acks.turn();
		expect(await settled(turn)).toBe(false);
		second();
		expect(await settled(turn)).toBe(false);
		third();
		expect(await settled(turn)).toBe(true);
	});

	it('counts an ask that ended without an acknowledgement (refused, failed) once, however often it is told', async () => {
		const acks = new AcksFirst(5000);
		const ended = acks.arrived();
		const other = acks.arrived();
		ended();
		ended();
		const turn = acks.turn();
		expect(await settled(turn)).toBe(false);
		other();
		expect(await settled(turn)).toBe(true);
	});

	it('goes on after the longest wait under a load that never pauses', async () => {
		const acks = new AcksFirst(5000);
		acks.arrived();
		const turn = acks.turn();
		await vi.advanceTimersByTimeAsync(4999);
		expect(await settled(turn)).toBe(false);
		await vi.advanceTimersByTimeAsync(1);
		expect(await settled(turn)).toBe(true);
	});

	it('goes on at once when its ask is cancelled while it waits', async () => {
		const acks = new AcksFirst(5000);
		acks.arrived();
		const cancel = new AbortController();
		const turn = acks.turn(cancel.signal);
		expect(await settled(turn)).toBe(false);
		cancel.abort();
		expect(await settled(turn)).toBe(true);
	});
});
