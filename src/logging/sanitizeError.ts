import { redactUrl } from './redactUrl.js';

/** Shorter strings are not replaced: a one-letter "secret" would shred every message. */
const MIN_SECRET_LENGTH = 4;
const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi;

/**
 * A function that removes the given secrets (every occurrence, replaced by `REDACTED`) and the secret query
 * parameters of any URL from a text. Undefined and very short entries are skipped.
 */
export function secretScrubber(secrets: ReadonlyArray<string | undefined>): (text: string) => string {
	const list = [...new Set(secrets)]
		.filter((secret): secret is string => secret !== undefined && secret.length >= MIN_SECRET_LENGTH)
		// Longest first, so a secret that contains another is replaced whole.
		.sort((a, b) => b.length - a.length);
	return (text) => {
		let scrubbed = text.replace(URL_PATTERN, (url) => redactUrl(url));
		for (const secret of list) scrubbed = scrubbed.replaceAll(secret, 'REDACTED');
		return scrubbed;
	};
}

/**
 * A stand-in for a caught error that is safe to keep as a `cause` and log: only its name, its `code` and its
 * message passed through `scrub`. The original's stack, its own `cause` and fields such as undici's `socket`,
 * `headers` or `body` are left behind, since any of them could hold a URL, a key or a form body.
 */
export function sanitizeError(error: unknown, scrub: (text: string) => string): Error {
	const source = error instanceof Error ? error : undefined;
	const safe = new Error(scrub(source?.message ?? String(error)));
	safe.name = scrub(source?.name ?? 'Error');
	const code = (error as { code?: unknown } | null | undefined)?.code;
	if (typeof code === 'string' || typeof code === 'number') Object.assign(safe, { code });
	// The stack was built with the generic name; rebuild its first line so a logged stack names the original kind.
	safe.stack = `${safe.name}: ${safe.message}\n${(safe.stack ?? '').split('\n').slice(1).join('\n')}`;
	return safe;
}
