import { VeilError } from '../errors/veilError.js';
import type { Sentence } from '../i18n/translate.js';

export type LoginErrorCode =
	/** 401/403: wrong email or password */
	| 'login_invalid_credentials'
	/** 429: too many attempts; see `retryAfterSeconds` */
	| 'login_rate_limited'
	/** 5xx, network error or time-out */
	| 'login_unavailable'
	/** a 2xx response without both tokens, or any other unexpected answer */
	| 'login_unreadable';

/** The account service refused or failed a login. A failed login never touches an existing link. */
export class LoginError extends VeilError {
	override readonly name = 'LoginError';
	declare readonly code: LoginErrorCode;
	readonly retryAfterSeconds: number | undefined;

	constructor(options: { code: LoginErrorCode; message: string; answer: Sentence; cause?: unknown; retryAfterSeconds?: number }) {
		super(options);
		this.retryAfterSeconds = options.retryAfterSeconds;
	}
}
