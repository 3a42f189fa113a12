import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from 'undici';
import { readBodyCapped } from '../../../src/http/readBodyCapped.js';
import { startFloodServer } from '../../support/floodServer.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function readFrom(options: Parameters<typeof startFloodServer>[0], maxBytes: number) {
	const server = await startFloodServer(options);
	const agent = new Agent();
	cleanups.push(
		() => server.stop(),
		() => agent.destroy(),
	);
	const response = await agent.request({ origin: server.url, path: '/', method: 'GET' });
	const body = await readBodyCapped(response, maxBytes);
	const [flood] = await server.floods();
	return { body, flood };
}

describe('readBodyCapped', () => {
	it('returns a body up to the cap whole, byte for byte', async () => {
		const { body, flood } = await readFrom({ head: '[', tail: ']', totalBytes: 200_000 }, 200_000);
		expect(body?.length).toBe(200_000);
		expect(body?.toString('utf8')).toBe(`[${'x'.repeat(199_998)}]`);
		expect(flood?.finished).toBe(true);
	});

	it('returns a body of a declared length under the cap whole, byte for byte', async () => {
		const { body, flood } = await readFrom({ head: '[', tail: ']', totalBytes: 300_000, contentLength: true }, 1024 * 1024);
		expect(body?.toString('utf8')).toBe(`[${'x'.repeat(299_998)}]`);
		expect(flood?.finished).toBe(true);
	});

	it('stops reading a chunked body at the cap and closes the connection before the server is done', async () => {
		const totalBytes = 64 * 1024 * 1024;
		const { body, flood } = await readFrom({ head: '[', tail: ']', totalBytes }, 64 * 1024);
		expect(body).toBeUndefined();
		expect(flood?.finished).toBe(false);
		expect(flood?.bytesWritten).toBeLessThan(totalBytes);
	});

	it('refuses a declared length over the cap without reading on', async () => {
		const totalBytes = 64 * 1024 * 1024;
		const { body, flood } = await readFrom({ head: '[', tail: ']', totalBytes, contentLength: true }, 1024 * 1024);
		expect(body).toBeUndefined();
		expect(flood?.finished).toBe(false);
	});
});
