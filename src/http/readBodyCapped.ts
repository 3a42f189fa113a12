import type { Dispatcher } from 'undici';

/**
 * The whole body of `response`, or `undefined` when it is longer than `maxBytes`: then reading stops there and the
 * body is destroyed (its connection with it), so an endless or enormous answer costs at most `maxBytes` of memory.
 * A `Content-Length` over the cap is refused before a byte is read.
 */
export async function readBodyCapped(
	response: Pick<Dispatcher.ResponseData, 'headers' | 'body'>,
	maxBytes: number,
): Promise<Buffer | undefined> {
	const { body } = response;
	const declared = Number(response.headers['content-length']);
	if (declared > maxBytes) {
		body.destroy();
		return undefined;
	}
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of body as AsyncIterable<Buffer>) {
		size += chunk.length;
		if (size > maxBytes) {
			body.destroy();
			return undefined;
		}
		chunks.push(chunk);
	}
	return Buffer.concat(chunks);
}
