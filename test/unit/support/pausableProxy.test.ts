import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PausableProxy } from '../../support/pausableProxy.js';

let server: Server | undefined;
let proxy: PausableProxy | undefined;
let client: Socket | undefined;

afterEach(async () => {
	client?.destroy();
	await proxy?.stop();
	server?.closeAllConnections();
	await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

/** Everything `socket` has received so far, and a wait for a text to be among it (false if it closes first). */
function received(socket: Socket): { until(text: string): Promise<boolean> } {
	let seen = '';
	socket.setEncoding('utf8').on('data', (chunk: string) => (seen += chunk));
	return {
		until: (text) =>
			new Promise((resolve) => {
				const look = () => {
					if (!seen.includes(text)) return;
					socket.off('data', look);
					resolve(true);
				};
				socket.on('data', look).once('close', () => resolve(seen.includes(text)));
				look();
			}),
	};
}

describe('PausableProxy (the tests’ network that goes silent)', () => {
	it('delivers a request it held while the server closed the idle connection behind it, on a new one', async () => {
		server = createServer((req, res) => res.end(`answered ${req.url}`));
		// The server closes a connection left idle 50 ms (Node's HTTP server does after 5 s; the local Discord too).
		server.keepAliveTimeout = 50;
		const serverSockets: Socket[] = [];
		server.on('connection', (socket: Socket) => serverSockets.push(socket));
		server.listen(0, '127.0.0.1');
		await once(server, 'listening');
		proxy = await PausableProxy.start({ host: '127.0.0.1', port: (server.address() as AddressInfo).port });
		client = connect(proxy.port, '127.0.0.1');
		const answers = received(client);
		client.write('GET /first HTTP/1.1\r\nHost: x\r\n\r\n');
		expect(await answers.until('answered /first')).toBe(true);
		// The same connection's next request is held, and the server, hearing nothing, closes its side.
		proxy.pauseAt('/held');
		client.write('GET /held HTTP/1.1\r\nHost: x\r\n\r\n');
		const first = serverSockets[0] as Socket;
		if (!first.closed) await once(first, 'close');
		proxy.resume();
		expect(await answers.until('answered /held')).toBe(true);
	});
});
