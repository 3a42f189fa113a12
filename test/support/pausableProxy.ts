import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a real server (Redis in the tests) that can stop passing bytes on: the
 * server then simply does not answer, the fault a timed-out store presents to the bot.
 */
export class PausableProxy {
	readonly port: number;
	readonly #server: Server;
	readonly #pairs: Set<[Socket, Socket]>;
	#paused = false;

	readonly #held: Array<{ pair: [Socket, Socket]; chunk: Buffer }>;
	readonly #heldFrom: { current: string | undefined };

	private constructor(
		server: Server,
		port: number,
		pairs: Set<[Socket, Socket]>,
		held: Array<{ pair: [Socket, Socket]; chunk: Buffer }>,
		heldFrom: { current: string | undefined },
	) {
		this.#server = server;
		this.port = port;
		this.#pairs = pairs;
		this.#held = held;
		this.#heldFrom = heldFrom;
	}

	/**
	 * Pauses as soon as a client sends bytes holding `text` (a command of a given kind), holding those bytes too:
	 * the server never sees that command, nor any after it, until resume().
	 */
	pauseAt(text: string): void {
		this.#heldFrom.current = text;
	}

	static async start(target: { host: string; port: number }): Promise<PausableProxy> {
		const pairs = new Set<[Socket, Socket]>();
		let paused = () => false;
		let pauseAll = () => {};
		// Bytes a client sent from the moment the proxy paused, each to go on to its server at resume().
		const held: Array<{ pair: [Socket, Socket]; chunk: Buffer }> = [];
		const heldFrom: { current: string | undefined } = { current: undefined };
		const server = createServer((client) => {
			const pair: [Socket, Socket] = [client, createConnection(target)];
			pairs.add(pair);
			const end = () => {
				client.destroy();
				pair[1].destroy();
				pairs.delete(pair);
			};
			// A server that closes a connection left idle while the proxy holds its client's bytes (an HTTP server's
			// keep-alive time-out) gets them on a new one at resume(): a pause is silence, never a lost request.
			const connect = (upstream: Socket) => {
				pair[1] = upstream;
				upstream.pipe(client, { end: false });
				upstream
					.on('error', () => undefined)
					.on('close', () => {
						if (pair[1] !== upstream || client.destroyed) return;
						if (paused()) connect(createConnection(target));
						else end();
					});
			};
			connect(pair[1]);
			if (paused()) client.pause();
			client.on('data', (chunk: Buffer) => {
				if (heldFrom.current !== undefined && chunk.includes(heldFrom.current)) {
					heldFrom.current = undefined;
					pauseAll();
				}
				if (paused()) {
					held.push({ pair, chunk });
					client.pause();
				} else {
					pair[1].write(chunk);
				}
			});
			client.on('error', end).on('close', end);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const address = server.address();
		if (address === null || typeof address === 'string') throw new Error('proxy has no port');
		const proxy = new PausableProxy(server, address.port, pairs, held, heldFrom);
		paused = () => proxy.#paused;
		pauseAll = () => proxy.pause();
		return proxy;
	}

	/** Holds every byte from the clients: requests go unanswered until resume(). */
	pause(): void {
		this.#paused = true;
		for (const [client] of this.#pairs) client.pause();
	}

	resume(): void {
		this.#paused = false;
		this.#heldFrom.current = undefined;
		for (const { pair, chunk } of this.#held.splice(0)) pair[1].write(chunk);
		for (const [client] of this.#pairs) client.resume();
	}

	async stop(): Promise<void> {
		for (const [client, upstream] of this.#pairs) {
			client.destroy();
			upstream.destroy();
		}
		await new Promise<void>((resolve) => this.#server.close(() => resolve()));
	}
}
