import { createClient } from '@keyv/redis';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import { openStorage, type Storage } from '../../../src/storage/openStorage.js';
import { SettingsRepository } from '../../../src/settings/settingsRepository.js';
import { RedisServer } from '../../support/redisServer.js';
import { settingsRepositoryContract } from '../../support/contracts/settingsRepositoryContract.js';
import { testRedisUrl } from '../../support/testRedis.js';

describe.each([['Redis', testRedisUrl]])('settings on %s, two processes', (_kind, makeUrl) => settingsRepositoryContract(makeUrl));

const logger = createLogger('silent');

describe('asks on a Redis holding many keys, with the record of limits lost (a Redis of its own)', () => {
	let redis: RedisServer;
	let storage: Storage;
	afterEach(async () => {
		await storage?.close();
		await redis?.stop();
	});

	it('scan nothing: each ask reads its own server, and its limit holds', async () => {
		redis = await RedisServer.start({ persistent: false });
		const client = createClient({ url: redis.url });
		await client.connect();
		await client.eval("for i = 1, tonumber(ARGV[1]) do redis.call('SET', 'filler:' .. i, 'x') end", { arguments: ['50000'] });
		storage = await openStorage(redis.url, logger, { namespace: 'veil' });
		const settings = new SettingsRepository(storage.atomic);
		const limited = '800000000000000001';
		await settings.update(limited, (current) => ({ ...current, asksPerDay: 2 }));
		const scansBefore = await scanCalls(client);

		const asking = new SettingsRepository(storage.atomic);
		const servers = Array.from({ length: 30 }, (_, n) => `8000000000000001${String(n).padStart(2, '0')}`);
		for (const guildId of servers) expect(await asking.asksPerDay(guildId)).toBeUndefined();
		expect(await asking.asksPerDay(limited)).toBe(2);
		expect((await asking.get(limited)).asksPerDay).toBe(2);
		expect(await scanCalls(client)).toBe(scansBefore);
		await client.close();
	});
});

async function scanCalls(client: { info(section: string): Promise<string> }): Promise<number> {
	const stats = await client.info('commandstats');
	return Number(/cmdstat_scan:calls=(\d+)/.exec(stats)?.[1] ?? 0);
}
