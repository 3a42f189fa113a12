import { describe, expect, it } from 'vitest';
import { recentReadiness, type Readiness } from '../../../src/operations/readiness.js';

const READY: Readiness = { ready: true, shards: { 0: 'Ready' }, store: 'answering' };
const DOWN: Readiness = { ready: false, shards: { 0: 'Ready' }, store: 'not answering' };

/** A readiness read the test settles by hand, counting how often it was asked. */
function heldReads() {
	const pending: Array<(answer: Readiness) => void> = [];
	const failing: Array<(error: Error) => void> = [];
	return {
		pending,
		failing,
		read: () =>
			new Promise<Readiness>((resolve, reject) => {
				pending.push(resolve);
				failing.push(reject);
			}),
	};
}

describe('/readyz readiness, at most a second old', () => {
	it('shares one read among callers while it is under way, whatever its length', async () => {
		let clock = 0;
		const reads = heldReads();
		const readiness = recentReadiness(reads.read, 1000, () => clock);
		const early = Array.from({ length: 50 }, () => readiness());
		clock = 5000;
		const late = readiness();
		expect(reads.pending).toHaveLength(1);
		reads.pending[0]?.(READY);
		expect(await Promise.all([...early, late])).toEqual(Array.from({ length: 51 }, () => READY));
	});

	it('answers from the last read within a second of its start, and reads again after', async () => {
		let clock = 0;
		const reads = heldReads();
		const readiness = recentReadiness(reads.read, 1000, () => clock);
		const first = readiness();
		reads.pending[0]?.(READY);
		await first;
		clock = 999;
		expect(await readiness()).toEqual(READY);
		expect(reads.pending).toHaveLength(1);
		clock = 1000;
		const second = readiness();
		expect(reads.pending).toHaveLength(2);
		reads.pending[1]?.(DOWN);
		expect(await second).toEqual(DOWN);
	});

	it('keeps no failed read: the next caller reads again', async () => {
		const reads = heldReads();
		const readiness = recentReadiness(reads.read, 1000, () => 0);
		const failed = readiness();
		reads.failing[0]?.(new Error('no store'));
		await expect(failed).rejects.toThrow('no store');
		const again = readiness();
		expect(reads.pending).toHaveLength(2);
		reads.pending[1]?.(READY);
		expect(await again).toEqual(READY);
	});
});
