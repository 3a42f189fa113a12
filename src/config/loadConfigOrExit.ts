import { config as loadDotenv } from 'dotenv';
import { ConfigError } from './config.js';

/**
 * Reads `.env` (the environment wins), parses it with `parse`, and on a bad configuration prints the one message
 * that names every problem (never a value) and exits 1. Every entry script starts here, so they cannot drift.
 */
export function loadConfigOrExit<T>(parse: (env: NodeJS.ProcessEnv) => T): T {
	loadDotenv({ quiet: true });
	try {
		return parse(process.env);
	} catch (error) {
		if (!(error instanceof ConfigError)) throw error;
		process.stderr.write(`${error.message}\nSee .env.example for every name and what it expects.\n`);
		process.exit(1);
	}
}
