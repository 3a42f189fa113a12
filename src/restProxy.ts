import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { REST } from 'discord.js';
import { parseRestProxyConfig } from './config/config.js';
import { loadConfigOrExit } from './config/loadConfigOrExit.js';
import { describeRateLimit } from './discord/rateLimits.js';
import { createLogger } from './logging/logger.js';
import { pathOf } from './operations/requestPath.js';
import { redactUrl } from './logging/redactUrl.js';

/**
 * `npm run rest-proxy`: one @discordjs/proxy in front of Discord's REST for every process of a deployment, so
 * Discord's rate limits are counted in one place (see the README's deployments). Bots point DISCORD_API_URL here.
 */
// discord.js is CommonJS, so its REST and Discord's error classes come from @discordjs/rest's CommonJS build. The
// proxy tells an error answer (a 401, a 404) from a crash with instanceof, so it must load that same build: imported
// as ESM it would not recognise them and would answer every Discord error as an empty 200.
const { proxyRequests } = createRequire(import.meta.url)('@discordjs/proxy') as typeof import('@discordjs/proxy');

const config = loadConfigOrExit(parseRestProxyConfig);
const logger = createLogger(config.logLevel);

// The proxy forwards each caller's own Authorization header; the token set here is the one the README names.
const rest = new REST({ api: config.discordApiUrl }).setToken(config.discordToken);
rest.on('rateLimited', (info) => logger.warn({ rateLimit: describeRateLimit(info) }, 'Discord rate limit'));

const handle = proxyRequests(rest);
const server = createServer((req, res) => {
	// For a container's health check; Discord's routes all start with /api.
	if (pathOf(req.url) === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) {
		res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
		return;
	}
	Promise.resolve(handle(req, res)).catch((error: unknown) => {
		// Only the kind: a message or URL here may carry an interaction token from the path.
		const kind = error instanceof Error ? error.name : typeof error;
		logger.error({ kind, method: req.method }, 'proxying a request failed');
		if (!res.headersSent) res.statusCode = 502;
		res.end();
	});
});

const shutdown = (signal: NodeJS.Signals) => {
	logger.info({ signal }, 'shutting down');
	server.close(() => process.exit(0));
	server.closeAllConnections();
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

server.listen(config.restProxyPort, () => {
	const address = server.address();
	const port = typeof address === 'object' && address !== null ? address.port : config.restProxyPort;
	logger.info({ port, target: redactUrl(config.discordApiUrl) }, 'REST proxy listening');
});
server.on('error', (error) => {
	process.stderr.write(`The REST proxy cannot listen on port ${config.restProxyPort}: ${error.message}\n`);
	process.exit(1);
});
