/**
 * Errors that carry two texts: `message`, which is logged (never with a secret in it), and `userMessage`, the
 * plain sentence the member sees. The interaction dispatcher is the one place that turns an error into an answer.
 */
export class VeilError extends Error {
	override readonly name: string = 'VeilError';
	readonly code: string;
	readonly userMessage: string;

	constructor(code: string, message: string, userMessage: string, options?: { cause?: unknown }) {
		super(message, options);
		this.code = code;
		this.userMessage = userMessage;
	}
}

/** Something the member asked for that cannot be done as asked (bad input, missing permission, unknown id). */
export class UserInputError extends VeilError {
	override readonly name = 'UserInputError';

	constructor(userMessage: string, code = 'bad_input') {
		super(code, userMessage, userMessage);
	}
}

export type UpstreamErrorCode =
	/** network error, time-out, 429 or 5xx after the retries */
	| 'upstream_unavailable'
	/** a body that is not JSON or not the shape of the seed's §2.2 */
	| 'upstream_invalid'
	/** 401/403 from generation: the member's linked tokens were refused */
	| 'upstream_refused'
	/** any other 4xx from generation */
	| 'upstream_rejected';

/** The text-generation service failed or answered something unusable. */
export class UpstreamError extends VeilError {
	override readonly name = 'UpstreamError';
	declare readonly code: UpstreamErrorCode;
	/** HTTP status of the last attempt, when there was one. */
	readonly status: number | undefined;

	constructor(
		code: UpstreamErrorCode,
		message: string,
		userMessage: string,
		options?: { cause?: unknown; status?: number },
	) {
		super(code, message, userMessage, options);
		this.status = options?.status;
	}
}

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

	constructor(
		code: LoginErrorCode,
		message: string,
		userMessage: string,
		options?: { cause?: unknown; retryAfterSeconds?: number },
	) {
		super(code, message, userMessage, options);
		this.retryAfterSeconds = options?.retryAfterSeconds;
	}
}

/** The store did not answer in time or failed. */
export class StoreError extends VeilError {
	override readonly name = 'StoreError';

	constructor(message: string, options?: { cause?: unknown }) {
		super(
			'store_unavailable',
			message,
			"Veil's storage isn't answering right now. Please try again in a minute.",
			options,
		);
	}
}

/** A sealed record that does not open: wrong key, another user's record, or altered bytes. */
export class SealError extends VeilError {
	override readonly name = 'SealError';

	constructor(message: string, options?: { cause?: unknown }) {
		super(
			'seal_invalid',
			message,
			'Your saved link could not be read. Please run /link again.',
			options,
		);
	}
}

/** What Veil says, in one plain line, when Discord refuses the bot token (the token itself never). */
export const TOKEN_REJECTED_MESSAGE =
	'Discord rejected DISCORD_TOKEN (401 Unauthorized): copy the bot token again from the Developer Portal.';
