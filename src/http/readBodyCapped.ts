import type { Dispatcher } from 'undici';

/**
 * The whole body of `response`, or `undefined` when it is longer than `maxBytes`: then reading stops there and the
 * body is destroyed (its connection with it), so an endless or enormous answer costs at most `maxBytes` of memory.
 * A `Content-Length` over the cap is refused before a byte is read.
 */
export async function readBodyCapped(response: Pick<Dispatcher.ResponseData, 'headers' | 'body'>, maxBytes: number): Promise<Buffer | undefined> {
	const { body } = response;
	const header = response.headers['content-length'];
	const declared = typeof header === 'string' && /^\d+$/.test(header) ? Number(header) : undefined;
	if (declared !== undefined && declared > maxBytes) {
		discard(body);
		return undefined;
	}
	// A declared length bounds the body (HTTP/1.1 framing: undici reads that many bytes and no more), so it is read
	// whole, at once, without a promise per chunk.
	if (declared !== undefined) return Buffer.from(await body.arrayBuffer());
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of body as AsyncIterable<Buffer>) {
		size += chunk.length;
		if (size > maxBytes) {
			discard(body);
			return undefined;
		}
		chunks.push(chunk);
	}
	return Buffer.concat(chunks);
}

/** Destroys an unread body; undici then emits an abort error, which with no listener would end the process. */
function discard(body: Dispatcher.ResponseData['body']): void {
	body.on('error', () => undefined);
	body.destroy();
}
