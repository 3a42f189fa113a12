import { request, type Dispatcher } from 'undici';
import { readBodyCapped } from '../http/readBodyCapped.js';

/** Discord's CDN hosts: attachments are fetched from these and nowhere else, unless `DISCORD_CDN_URL` replaces them. */
export const DISCORD_CDN_BASES: readonly string[] = ['https://cdn.discordapp.com/', 'https://media.discordapp.net/'];

/** Why a download gave no bytes; the member is told which. */
export type FetchFailure = 'not-cdn' | 'too-large' | 'unavailable' | 'timeout';

export type FetchedAttachment = { readonly ok: true; readonly bytes: Buffer } | { readonly ok: false; readonly failure: FetchFailure };

export interface FetchAttachmentOptions {
	/** The bases a URL must start with: origin equal, path under the base's. */
	readonly cdnBases: readonly string[];
	readonly maxBytes: number;
	readonly timeoutMs: number;
	readonly dispatcher?: Dispatcher;
}

/** Whether `url` lies under one of `bases` (same scheme, host and port; path below the base's path). */
export function isUnderCdn(url: string, bases: readonly string[]): boolean {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return false;
	}
	if (parsed.username !== '' || parsed.password !== '') return false;
	return bases.some((base) => {
		const root = new URL(base);
		const path = root.pathname.endsWith('/') ? root.pathname : `${root.pathname}/`;
		return parsed.origin === root.origin && parsed.pathname.startsWith(path);
	});
}

/**
 * Downloads one attachment from Discord's CDN: no redirect followed (a 3xx is a failure), the body capped at
 * `maxBytes` while it streams (a larger `Content-Length` is refused before a byte is read), the whole exchange
 * bounded by `timeoutMs`.
 */
export async function fetchAttachment(url: string, options: FetchAttachmentOptions): Promise<FetchedAttachment> {
	if (!isUnderCdn(url, options.cdnBases)) return { ok: false, failure: 'not-cdn' };
	// A timer of its own rather than AbortSignal.timeout: that one would still fire, long after a download ended, into
	// a body already destroyed.
	const controller = new AbortController();
	const timer = setTimeout(() => controller.abort(), options.timeoutMs);
	try {
		const response = await request(url, {
			method: 'GET',
			signal: controller.signal,
			...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
		});
		if (response.statusCode !== 200) {
			await response.body.dump().catch(() => undefined);
			return { ok: false, failure: 'unavailable' };
		}
		const bytes = await readBodyCapped(response, options.maxBytes);
		return bytes === undefined ? { ok: false, failure: 'too-large' } : { ok: true, bytes };
	} catch {
		return { ok: false, failure: controller.signal.aborted ? 'timeout' : 'unavailable' };
	} finally {
		clearTimeout(timer);
	}
}
