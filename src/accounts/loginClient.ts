import { Agent } from 'undici';
import type { LinkedCredentials } from './credentials.js';
import { LoginError, type LoginErrorCode } from './loginError.js';
import { extractTokens } from './extractTokens.js';
import { parseRetryAfterMs } from '../http/parseRetryAfter.js';
import { retryLoop, retryPolicy } from '../http/retryLoop.js';
import { readBodyCapped } from '../http/readBodyCapped.js';
import { sanitizeError, secretScrubber } from '../logging/sanitizeError.js';
import { sentence, type Sentence } from '../i18n/translate.js';

const DEFAULT_RATE_LIMIT_SECONDS = 60;

/** A login answer is a few hundred bytes; anything past this is not one, and is not read further. */
export const MAX_BODY_BYTES = 64 * 1024;

const ANSWERS: Record<Exclude<LoginErrorCode, 'login_rate_limited'>, Sentence> = {
	login_invalid_credentials: sentence('members.login.invalidCredentials'),
	login_unavailable: sentence('members.login.unavailable'),
	login_unreadable: sentence('members.login.unreadable'),
};

/** Options of {@link LoginClient}. */
export interface LoginClientOptions {
	/** `AUTH_BASE_URL`; a trailing `/` or a path of its own is fine. */
	authBaseUrl: string;
	/** `AUTH_PATH_PREFIX`: one path segment, slashes around it ignored. */
	pathPrefix: string;
	/** The whole exchange, connect to last byte. Default 15000. */
	timeoutMs?: number;
}

/**
 * The login endpoint (docs/upstream.md §5), one attempt through the shared {@link retryLoop}: a login is never sent
 * twice, so a time-out or a dropped connection is reported, not retried. Every failure is a {@link LoginError};
 * neither the email nor the password ever appears in its texts or its `cause`, and the service's body never reaches
 * the member.
 */
export class LoginClient {
	readonly #agent: Agent;
	readonly #origin: string;
	readonly #path: string;
	readonly #timeoutMs: number;

	constructor(options: LoginClientOptions) {
		const base = new URL(options.authBaseUrl);
		const prefix = options.pathPrefix
			.split('/')
			.filter((segment) => segment !== '')
			.map((segment) => `/${encodeURIComponent(segment)}`)
			.join('');
		this.#origin = base.origin;
		this.#path = `${base.pathname.replace(/\/+$/, '')}${prefix}/api/auth/login`;
		this.#timeoutMs = options.timeoutMs ?? 15_000;
		this.#agent = new Agent({ connectTimeout: this.#timeoutMs });
	}

	/** The endpoint, for logs (it holds no secret). */
	describeUrl(): string {
		return `${this.#origin}${this.#path}`;
	}

	/**
	 * Exchanges an email and password for the account's tokens, or throws a {@link LoginError} (or `signal.reason`
	 * when the caller aborts). The form is `URLSearchParams` encoding, i.e. `application/x-www-form-urlencoded`
	 * proper: a space is sent as `+` and a literal `+` as `%2B`, which every form decoder reads back exactly.
	 */
	async login(email: string, password: string, options: { signal?: AbortSignal } = {}): Promise<LinkedCredentials> {
		const { signal } = options;
		const form = new URLSearchParams({ username: email, password });
		const scrub = secretScrubber([
			email,
			password,
			encodeURIComponent(email),
			encodeURIComponent(password),
			new URLSearchParams({ v: email }).toString().slice(2),
			new URLSearchParams({ v: password }).toString().slice(2),
			form.toString(),
		]);
		const answer = await retryLoop(
			async (attemptSignal) => {
				const response = await this.#agent.request({
					origin: this.#origin,
					path: this.#path,
					method: 'POST',
					headers: { 'content-type': 'application/x-www-form-urlencoded' },
					body: form.toString(),
					signal: attemptSignal,
				});
				const { statusCode: status, headers } = response;
				if (status >= 200 && status < 300) return { ok: true, value: { status, headers, body: await readBodyCapped(response, MAX_BODY_BYTES) } };
				// Unread, the body would pin its socket; dump() reads a little and closes the connection past that.
				await response.body.dump();
				return { ok: true, value: { status, headers, body: undefined } };
			},
			{
				...retryPolicy({ maxRetries: 0 }),
				timeoutMs: this.#timeoutMs,
				signal,
				onThrow: (error, timedOut) => {
					const what = timedOut ? `timed out after ${this.#timeoutMs} ms` : 'failed';
					return this.#failure('login_unavailable', `login request to ${this.describeUrl()} ${what}`, {
						cause: sanitizeError(error, scrub),
					});
				},
			},
		);
		return this.#interpret(answer.status, answer.headers, answer.body);
	}

	/**
	 * Ends the dispatcher and its sockets at once: callers close only after their calls have finished or been
	 * aborted, and a hung connection must not hold the exit.
	 */
	async close(): Promise<void> {
		await this.#agent.destroy();
	}

	/** `body` is a 2xx answer's, `undefined` past {@link MAX_BODY_BYTES}. */
	#interpret(status: number, headers: Record<string, string | string[] | undefined>, body: Buffer | undefined): LinkedCredentials {
		const where = `account service (${this.describeUrl()}) answered HTTP ${status}`;
		if (status >= 200 && status < 300) {
			if (body === undefined) throw this.#failure('login_unreadable', `${where} with a body over ${MAX_BODY_BYTES} bytes`);
			const contentType = headers['content-type'];
			const tokens = extractTokens({
				body: body.toString('utf8'),
				contentType: Array.isArray(contentType) ? contentType[0] : contentType,
				setCookie: asList(headers['set-cookie']),
			});
			if (tokens === undefined) throw this.#failure('login_unreadable', `${where} without two acceptable tokens`);
			return tokens;
		}
		if (status === 401 || status === 403) throw this.#failure('login_invalid_credentials', where);
		if (status === 429) {
			const waitMs = parseRetryAfterMs(headers['retry-after']) ?? DEFAULT_RATE_LIMIT_SECONDS * 1000;
			const seconds = Math.max(1, Math.ceil(waitMs / 1000));
			throw new LoginError({
				code: 'login_rate_limited',
				message: `${where}, retry after ${seconds} s`,
				answer: sentence('members.login.rateLimited', { count: seconds }),
				retryAfterSeconds: seconds,
			});
		}
		if (status >= 500) throw this.#failure('login_unavailable', where);
		throw this.#failure('login_unreadable', `${where}, not a login answer`);
	}

	#failure(code: Exclude<LoginErrorCode, 'login_rate_limited'>, message: string, options?: { cause?: unknown }) {
		return new LoginError({ code, message, answer: ANSWERS[code], ...options });
	}
}

function asList(value: string | string[] | undefined): string[] {
	if (value === undefined) return [];
	return Array.isArray(value) ? value : [value];
}
