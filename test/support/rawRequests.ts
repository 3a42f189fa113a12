import { connect } from 'node:net';
import fc from 'fast-check';

/** The request lines that once ended the bot: each reads as an authority to `new URL(target, base)`. */
export const URL_CRASHERS = ['GET // HTTP/1.1', 'GET /// HTTP/1.1', 'GET //@ HTTP/1.1', 'GET //a:b@ HTTP/1.1'].map(
	(line) => `${line}\r\nHost: x\r\n\r\n`,
);

const method = fc.oneof(
	fc.constantFrom('GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS', 'CONNECT', 'TRACE', 'PRI', 'get', 'BREW', ''),
	fc.string({ maxLength: 8 }),
);

const target = fc.oneof(
	fc.constantFrom(
		'/',
		'//',
		'///',
		'//@',
		'//a:b@',
		'//a:b@c/readyz',
		'/healthz',
		'/readyz',
		'/metrics',
		'/readyz?x=1#y',
		'*',
		'?',
		'#',
		'http://x/readyz',
		'http://[::1',
		'http://',
		'/%',
		'/%zz',
		'/%00',
		'/../..',
		'/api/v10/gateway/bot',
		'/api/v10//@',
		'/api//a:b@/x',
		'/api/v10/webhooks/1/t/messages/@original',
		'/api/v10/interactions/1/t/callback',
		'/healthz/../readyz',
	),
	fc.string({ unit: 'binary', maxLength: 40 }).map((rest) => `/${rest}`),
	fc.string({ maxLength: 120 }),
	fc.integer({ min: 1, max: 20_000 }).map((length) => `/${'a'.repeat(length)}`),
);

const version = fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/0.9', 'HTTP/9.9', 'http/1.1', 'HTTP/1.1 extra', '');

const header = fc.oneof(
	fc.constantFrom(
		'Host: x',
		'Host:',
		'Host: a\r\nHost: b',
		'Content-Length: 5',
		'Content-Length: -1',
		'Content-Length: 1, 2',
		'Content-Length: 99999999999999999999',
		'Transfer-Encoding: chunked',
		'Transfer-Encoding: gzip, chunked',
		'Connection: upgrade',
		'Upgrade: websocket',
		'Expect: 100-continue',
		'Authorization: Bot x',
		'Authorization:',
		'Content-Type: application/json',
		'X-Veil-Proxy-Secret: wrong',
		'X-Veil-Proxy-Secret:',
		' folded: line',
		': empty name',
	),
	fc.tuple(fc.string({ maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 60 })).map(([name, value]) => `${name}: ${value}`),
	fc.string({ maxLength: 80 }),
	fc.integer({ min: 1, max: 20_000 }).map((length) => `X-Long: ${'b'.repeat(length)}`),
);

const body = fc.oneof(
	fc.constant(''),
	fc.string({ unit: 'binary', maxLength: 200 }),
	fc.constantFrom('0\r\n\r\n', 'zz\r\n', '5\r\nab', '{"content":"x"}'),
);

const shaped = fc
	.record({
		method,
		target,
		version,
		headers: fc.array(header, { maxLength: 6 }),
		lineBreak: fc.constantFrom('\r\n', '\n', '\r', '\r\r\n'),
		end: fc.constantFrom('\r\n\r\n', '\n\n', '\r\n', '', '\r\n\r\n\r\n'),
		body,
	})
	.map((r) => Buffer.from(`${r.method} ${r.target} ${r.version}${r.lineBreak}${r.headers.join(r.lineBreak)}${r.end}${r.body}`, 'utf8'));

/** Requests shaped like HTTP with malformed parts, and some plain random bytes. */
const rawRequest = fc.oneof(
	{ arbitrary: shaped, weight: 9 },
	{ arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)), weight: 1 },
);

/** `count` malformed and random requests, the same for the same seed. */
export function malformedRequests(count: number, seed: number): Buffer[] {
	return [URL_CRASHERS.map((text) => Buffer.from(text)), fc.sample(rawRequest, { numRuns: count, seed })].flat();
}

/**
 * Writes `bytes` on a fresh TCP connection, and closes it at the first byte of an answer, or after `settleMs` for a
 * request the server is still waiting to complete. Whatever happens to the socket is ignored: only the server's
 * survival matters.
 */
export function sendRaw(port: number, bytes: Buffer, settleMs = 100): Promise<void> {
	return new Promise((resolve) => {
		const socket = connect(port, '127.0.0.1');
		const done = () => {
			clearTimeout(timer);
			socket.destroy();
			resolve();
		};
		const timer = setTimeout(done, settleMs);
		socket.on('error', done);
		socket.on('close', done);
		socket.on('data', done);
		socket.write(bytes);
	});
}

/** Sends every request, `parallel` connections at a time. */
export async function sendAll(port: number, requests: readonly Buffer[], parallel = 32): Promise<void> {
	let next = 0;
	const lane = async () => {
		while (next < requests.length) {
			const request = requests[next++] as Buffer;
			await sendRaw(port, request);
		}
	};
	await Promise.all(Array.from({ length: parallel }, lane));
}
