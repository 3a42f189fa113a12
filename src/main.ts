import { commandModules } from '../commands/index.js';
import { startBot, TokenRejectedError, type RunningBot } from './app/bot.js';
import { parseConfig } from './config/config.js';
import { loadConfigOrExit } from './config/loadConfigOrExit.js';
import { createLogger } from './logging/logger.js';
import { buildRegistry } from './app/registry.js';

/** Shutdown must end well inside the 10 s a process manager gives before it kills. */
const SHUTDOWN_GRACE_MS = 7000;
const SHUTDOWN_HARD_LIMIT_MS = 9500;

const config = loadConfigOrExit(parseConfig);

const logger = createLogger(config.logLevel);

// A safety net: every handler answers its own errors, so reaching here is a bug to log, not a reason to crash
// and drop every interaction in flight.
process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));

let bot: RunningBot | undefined;
let stopRequested = false;

function stopAndExit(running: RunningBot): void {
	running.stop().then(
		() => process.exit(0),
		(error: unknown) => {
			logger.error({ err: error }, 'shutdown failed');
			process.exit(0);
		},
	);
}

// Registered before the start, so a signal while connecting (up to 30 s) still closes the store and exits 0.
const shutdown = (signal: NodeJS.Signals) => {
	if (stopRequested) return;
	stopRequested = true;
	logger.info({ signal }, 'shutting down');
	setTimeout(() => {
		logger.warn('shutdown took too long; exiting');
		process.exit(0);
	}, SHUTDOWN_HARD_LIMIT_MS).unref();
	if (bot) stopAndExit(bot);
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

try {
	bot = await startBot(config, { logger, registry: buildRegistry(commandModules), shutdownGraceMs: SHUTDOWN_GRACE_MS });
} catch (error) {
	if (error instanceof TokenRejectedError) {
		process.stderr.write(`${error.message}\n`);
	} else if (!stopRequested) {
		logger.fatal({ err: error }, 'Veil could not start');
	}
	process.exit(stopRequested ? 0 : 1);
}
if (stopRequested) stopAndExit(bot);
