/** Why a Redis test fails on a machine that has no Redis for it: a skipped test would pass unnoticed. */
export const noRedisForTests = 'No Redis for the tests: REDIS_URL is not set and redis-server is not on PATH (Debian: apt-get install redis-server)';

/**
 * The Redis the suite's Redis tests share: REDIS_URL as given, or the private one that redisGlobalSetup.ts started.
 * Throws, failing the test that asked, when there is neither. Call it inside a test or a hook, never at module load.
 */
export function testRedisUrl(): string {
	const url = process.env.REDIS_URL;
	if (!url) throw new Error(noRedisForTests);
	return url;
}
