import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config/config.js';

/** A complete, valid environment for the config parsers; tests override one name at a time. */
export const VALID_ENV = {
	DISCORD_TOKEN: 'fake-token-for-tests',
	GENERATION_BASE_URL: 'http://127.0.0.1:9/gen',
	GENERATION_API_KEY: 'secret-api-key-canary',
	AUTH_BASE_URL: 'http://127.0.0.1:9/auth',
	AUTH_PATH_PREFIX: 'acme',
	TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
} as const;

/** The problems a parser reports for `env`; fails the test when it reports none. */
export function problemsOf(
	env: Record<string, string | undefined>,
	parse: (env: Record<string, string | undefined>) => unknown = parseConfig,
): string[] {
	try {
		parse(env);
	} catch (error) {
		expect(error).toBeInstanceOf(ConfigError);
		return [...(error as ConfigError).problems];
	}
	throw new Error('expected a ConfigError');
}
