import { expect } from 'vitest';
import type { Storage } from '../../src/storage/openStorage.js';

/** Each side's kind of work on a store: plain records (one and a batch), a claim, a counter, an index. */
export async function useBothSides({ store, atomic }: Storage): Promise<void> {
	await store.set('accounts', 'u1', { a: 1 });
	await store.setMany('conversations', [{ key: 'c1', value: { n: 1 } }]);
	expect(await store.get('accounts', 'u1')).toEqual({ a: 1 });
	expect(await atomic.claim('k', 'v', 60_000)).toBeUndefined();
	expect(await atomic.increment('n', Date.now() + 60_000)).toBe(1);
	await atomic.indexAdd('i', [{ member: 'm', score: 1 }], { limit: 10, minScore: 0, ttlMs: 60_000 });
}
