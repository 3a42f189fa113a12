import { createHash, timingSafeEqual } from 'node:crypto';

/** The header Veil's processes send REST_PROXY_SECRET in. The proxy checks it and never forwards it to Discord. */
export const PROXY_SECRET_HEADER = 'x-veil-proxy-secret';

/** The headers a process adds to every request to Discord's REST: the proxy's secret, when one is set. */
export function proxySecretHeaders(secret: string | undefined): Record<string, string> {
	return secret === undefined ? {} : { [PROXY_SECRET_HEADER]: secret };
}

/** Whether a request's header value is the secret; compared in constant time, whatever the lengths. */
export function carriesProxySecret(value: string | string[] | undefined, secret: string): boolean {
	if (typeof value !== 'string') return false;
	return timingSafeEqual(digest(value), digest(secret));
}

function digest(text: string): Buffer {
	return createHash('sha256').update(text).digest();
}
