import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../logging/logger.js';
import type { Metrics } from './metrics.js';
import { pathOf } from './requestPath.js';
import { recentReadiness, type Readiness } from './readiness.js';

export interface OperatorServer {
	readonly port: number;
	close(): Promise<void>;
}

/**
 * The operators' endpoint: `GET /metrics` (Prometheus text), `GET /healthz` (200 while the process runs) and
 * `GET /readyz` (200 when ready, else 503, with each shard's status). Nothing it answers holds a secret, and no
 * request, however malformed, can end the process: everything a request drives runs inside one catch.
 */
export async function startOperatorServer(options: {
	readonly host: string;
	readonly port: number;
	readonly readiness: () => Promise<Readiness>;
	readonly metrics: Metrics;
	readonly logger: Logger;
}): Promise<OperatorServer> {
	const { logger, metrics } = options;
	metrics.collectProcessMetrics();
	// However often probes come, the shards and the store are read at most once a second.
	const readiness = recentReadiness(options.readiness);

	const answer = async (req: IncomingMessage, res: ServerResponse) => {
		const send = (status: number, contentType: string, body: string) => {
			res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body);
		};
		if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain', 'GET only\n');
		const path = pathOf(req.url);
		if (path === '/healthz') return send(200, 'text/plain', 'ok\n');
		if (path === '/readyz') {
			const now = await readiness();
			return send(now.ready ? 200 : 503, 'application/json', `${JSON.stringify(now)}\n`);
		}
		if (path === '/metrics') {
			const { contentType, body } = await metrics.text();
			return send(200, contentType, body);
		}
		send(404, 'text/plain', 'not found: /metrics, /healthz, /readyz\n');
	};

	const server = createServer((req, res) => {
		answer(req, res).catch((error: unknown) => {
			// Not the path: whatever a caller sent stays out of the log.
			logger.error({ err: error }, 'operator endpoint failed');
			if (res.headersSent) res.end();
			else res.writeHead(500, { 'content-type': 'text/plain' }).end('error\n');
		});
	});
	server.listen(options.port, options.host);
	await once(server, 'listening');
	// A failure after listening (a socket's, say) is the listener's problem, never the bot's.
	server.on('error', (error) => logger.warn({ err: error }, 'operator endpoint error'));
	const { port } = server.address() as AddressInfo;
	logger.info({ host: options.host, port }, 'operator endpoint listening');
	return {
		port,
		async close() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
