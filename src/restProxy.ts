import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { parseRestProxyConfig } from './config/config.js';
import { loadConfigOrExit } from './config/loadConfigOrExit.js';
import { DiscordRest } from './discord/internals/discordRest.js';
import { describeRateLimit } from './discord/rateLimits.js';
import { PROXY_SECRET_HEADER, proxySecretCheck } from './discord/restProxySecret.js';
import { createLogger } from './logging/logger.js';
import { redactUrl } from './logging/redactUrl.js';
import { pathOf } from './operations/requestPath.js';

/**
 * `npm run rest-proxy`: one @discordjs/proxy in front of Discord's REST for every process of a deployment, so
 * Discord's rate limits are counted in one place (see the README's deployments). Bots point DISCORD_API_URL here.
 * It listens on REST_PROXY_HOST (loopback by default); with REST_PROXY_SECRET set, which it must be off loopback,
 * a request without that secret is answered 401 and never forwarded.
 */
// discord.js is CommonJS, so its REST and Discord's error classes come from @discordjs/rest's CommonJS build. The
// proxy tells an error answer (a 401, a 404) from a crash with instanceof, so it must load that same build: imported
// as ESM it would not recognise them and would answer every Discord error as an empty 200.
const { proxyRequests } = createRequire(import.meta.url)('@discordjs/proxy') as typeof import('@discordjs/proxy');

const config = loadConfigOrExit(parseRestProxyConfig);
const logger = createLogger(config.logLevel);

// The proxy forwards each caller's own Authorization header; the token set here is the one the README names. The
// answers to interactions (sent without one) skip the client-side global limit, as they do in a single bot.
const rest = new DiscordRest({ api: config.discordApiUrl }).setToken(config.discordToken);
rest.on('rateLimited', (info) => logger.warn({ rateLimit: describeRateLimit(info) }, 'Discord rate limit'));

const carriesSecret = config.restProxySecret === undefined ? undefined : proxySecretCheck(config.restProxySecret);
const REFUSED = `${JSON.stringify({ message: "401: the REST proxy's secret is missing or wrong", code: 0 })}\n`;

const handle = proxyRequests(rest);
const server = createServer((req, res) => {
	// For a container's health check; Discord's routes all start with /api, and it tells nothing.
	if (pathOf(req.url) === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) {
		res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
		return;
	}
	if (carriesSecret && !carriesSecret(req.headers[PROXY_SECRET_HEADER])) {
		logger.debug({ method: req.method }, 'refused a request without the proxy secret');
		res.writeHead(401, { 'content-type': 'application/json', connection: 'close' }).end(REFUSED);
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

server.listen(config.restProxyPort, config.restProxyHost, () => {
	const address = server.address();
	const port = typeof address === 'object' && address !== null ? address.port : config.restProxyPort;
	logger.info(
		{ host: config.restProxyHost, port, secret: config.restProxySecret !== undefined, target: redactUrl(config.discordApiUrl) },
		'REST proxy listening',
	);
});
server.on('error', (error) => {
	// Once listening, an error (an accept failing when file descriptors run out, say) must not end the proxy.
	if (server.listening) {
		logger.warn({ kind: error.name, code: (error as NodeJS.ErrnoException).code }, 'REST proxy listener error');
		return;
	}
	process.stderr.write(`The REST proxy cannot listen on ${config.restProxyHost}:${config.restProxyPort}: ${error.message}\n`);
	process.exit(1);
});
