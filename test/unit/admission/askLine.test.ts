import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AskLine, type Ticket } from '../../../src/admission/askLine.js';
import { LineFullError } from '../../../src/admission/admissionErrors.js';

beforeEach(() => {
	vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
	vi.useRealTimers();
});

/** Lets the promise callbacks queued so far run. */
async function settle(): Promise<void> {
	await vi.advanceTimersByTimeAsync(0);
}

function granted(ticket: Ticket): () => boolean {
	let done = false;
	ticket.granted.then(
		() => (done = true),
		() => undefined,
	);
	return () => done;
}

describe('AskLine', () => {
	it('lets `concurrency` asks through at once, without a word about the line', async () => {
		const line = new AskLine({ concurrency: 2, maxWaiting: 5 });
		const positions: number[] = [];
		const tickets = [line.enter(), line.enter()];
		for (const ticket of tickets) ticket.watch((ahead) => positions.push(ahead));
		await Promise.all(tickets.map((t) => t.granted));
		expect(tickets.map((t) => t.waitedOnEntry)).toEqual([false, false]);
		expect(line.holding).toBe(2);
		expect(line.waiting).toBe(0);
		vi.advanceTimersByTime(10_000);
		expect(positions).toEqual([]);
	});

	it('serves the waiting first in, first out', async () => {
		const line = new AskLine({ concurrency: 1, maxWaiting: 5 });
		const first = line.enter();
		const order: string[] = [];
		const waiting = ['a', 'b', 'c'].map((name) => {
			const ticket = line.enter();
			void ticket.granted.then(() => order.push(name));
			return ticket;
		});
		first.leave();
		await settle();
		expect(order).toEqual(['a']);
		waiting[0]?.leave();
		await settle();
		waiting[1]?.leave();
		await settle();
		expect(order).toEqual(['a', 'b', 'c']);
		waiting[2]?.leave();
		expect(line.holding).toBe(0);
	});

	it('turns an ask away at once when ASK_QUEUE_MAX wait, and takes one again when a place frees', () => {
		const line = new AskLine({ concurrency: 1, maxWaiting: 2 });
		line.enter();
		const waiting = [line.enter(), line.enter()];
		expect(() => line.enter()).toThrow(LineFullError);
		expect(line.waiting).toBe(2);
		waiting[0]?.leave();
		expect(line.enter().waitedOnEntry).toBe(true);
	});

	it('with ASK_QUEUE_MAX 0, refuses whenever every slot is taken', () => {
		const line = new AskLine({ concurrency: 1, maxWaiting: 0 });
		const held = line.enter();
		expect(() => line.enter()).toThrow(LineFullError);
		held.leave();
		expect(line.enter().waitedOnEntry).toBe(false);
	});

	it('tells a waiting ask how many wait ahead, at once, then as they move, at most once every 2 s', async () => {
		const line = new AskLine({ concurrency: 1, maxWaiting: 10 });
		const running = line.enter();
		const ahead = [line.enter(), line.enter(), line.enter()];
		const mine = line.enter();
		const heard: Array<[number, number]> = [];
		mine.watch((n) => heard.push([n, Date.now() - 1_000_000]));
		expect(heard).toEqual([[3, 0]]);

		running.leave(); // ahead[0] runs; 2 ahead of mine
		await settle();
		ahead[0]?.leave(); // ahead[1] runs; 1 ahead
		await settle();
		expect(heard).toEqual([[3, 0]]);
		vi.advanceTimersByTime(2000);
		expect(heard).toEqual([
			[3, 0],
			[1, 2000],
		]);
		ahead[1]?.leave();
		ahead[2]?.leave(); // mine runs: no more news
		await settle();
		vi.advanceTimersByTime(10_000);
		expect(heard).toHaveLength(2);
		await mine.granted;
		expect(vi.getTimerCount()).toBe(0);
	});

	it('an abort while waiting leaves the line: the ask rejects with the reason, nothing leaks, those behind move up', async () => {
		const line = new AskLine({ concurrency: 1, maxWaiting: 10 });
		line.enter();
		const controller = new AbortController();
		const aborted = line.enter(controller.signal);
		const behind = line.enter();
		const heard: number[] = [];
		behind.watch((n) => heard.push(n));
		vi.advanceTimersByTime(2000);
		const reason = new Error('shutting down');
		controller.abort(reason);
		await expect(aborted.granted).rejects.toBe(reason);
		expect(line.waiting).toBe(1);
		expect(line.holding).toBe(1);
		expect(heard).toEqual([1, 0]);
		aborted.leave();
		expect(line.holding).toBe(1);
	});

	it('refuses at once with the reason when the signal has already aborted', () => {
		const line = new AskLine({ concurrency: 1, maxWaiting: 10 });
		const reason = new Error('gone');
		expect(() => line.enter(AbortSignal.abort(reason))).toThrow(reason);
		expect(line.holding).toBe(0);
	});

	it("an abort after the turn came changes nothing: the slot is the holder's to give back", async () => {
		const line = new AskLine({ concurrency: 1, maxWaiting: 10 });
		const controller = new AbortController();
		const ticket = line.enter(controller.signal);
		controller.abort();
		await ticket.granted;
		expect(line.holding).toBe(1);
		ticket.leave();
		ticket.leave();
		expect(line.holding).toBe(0);
	});

	it('leaving before the turn came steps out without an unhandled rejection', async () => {
		const line = new AskLine({ concurrency: 1, maxWaiting: 10 });
		const held = line.enter();
		const waiting = line.enter();
		waiting.leave();
		await settle();
		expect(line.waiting).toBe(0);
		held.leave();
		expect(line.holding).toBe(0);
		await expect(waiting.granted).rejects.toThrow(/left the line/);
	});

	it('acquire resolves a release once a slot is free', async () => {
		const line = new AskLine({ concurrency: 1, maxWaiting: 10 });
		const release = await line.acquire();
		const heard: number[] = [];
		const second = line.acquire(undefined, (n) => heard.push(n));
		expect(heard).toEqual([0]);
		release();
		const releaseSecond = await second;
		expect(line.holding).toBe(1);
		releaseSecond();
		expect(line.holding).toBe(0);
	});

	type Step =
		{ kind: 'enter'; abortable: boolean } | { kind: 'leave'; pick: number } | { kind: 'abort'; pick: number } | { kind: 'wait'; ms: number };
	const step: fc.Arbitrary<Step> = fc.oneof(
		fc.record({ kind: fc.constant('enter' as const), abortable: fc.boolean() }),
		fc.record({ kind: fc.constant('leave' as const), pick: fc.nat() }),
		fc.record({ kind: fc.constant('abort' as const), pick: fc.nat() }),
		fc.record({ kind: fc.constant('wait' as const), ms: fc.nat(3000) }),
	);

	it('property: within its bounds, first come first served, no slot idle while someone waits, each hears its true place, nothing left after', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 1, max: 4 }),
				fc.integer({ min: 0, max: 6 }),
				fc.array(step, { maxLength: 80 }),
				async (concurrency, maxWaiting, steps) => {
					const line = new AskLine({ concurrency, maxWaiting });
					interface Entry {
						seq: number;
						ticket: Ticket;
						controller: AbortController;
						abortable: boolean;
						isGranted: () => boolean;
						heard: number[];
					}
					const entries: Entry[] = [];
					const grantOrder: number[] = [];
					let seq = 0;
					for (const s of steps) {
						if (s.kind === 'enter') {
							const controller = new AbortController();
							const waitingBefore = line.waiting;
							const busy = line.holding === concurrency;
							try {
								const ticket = line.enter(s.abortable ? controller.signal : undefined);
								const entry: Entry = { seq: seq++, ticket, controller, abortable: s.abortable, isGranted: granted(ticket), heard: [] };
								ticket.granted.then(
									() => grantOrder.push(entry.seq),
									() => undefined,
								);
								ticket.watch((n) => entry.heard.push(n));
								entries.push(entry);
							} catch (error) {
								expect(error).toBeInstanceOf(LineFullError);
								expect(busy && waitingBefore >= maxWaiting).toBe(true);
							}
						} else if (s.kind === 'leave' && entries.length > 0) {
							entries.splice(s.pick % entries.length, 1)[0]?.ticket.leave();
						} else if (s.kind === 'abort' && entries.length > 0) {
							entries[s.pick % entries.length]?.controller.abort();
						} else if (s.kind === 'wait') {
							await vi.advanceTimersByTimeAsync(s.ms);
						}
						await settle();
						expect(line.holding).toBeLessThanOrEqual(concurrency);
						expect(line.waiting).toBeLessThanOrEqual(maxWaiting);
						if (line.waiting > 0) expect(line.holding).toBe(concurrency);
					}
					// Granted in the order they entered.
					expect([...grantOrder].sort((a, b) => a - b)).toEqual(grantOrder);
					// After the interval, every one still waiting has last heard exactly its place among the waiting.
					await vi.advanceTimersByTimeAsync(2000);
					const stillWaiting = entries.filter((e) => !e.isGranted() && !(e.abortable && e.controller.signal.aborted));
					expect(stillWaiting.length).toBe(line.waiting);
					stillWaiting.forEach((entry, index) => expect(entry.heard.at(-1)).toBe(index));
					for (const entry of entries) entry.ticket.leave();
					await settle();
					expect(line.holding).toBe(0);
					expect(line.waiting).toBe(0);
					expect(vi.getTimerCount()).toBe(0);
				},
			),
			{ numRuns: 150 },
		);
	});
});
