import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../logging/logger.js';
import { collectProcessMetrics, metricsText } from './metrics.js';
import type { Readiness } from './readiness.js';

export interface OperatorServer {
	readonly port: number;
	close(): Promise<void>;
}

/**
 * The operators' endpoint: `GET /metrics` (Prometheus text), `GET /healthz` (200 while the process runs) and
 * `GET /readyz` (200 when ready, else 503, with each shard's status). Nothing it answers holds a secret.
 */
export async function startOperatorServer(options: {
	readonly host: string;
	readonly port: number;
	readonly readiness: () => Promise<Readiness>;
	readonly logger: Logger;
}): Promise<OperatorServer> {
	const { logger } = options;
	collectProcessMetrics();
	const server = createServer((req, res) => {
		const path = new URL(req.url ?? '/', 'http://operator').pathname;
		const send = (status: number, contentType: string, body: string) => {
			res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body);
		};
		if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain', 'GET only\n');
		const answer = async () => {
			if (path === '/healthz') return send(200, 'text/plain', 'ok\n');
			if (path === '/readyz') {
				const readiness = await options.readiness();
				return send(readiness.ready ? 200 : 503, 'application/json', `${JSON.stringify(readiness)}\n`);
			}
			if (path === '/metrics') {
				const { contentType, body } = await metricsText();
				return send(200, contentType, body);
			}
			send(404, 'text/plain', 'not found: /metrics, /healthz, /readyz\n');
		};
		answer().catch((error: unknown) => {
			logger.error({ err: error, path }, 'operator endpoint failed');
			if (!res.headersSent) send(500, 'text/plain', 'error\n');
			else res.end();
		});
	});
	server.listen(options.port, options.host);
	await once(server, 'listening');
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
