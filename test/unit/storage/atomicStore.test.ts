import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import { openAtomicStore } from '../../../src/storage/openStorage.js';
import { atomicStoreContract } from '../../support/contracts/atomicStoreContract.js';

const logger = createLogger('silent');
const dir = mkdtempSync(join(tmpdir(), 'veil-atomic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
	vi.useRealTimers();
});

const bounds = { limit: 1000, minScore: 0, ttlMs: 60_000 };

const shared = [['sqlite', () => `sqlite://${join(dir, `${randomUUID()}.sqlite`)}`]] as const;

describe.each(shared)('the atomic store on %s, from two connections', (_kind, storeUrl) => atomicStoreContract(storeUrl));

describe('the atomic store on memory://', () => {
	it('gives a claim to exactly one of many claiming at once', async () => {
		const store = await openAtomicStore('memory://', logger);
		const results = await Promise.all(Array.from({ length: 10 }, (_, n) => store.claim('flag', `claimer ${n}`, 60_000)));
		expect(results.filter((held) => held === undefined)).toHaveLength(1);
		await store.close();
	});

	it('reads every live value under a prefix and nothing else', async () => {
		const store = await openAtomicStore('memory://', logger);
		await store.compareAndSet('settings:1', undefined, 'one');
		await store.compareAndSet('other:2', undefined, 'two');
		vi.useFakeTimers({ toFake: ['Date'] });
		await store.claim('settings:gone', 'expired', 1);
		vi.setSystemTime(Date.now() + 2);
		expect(await store.readPrefixed('settings:')).toEqual([{ key: 'settings:1', value: 'one' }]);
		await store.close();
	});
});

describe('the atomic store on SQLite', () => {
	it('erases expired claims and index entries when swept', async () => {
		const store = await openAtomicStore(`sqlite://${join(dir, 'sweep.sqlite')}`, logger);
		await store.claim('gone', 'x', 1);
		await store.claim('kept', 'y', 60_000);
		await store.indexAdd('index', [{ member: 'old', score: 5 }], { ...bounds, ttlMs: 1 });
		expect(await store.sweepExpired(Date.now() + 2)).toBe(2);
		expect(await store.read('kept')).toBe('y');
		await store.close();
	});
});
