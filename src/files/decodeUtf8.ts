const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * The text of `bytes` read strictly as UTF-8, its byte-order mark dropped; `undefined` when they are not valid
 * UTF-8 or hold a NUL (a binary file under a text name).
 */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
	let text: string;
	try {
		text = decoder.decode(bytes);
	} catch {
		return undefined;
	}
	return text.includes('\u0000') ? undefined : text;
}
