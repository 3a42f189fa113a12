import { defineConfig } from 'vitest/config';
import e2eWithServices from './test/e2eWithServices.json' with { type: 'json' };

/**
 * End-to-end files that need a service beyond Node, kept in test/e2e/ beside their peers: Debian's chromium for the
 * sandbox's page, a redis-server for the others. They run in the services-e2e project, not in `npm test`; the lint
 * (.dependency-cruiser.js) fails an offline test file that reaches Redis or a browser without being listed.
 */
const E2E_WITH_SERVICES: string[] = e2eWithServices;

// A request the local Discord refuses by Discord's published API fails the test that made it.
const publishedApi = 'test/support/publishedApiSetup.ts';
// A private Redis when REDIS_URL names none (test/support/redisGlobalSetup.ts).
const privateRedis = 'test/support/redisGlobalSetup.ts';

export default defineConfig({
	test: {
		testTimeout: 30_000,
		hookTimeout: 30_000,
		// e2e files each start their own emulator and bot on random ports; two cores, so two forks.
		pool: 'forks',
		maxWorkers: 2,
		// `npm test` runs unit and e2e, which need Node alone; `npm run test:unit` is the fast loop;
		// `npm run test:services` runs the two services projects, which need redis-server or chromium; CI runs both commands.
		projects: [
			{ extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
			{ extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], exclude: E2E_WITH_SERVICES, setupFiles: [publishedApi] } },
			// `npm run test:services`: the store contracts on Redis, then the end-to-end files that need Redis or chromium.
			{
				extends: true,
				test: { name: 'services', include: ['test/services/**/*.test.ts'], exclude: ['test/services/e2e/**'], globalSetup: [privateRedis] },
			},
			{
				extends: true,
				test: {
					name: 'services-e2e',
					include: ['test/services/e2e/**/*.test.ts', ...E2E_WITH_SERVICES],
					globalSetup: [privateRedis],
					setupFiles: [publishedApi],
				},
			},
		],
	},
});
