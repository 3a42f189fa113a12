import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCORD_CDN_BASES, fetchAttachment, isUnderCdn } from '../../../src/files/fetchAttachment.js';

let server: Server;
let base: string;
const seen: string[] = [];

beforeAll(async () => {
	server = createServer((req, res) => {
		seen.push(req.url ?? '');
		if (req.url === '/attachments/1/notes.txt') return res.end('hello');
		if (req.url === '/attachments/1/moved.txt') return res.writeHead(302, { location: '/attachments/1/notes.txt' }).end();
		if (req.url === '/attachments/1/big.txt') return res.end('x'.repeat(2048));
		if (req.url === '/attachments/1/endless.txt') {
			res.writeHead(200, { 'content-type': 'text/plain' });
			const timer = setInterval(() => res.write('y'.repeat(512)), 1);
			res.on('close', () => clearInterval(timer));
			return;
		}
		if (req.url === '/attachments/1/stalled.txt') return res.writeHead(200).write('partial');
		res.writeHead(404).end();
	});
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => {
	server.closeAllConnections();
	server.close();
});

const options = () => ({ cdnBases: [base], maxBytes: 1024, timeoutMs: 2000 });

describe('isUnderCdn', () => {
	it.each([
		['https://cdn.discordapp.com/attachments/1/2/a.txt?ex=1', true],
		['https://media.discordapp.net/attachments/1/2/a.txt', true],
		['http://cdn.discordapp.com/attachments/1/2/a.txt', false],
		['https://cdn.discordapp.com.evil.example/a.txt', false],
		['https://evil.example/https://cdn.discordapp.com/a.txt', false],
		['https://user:pw@cdn.discordapp.com/a.txt', false],
		['https://cdn.discordapp.com:8443/a.txt', false],
		['not a url', false],
	])('%s: %s', (url, expected) => {
		expect(isUnderCdn(url, DISCORD_CDN_BASES)).toBe(expected);
	});
});

describe('fetchAttachment', () => {
	it('downloads a file from the CDN', async () => {
		const fetched = await fetchAttachment(`${base}attachments/1/notes.txt`, options());
		expect(fetched.ok && fetched.bytes.toString()).toBe('hello');
	});

	it('never asks a host that is not the CDN', async () => {
		const before = seen.length;
		expect(await fetchAttachment('http://127.0.0.1:1/attachments/1/notes.txt', options())).toEqual({ ok: false, failure: 'not-cdn' });
		expect(seen.length).toBe(before);
	});

	it('does not follow a redirect', async () => {
		const before = seen.length;
		expect(await fetchAttachment(`${base}attachments/1/moved.txt`, options())).toEqual({ ok: false, failure: 'unavailable' });
		expect(seen.slice(before)).toEqual(['/attachments/1/moved.txt']);
	});

	it('refuses a body over the cap, declared or streamed', async () => {
		expect(await fetchAttachment(`${base}attachments/1/big.txt`, options())).toEqual({ ok: false, failure: 'too-large' });
		expect(await fetchAttachment(`${base}attachments/1/endless.txt`, options())).toEqual({ ok: false, failure: 'too-large' });
	});

	it('gives up on a download that stalls', async () => {
		expect(await fetchAttachment(`${base}attachments/1/stalled.txt`, { ...options(), timeoutMs: 200 })).toEqual({
			ok: false,
			failure: 'timeout',
		});
	});
});
