import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import type { AtomicStore } from '../../../src/storage/atomicStore.js';
import { openAtomicStore } from '../../../src/storage/openStorage.js';

const logger = createLogger('silent');

const bounds = { limit: 1000, minScore: 0, ttlMs: 60_000 };

/**
 * The atomic store from two connections, on any backend (test/unit/storage/atomicStore.test.ts runs it on SQLite,
 * test/services/ on Redis). Two connections opened independently on one store stand for two processes: nothing
 * in-process is shared.
 */
export function atomicStoreContract(storeUrl: () => string): void {
	let one: AtomicStore;
	let two: AtomicStore;
	beforeEach(async () => {
		const url = storeUrl();
		const namespace = `atomic-test-${randomUUID()}`;
		one = await openAtomicStore(url, logger, { namespace, operationTimeoutMs: 5000 });
		two = await openAtomicStore(url, logger, { namespace, operationTimeoutMs: 5000 });
	});
	afterEach(async () => {
		await Promise.all([one.close(), two.close()]);
	});

	it('gives a claim to exactly one of many claiming at once; the others learn whose it is', async () => {
		const claims = Array.from({ length: 20 }, (_, n) => (n % 2 === 0 ? one : two).claim('flag', `claimer ${n}`, 60_000));
		const results = await Promise.all(claims);
		const winners = results.flatMap((held, n) => (held === undefined ? [`claimer ${n}`] : []));
		expect(winners).toHaveLength(1);
		for (const held of results) if (held !== undefined) expect(held).toBe(winners[0]);
		expect(await two.read('flag')).toBe(winners[0]);
	});

	it('lets only the holder give a claim back, and a claim past its time be taken again', async () => {
		expect(await one.claim('a', 'mine', 60_000)).toBeUndefined();
		await two.release('a', 'not mine');
		expect(await two.claim('a', 'theirs', 60_000)).toBe('mine');
		await one.release('a', 'mine');
		expect(await two.claim('a', 'theirs', 60_000)).toBeUndefined();

		expect(await one.claim('short', 'first', 50)).toBeUndefined();
		await new Promise((resolve) => setTimeout(resolve, 120));
		expect(await two.claim('short', 'second', 60_000)).toBeUndefined();
		expect(await one.read('short')).toBe('second');
	});

	it('loses no increment of a counter both connections compare-and-set at once', async () => {
		const increment = async (store: AtomicStore) => {
			for (;;) {
				const current = await store.read('counter');
				if (await store.compareAndSet('counter', current, String(Number(current ?? '0') + 1))) return;
			}
		};
		await Promise.all(Array.from({ length: 30 }, (_, n) => increment(n % 2 === 0 ? one : two)));
		expect(await one.read('counter')).toBe('30');
		expect(await one.compareAndSet('counter', undefined, '0')).toBe(false);
		expect(await one.compareAndSet('counter', '29', '0')).toBe(false);
	});

	it('reads every live value under a prefix, taken literally, and nothing else', async () => {
		await one.compareAndSet('settings:1', undefined, 'one');
		await two.compareAndSet('settings:2', undefined, 'two');
		await one.compareAndSet('settingsX', undefined, 'not under the prefix');
		await one.compareAndSet('set%:3', undefined, 'percent');
		await one.compareAndSet('set*:4', undefined, 'star');
		await one.claim('settings:gone', 'expired', 1);
		await one.indexAdd('settings:index', [{ member: 'm', score: 1 }], bounds);
		await new Promise((resolve) => setTimeout(resolve, 20));
		expect(await two.readPrefixed('settings:')).toEqual([
			{ key: 'settings:1', value: 'one' },
			{ key: 'settings:2', value: 'two' },
		]);
		expect(await two.readPrefixed('set%')).toEqual([{ key: 'set%:3', value: 'percent' }]);
		expect(await two.readPrefixed('set*')).toEqual([{ key: 'set*:4', value: 'star' }]);
		expect(await two.readPrefixed('nothing:')).toEqual([]);
	});

	it('keeps every entry of an index both connections add to at once', async () => {
		const adds = Array.from({ length: 60 }, (_, n) => (n % 2 === 0 ? one : two).indexAdd('index', [{ member: `m${n}`, score: 1000 + n }], bounds));
		await Promise.all(adds);
		const entries = await two.indexRead('index', 0);
		expect(entries).toHaveLength(60);
		expect(entries.map((entry) => entry.score)).toEqual(Array.from({ length: 60 }, (_, n) => 1059 - n));
	});

	it('keeps the newest entries within the limit and above the minimum, and removes members', async () => {
		await one.indexAdd(
			'bounded',
			[1, 2, 3, 4, 5].map((n) => ({ member: `m${n}`, score: n })),
			{ ...bounds, limit: 3 },
		);
		expect((await two.indexRead('bounded', 0)).map((entry) => entry.member)).toEqual(['m5', 'm4', 'm3']);
		await two.indexAdd('bounded', [{ member: 'm6', score: 6 }], { ...bounds, minScore: 4 });
		expect((await one.indexRead('bounded', 0)).map((entry) => entry.member)).toEqual(['m6', 'm5']);
		expect((await one.indexRead('bounded', 5)).map((entry) => entry.member)).toEqual(['m6']);
		await one.indexRemove('bounded', ['m6', 'unknown']);
		expect(await two.indexRead('bounded', 0)).toEqual([{ member: 'm5', score: 5 }]);
	});

	it('adds every tally both connections make at once, and counts a distinct member once', async () => {
		const expiresAt = Date.now() + 60_000;
		const batches = Array.from({ length: 40 }, (_, n) =>
			(n % 2 === 0 ? one : two).tally([
				{ key: 'usage:day', field: `channel${n % 3}:shown`, by: 1, expiresAt },
				{ key: 'usage:day', field: 'all', by: 2, expiresAt },
				{ key: 'askers:day', member: `member${n % 7}`, expiresAt },
				{ key: 'askers:next', member: `member${(n % 3) + 5}`, expiresAt },
			]),
		);
		await Promise.all(batches);
		const [counts, none] = await one.readTallies(['usage:day', 'usage:other']);
		expect(Object.fromEntries(counts ?? [])).toEqual({ 'channel0:shown': 14, 'channel1:shown': 13, 'channel2:shown': 13, all: 80 });
		expect(none?.size).toBe(0);
		expect(await two.countDistinct([['askers:day'], ['askers:other'], ['askers:day', 'askers:next'], []])).toEqual([7, 0, 8, 0]);
	});

	it('forgets a tally at its expiry', async () => {
		await one.tally([
			{ key: 'brief', field: 'n', by: 1, expiresAt: Date.now() + 200 },
			{ key: 'brief-set', member: 'm', expiresAt: Date.now() + 200 },
		]);
		expect((await two.readTallies(['brief']))[0]?.get('n')).toBe(1);
		await new Promise((resolve) => setTimeout(resolve, 400));
		expect((await two.readTallies(['brief']))[0]?.size).toBe(0);
		expect(await two.countDistinct([['brief-set']])).toEqual([0]);
	});
}
