import { defineConfig } from 'vitest/config';

export default defineConfig({
	test: {
		testTimeout: 30_000,
		hookTimeout: 30_000,
		// A private Redis for the Redis tests when REDIS_URL names none (test/support/redisGlobalSetup.ts).
		globalSetup: ['test/support/redisGlobalSetup.ts'],
		// e2e files each start their own emulator and bot on random ports; two cores, so two forks.
		pool: 'forks',
		maxWorkers: 2,
		// `npm run test:unit` is the fast loop (`vitest run --project unit`); `npm test` runs both.
		projects: [
			{ extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
			// A request the local Discord refuses by Discord's published API fails the test that made it.
			{ extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], setupFiles: ['test/support/publishedApiSetup.ts'] } },
		],
	},
});
