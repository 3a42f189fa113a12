import { defineConfig } from 'vitest/config';

export default defineConfig({
	test: {
		include: ['test/**/*.test.ts'],
		testTimeout: 30_000,
		hookTimeout: 30_000,
		// e2e files each start their own emulator and bot on random ports; two cores, so two forks.
		pool: 'forks',
		maxWorkers: 2,
	},
});
