import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import { openAtomicStore as openStore } from '../../../src/storage/openStorage.js';
import { dailyCounterContract } from '../../support/contracts/dailyCounterContract.js';

const silent = createLogger('silent');
const scratch = mkdtempSync(join(tmpdir(), 'veil-counter-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const backends: Array<[string, () => string]> = [['sqlite', () => `sqlite://${join(scratch, `${randomUUID()}.sqlite`)}`]];

describe.each(backends)('store counters on %s', (_kind, makeUrl) => dailyCounterContract(makeUrl));

describe('store counters on SQLite', () => {
	it('are erased by the sweep once expired, and not before', async () => {
		const store = await openStore(`sqlite://${join(scratch, `${randomUUID()}.sqlite`)}`, silent, { namespace: 'sweep' });
		try {
			const now = Date.now();
			await store.increment('old', now + 1000);
			await store.increment('new', now + 100_000);
			expect(await store.sweepExpired(now + 2000)).toBe(1);
			expect(await store.increment('new', now + 100_000)).toBe(2);
		} finally {
			await store.close();
		}
	});
});

describe('store counters on memory://', () => {
	it('count, and start again past their expiry', async () => {
		const store = await openStore('memory://', silent);
		try {
			expect(await store.increment('a', Date.now() + 60_000)).toBe(1);
			expect(await store.increment('a', Date.now() + 60_000)).toBe(2);
			await store.increment('gone', Date.now() - 1);
			expect(await store.readCounts(['a', 'gone', 'never'])).toEqual([2, 0, 0]);
			expect(await store.increment('gone', Date.now() + 60_000)).toBe(1);
		} finally {
			await store.close();
		}
	});
});
