import { RedisServer, redisServerAvailable } from './redisServer.js';

/**
 * Vitest's global setup: with no REDIS_URL, starts a private Redis (free port of 127.0.0.1, its own temporary
 * directory, nothing written to disk) and names it in REDIS_URL, which the test workers inherit (vitest forks them
 * after this ran). Without redis-server it starts nothing, and the Redis tests fail through testRedisUrl().
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
	if (process.env.REDIS_URL || !redisServerAvailable) return undefined;
	const redis = await RedisServer.start({ persistent: false });
	process.env.REDIS_URL = redis.url;
	return async () => {
		delete process.env.REDIS_URL;
		await redis.stop();
	};
}
