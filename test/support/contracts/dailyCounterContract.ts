import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import { openAtomicStore as openStore } from '../../../src/storage/openStorage.js';

const run = promisify(execFile);
const silent = createLogger('silent');

async function countInChildProcess(storeUrl: string, namespace: string, key: string, times: number): Promise<number[]> {
	const { stdout } = await run(process.execPath, ['--import', 'tsx', 'test/support/counterProcess.ts', storeUrl, namespace, key, String(times)], {
		timeout: 20_000,
	});
	return JSON.parse(stdout) as number[];
}

/** Counters on any backend (test/unit/storage/dailyCounter.test.ts runs it on SQLite, test/services/ on Redis). */
export function dailyCounterContract(makeUrl: () => string): void {
	it('two processes adding at once to one counter each get counts no one else got, 1 to N with none missing', async () => {
		const url = makeUrl();
		const namespace = `test-${randomUUID()}`;
		// The file (or the key space) exists before both start, so neither races the other to create the table.
		await (await openStore(url, silent, { namespace })).close();
		const [first, second] = await Promise.all([countInChildProcess(url, namespace, 'k', 40), countInChildProcess(url, namespace, 'k', 40)]);
		const all = [...(first ?? []), ...(second ?? [])].sort((a, b) => a - b);
		expect(all).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
	});

	it('keeps counters apart by key and by namespace, and past its expiry a counter starts again', async () => {
		const url = makeUrl();
		const namespace = `test-${randomUUID()}`;
		const store = await openStore(url, silent, { namespace });
		const other = await openStore(url, silent, { namespace: `${namespace}-other` });
		try {
			const later = Date.now() + 60_000;
			expect(await store.increment('a', later)).toBe(1);
			expect(await store.increment('a', later)).toBe(2);
			expect(await store.increment('b', later)).toBe(1);
			expect(await other.increment('a', later)).toBe(1);
			const soon = Date.now() + 50;
			await store.increment('short', soon);
			await store.increment('short', soon);
			await new Promise((resolve) => setTimeout(resolve, 120));
			expect(await store.readCounts(['short'])).toEqual([0]);
			expect(await store.increment('short', Date.now() + 60_000)).toBe(1);
		} finally {
			await Promise.all([store.close(), other.close()]);
		}
	});

	it('reads many counters as they stand in one call, 0 for one never counted, within its namespace', async () => {
		const url = makeUrl();
		const namespace = `test-${randomUUID()}`;
		const store = await openStore(url, silent, { namespace });
		const other = await openStore(url, silent, { namespace: `${namespace}-other` });
		try {
			const later = Date.now() + 60_000;
			for (let n = 0; n < 3; n++) await store.increment('x', later);
			await store.increment('y', later);
			await other.increment('z', later);
			expect(await store.readCounts(['x', 'never', 'y', 'z'])).toEqual([3, 0, 1, 0]);
			expect(await store.readCounts([])).toEqual([]);
		} finally {
			await Promise.all([store.close(), other.close()]);
		}
	});
}
