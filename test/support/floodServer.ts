import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the server got to send of one answer before its connection ended. */
export interface Flood {
	/** The whole body was handed to the connection. */
	finished: boolean;
	bytesWritten: number;
}

/** Options of {@link startFloodServer}: every request is answered 200 with `head`, `totalBytes` of filler, `tail`. */
export interface FloodOptions {
	head: string;
	tail: string;
	/** Length of the whole body. */
	totalBytes: number;
	/** Declare the length up front; else the body is sent chunked, and only reading it reveals its size. */
	contentLength?: boolean;
	headers?: Record<string, string>;
}

/**
 * A local HTTP server whose answers are huge, written chunk by chunk as the client takes them (so the server holds
 * one chunk, not the body). The connection's back-pressure makes the outcome plain: a client that stops reading and
 * closes leaves the answer unfinished, far short of its length.
 */
export async function startFloodServer(options: FloodOptions) {
	const floods: Array<Promise<Flood>> = [];
	const sockets = new Set<Socket>();
	const server = createServer((_request, response) => {
		floods.push(flood(response, options));
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		/** How each answer so far ended, once it has. */
		floods: () => Promise.all(floods),
		async stop(): Promise<void> {
			for (const socket of sockets) socket.destroy();
			server.close();
			await once(server, 'close');
		},
	};
}

async function flood(response: ServerResponse, options: FloodOptions): Promise<Flood> {
	const { head, tail, totalBytes } = options;
	response.statusCode = 200;
	response.setHeader('content-type', 'application/json');
	for (const [name, value] of Object.entries(options.headers ?? {})) response.setHeader(name, value);
	if (options.contentLength === true) response.setHeader('content-length', totalBytes);
	const closed = once(response, 'close');
	let written = 0;
	const write = async (chunk: string): Promise<boolean> => {
		if (response.destroyed) return false;
		written += Buffer.byteLength(chunk);
		if (!response.write(chunk)) await Promise.race([once(response, 'drain'), closed]);
		return !response.destroyed;
	};
	const filler = 'x'.repeat(64 * 1024);
	let left = totalBytes - Buffer.byteLength(head) - Buffer.byteLength(tail);
	let going = await write(head);
	while (going && left > 0) {
		const chunk = left >= filler.length ? filler : filler.slice(0, left);
		left -= chunk.length;
		going = await write(chunk);
	}
	if (going && (await write(tail))) response.end();
	await closed;
	return { finished: response.writableFinished, bytesWritten: written };
}
