/** Query parameters whose value is a secret, compared case-insensitively. */
const SECRET_PARAMS = new Set(['key', 'token', 'access_token', 'password', 'secret', 'api_key']);

export const REDACTED = 'REDACTED';

// A name=value pair after a delimiter or the start; the name may be percent-encoded, as a server would decode it.
const PAIR = /(^|[?&;#\s])([^=&;#?\s]*)=([^&;#\s]*)/g;

/**
 * The URL with the value of every secret query parameter (`key`, `token`, `access_token`, `password`, `secret`,
 * `api_key`, any case) and any userinfo replaced by `REDACTED`, safe to log. Never throws: a string that
 * does not parse as a URL is redacted pair by pair, so `key=...` stays hidden even in a fragment of a URL.
 */
export function redactUrl(url: string | URL): string {
	const text = String(url);
	let parsed: URL;
	try {
		parsed = new URL(text);
	} catch {
		return redactPairs(text);
	}
	let changed = false;
	// Userinfo is dropped whole: services take a token as the user name as often as in the password.
	if (parsed.username !== '' || parsed.password !== '') {
		parsed.username = REDACTED;
		parsed.password = '';
		changed = true;
	}
	const entries = [...parsed.searchParams];
	if (entries.some(([name]) => isSecretName(name))) {
		parsed.search = new URLSearchParams(entries.map(([name, value]): [string, string] => [name, isSecretName(name) ? REDACTED : value])).toString();
		changed = true;
	}
	// OAuth implicit flows put tokens in the fragment (`#access_token=...`).
	if (parsed.hash.includes('=')) {
		const hash = redactPairs(parsed.hash);
		if (hash !== parsed.hash) {
			parsed.hash = hash;
			changed = true;
		}
	}
	// Leave an innocent URL byte for byte as it came, rather than re-serialised.
	return changed ? parsed.toString() : text;
}

function redactPairs(text: string): string {
	return text.replace(PAIR, (pair: string, lead: string, name: string) => (isSecretName(name) ? `${lead}${name}=${REDACTED}` : pair));
}

function isSecretName(name: string): boolean {
	let decoded = name.replaceAll('+', ' ');
	try {
		decoded = decodeURIComponent(decoded);
	} catch {
		// a malformed escape: compare the raw name
	}
	return SECRET_PARAMS.has(decoded.trim().toLowerCase());
}
