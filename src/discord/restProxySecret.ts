import { createHash, timingSafeEqual } from 'node:crypto';

/** The header Veil's processes send REST_PROXY_SECRET in. The proxy checks it and never forwards it to Discord. */
export const PROXY_SECRET_HEADER = 'x-veil-proxy-secret';

/** The headers a process adds to every request to Discord's REST: the proxy's secret, when one is set. */
export function proxySecretHeaders(secret: string | undefined): Record<string, string> {
	return secret === undefined ? {} : { [PROXY_SECRET_HEADER]: secret };
}

/**
 * Tells whether a request's header value is `secret`, compared in constant time whatever the lengths (digests of
 * equal length, the secret's made once).
 */
export function proxySecretCheck(secret: string): (value: string | string[] | undefined) => boolean {
	const expected = digest(secret);
	return (value) => typeof value === 'string' && timingSafeEqual(digest(value), expected);
}

function digest(text: string): Buffer {
	return createHash('sha256').update(text).digest();
}
