import { createClient } from '@keyv/redis';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import { openStorage } from '../../../src/storage/openStorage.js';
import { RedisServer } from '../../support/redisServer.js';
import { useBothSides } from '../../support/useBothSides.js';

const logger = createLogger('silent');

describe('one store connection per process', () => {
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
