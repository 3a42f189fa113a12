import type { LinkedCredentials } from './credentials.js';

const ACCESS_KEYS = ['access_token', 'accessToken', 'token'] as const;
const SESSION_KEYS = ['session_token', 'sessionToken', 'session', 'sessionId'] as const;
const ACCESS_COOKIES = ['access_token', 'accessToken'] as const;
const SESSION_COOKIES = ['session_token', 'session'] as const;

/** The longest token accepted; real ones are a few hundred characters. */
export const MAX_TOKEN_LENGTH = 8 * 1024;

/**
 * Whether `token` can be stored and sent back: visible ASCII only (0x21 to 0x7E), so it fits a header as is (a
 * `\r\n` in one would break every later request), and at most {@link MAX_TOKEN_LENGTH} characters.
 */
export function isAcceptableToken(token: string): boolean {
	return token.length <= MAX_TOKEN_LENGTH && /^[\x21-\x7E]+$/.test(token);
}

/** What the login response offers: its body as text, its content type and every `Set-Cookie` header. */
interface LoginResponseParts {
	readonly body: string;
	readonly contentType?: string | null;
	readonly setCookie: readonly string[];
}

/**
 * The tokens of a login response, from the first source that holds both (docs/upstream.md §5): a JSON body, whose
 * object or its `data` member names them (`access_token`/`accessToken`/`token`, `session_token`/`sessionToken`/
 * `session`/`sessionId`), else the `Set-Cookie` headers (`access_token`/`accessToken`, `session_token`/`session`).
 * A source with only one token does not count, and tokens are never mixed across sources. `undefined` when none has
 * both, or when a token of the pair found is not {@link isAcceptableToken acceptable}: such an answer is unreadable.
 *
 * The body is tried as JSON whatever its content type says: services send JSON as `text/plain` often enough.
 * A cookie value may be quoted (RFC 6265 allows `"..."`) and percent-encoded (as Express and most frameworks
 * write it); both are undone, and a malformed escape keeps the raw value.
 */
export function extractTokens(response: LoginResponseParts): LinkedCredentials | undefined {
	const tokens = fromJson(response.body) ?? fromCookies(response.setCookie);
	if (tokens === undefined || !isAcceptableToken(tokens.accessToken) || !isAcceptableToken(tokens.sessionToken)) return undefined;
	return tokens;
}

function fromJson(body: string): LinkedCredentials | undefined {
	let parsed: unknown;
	try {
		parsed = JSON.parse(body);
	} catch {
		return undefined;
	}
	if (!isRecord(parsed)) return undefined;
	return pairFrom(parsed) ?? (isRecord(parsed.data) ? pairFrom(parsed.data) : undefined);
}

function pairFrom(record: Record<string, unknown>): LinkedCredentials | undefined {
	const accessToken = firstString(record, ACCESS_KEYS);
	const sessionToken = firstString(record, SESSION_KEYS);
	return accessToken !== undefined && sessionToken !== undefined ? { accessToken, sessionToken } : undefined;
}

function firstString(record: Record<string, unknown>, keys: readonly string[]): string | undefined {
	for (const key of keys) {
		const value = Object.hasOwn(record, key) ? record[key] : undefined;
		if (typeof value === 'string' && value !== '') return value;
	}
	return undefined;
}

function fromCookies(setCookie: readonly string[]): LinkedCredentials | undefined {
	const cookies = new Map<string, string>();
	for (const header of setCookie) {
		if (typeof header !== 'string') continue;
		const cookie = parseSetCookie(header);
		// A later header overrides an earlier one, as in a browser; an empty value is a deletion, not a token.
		if (cookie !== undefined && cookie.value !== '') cookies.set(cookie.name, cookie.value);
	}
	const accessToken = firstOf(cookies, ACCESS_COOKIES);
	const sessionToken = firstOf(cookies, SESSION_COOKIES);
	return accessToken !== undefined && sessionToken !== undefined ? { accessToken, sessionToken } : undefined;
}

function firstOf(cookies: Map<string, string>, names: readonly string[]): string | undefined {
	for (const name of names) {
		const value = cookies.get(name);
		if (value !== undefined) return value;
	}
	return undefined;
}

/** `name=value` before the first `;` of one Set-Cookie header (attributes are not needed here). */
function parseSetCookie(header: string): { name: string; value: string } | undefined {
	const pair = header.split(';', 1)[0] ?? '';
	const equals = pair.indexOf('=');
	if (equals <= 0) return undefined;
	const name = pair.slice(0, equals).trim();
	let value = pair.slice(equals + 1).trim();
	if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
	try {
		value = decodeURIComponent(value);
	} catch {
		// not percent-encoded after all: keep it as sent
	}
	return name === '' ? undefined : { name, value };
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
