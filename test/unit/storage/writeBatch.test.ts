import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { WriteBatch } from '../../../src/storage/writeBatch.js';

interface Item {
	readonly key: string;
	readonly n: number;
}

/** A batch whose writes are recorded, and fail while `failing` is set. */
function recorded(options: { windowMs: number; maxItems: number }) {
	const writes: Item[][] = [];
	const state = { failing: false };
	const batch = new WriteBatch<Item>(async (items) => {
		await new Promise((resolve) => setImmediate(resolve));
		if (state.failing) throw new Error('store down');
		writes.push([...items]);
	}, options);
	return { batch, writes, state };
}

const item = (n: number): Item => ({ key: `k${n}`, n });

describe('WriteBatch', () => {
	it('writes what comes within the window in one call, and each caller learns once it is written', async () => {
		// The window's clock is the test's: on a loaded machine a real 5 ms pause can outlast a 30 ms window.
		vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
		const { batch, writes } = recorded({ windowMs: 30, maxItems: 100 });
		const first = batch.add(item(1));
		await vi.advanceTimersByTimeAsync(29);
		const second = batch.add(item(2));
		expect(writes).toEqual([]);
		await vi.advanceTimersByTimeAsync(1);
		vi.useRealTimers();
		await Promise.all([first, second]);
		expect(writes).toEqual([[item(1), item(2)]]);
		await batch.add(item(3));
		expect(writes).toEqual([[item(1), item(2)], [item(3)]]);
	});

	it('writes a full batch at once, without waiting for the window', async () => {
		const { batch, writes } = recorded({ windowMs: 60_000, maxItems: 3 });
		await Promise.all([1, 2, 3].map((n) => batch.add(item(n))));
		expect(writes).toEqual([[item(1), item(2), item(3)]]);
	});

	it('rejects every caller of a batch that failed, and only theirs', async () => {
		const { batch, writes, state } = recorded({ windowMs: 10, maxItems: 2 });
		state.failing = true;
		const failed = [batch.add(item(1)), batch.add(item(2))];
		state.failing = false;
		const fine = batch.add(item(3));
		state.failing = true;
		const outcomes = await Promise.allSettled(failed);
		expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
		state.failing = false;
		await expect(fine).resolves.toBeUndefined();
		expect(writes).toEqual([[item(3)]]);
	});

	it('lets a read wait for the write of its key, whatever its outcome, and not for others', async () => {
		const { batch, state } = recorded({ windowMs: 30, maxItems: 100 });
		let written = false;
		void batch.add(item(1)).then(() => (written = true));
		await batch.settled('k1');
		expect(written).toBe(true);
		await expect(batch.settled('unknown')).resolves.toBeUndefined();

		state.failing = true;
		const failing = batch.add(item(2));
		failing.catch(() => undefined);
		await expect(batch.settled('k2')).resolves.toBeUndefined();
		await expect(failing).rejects.toThrow('store down');
	});

	it('flushes at once: the open batch without its window, and resolves once every batch in flight is written', async () => {
		const { batch, writes, state } = recorded({ windowMs: 60_000, maxItems: 2 });
		const full = [batch.add(item(1)), batch.add(item(2))];
		const open = batch.add(item(3));
		await batch.flush();
		expect(writes).toEqual([[item(1), item(2)], [item(3)]]);
		await Promise.all([...full, open]);
		await expect(batch.flush()).resolves.toBeUndefined();

		// A batch that fails fails its callers; the flush itself still resolves.
		state.failing = true;
		const failing = batch.add(item(4));
		failing.catch(() => undefined);
		await expect(batch.flush()).resolves.toBeUndefined();
		await expect(failing).rejects.toThrow('store down');
	});

	it('writes every item exactly once, in order, in batches no larger than the bound', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 1, max: 8 }),
				fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 40 }),
				async (maxItems, pauses) => {
					const { batch, writes } = recorded({ windowMs: 2, maxItems });
					const added: Array<Promise<void>> = [];
					for (const [n, pause] of pauses.entries()) {
						added.push(batch.add(item(n)));
						if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
					}
					await Promise.all(added);
					expect(writes.flat()).toEqual(pauses.map((_, n) => item(n)));
					for (const write of writes) expect(write.length).toBeLessThanOrEqual(maxItems);
				},
			),
			{ numRuns: 60 },
		);
	});
});
