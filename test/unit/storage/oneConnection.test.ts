import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@keyv/redis';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import { openStorage, type Storage } from '../../../src/storage/openStorage.js';
import { RedisServer } from '../../support/redisServer.js';

const logger = createLogger('silent');
const dir = mkdtempSync(join(tmpdir(), 'veil-one-connection-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each side's kind of work: plain records (one and a batch), a claim, a counter, an index. */
async function useBothSides({ store, atomic }: Storage): Promise<void> {
	await store.set('accounts', 'u1', { a: 1 });
	await store.setMany('conversations', [{ key: 'c1', value: { n: 1 } }]);
	expect(await store.get('accounts', 'u1')).toEqual({ a: 1 });
	expect(await atomic.claim('k', 'v', 60_000)).toBeUndefined();
	expect(await atomic.increment('n', Date.now() + 60_000)).toBe(1);
	await atomic.indexAdd('i', [{ member: 'm', score: 1 }], { limit: 10, minScore: 0, ttlMs: 60_000 });
}

describe('one store connection per process', () => {
	it('on SQLite: the plain records and the atomic operations share one handle on the file', async () => {
		const path = join(dir, 'bot.sqlite');
		const storage = await openStorage(`sqlite://${path}`, logger);
		try {
			await useBothSides(storage);
			const handles = readdirSync('/proc/self/fd').filter((fd) => {
				try {
					return readlinkSync(`/proc/self/fd/${fd}`) === path;
				} catch {
					return false;
				}
			});
			expect(handles).toHaveLength(1);
		} finally {
			await storage.close();
		}
	});

	it('on Redis: one client, whichever side is used (a Redis of its own)', async () => {
		const redis = await RedisServer.start({ persistent: false });
		const watcher = createClient({ url: redis.url });
		await watcher.connect();
		const storage = await openStorage(redis.url, logger);
		try {
			await useBothSides(storage);
			const clients = Number(/connected_clients:(\d+)/.exec(await watcher.info('clients'))?.[1]);
			// The watcher and Veil's one.
			expect(clients).toBe(2);
		} finally {
			await storage.close();
			await watcher.close();
			await redis.stop();
		}
	});
});
