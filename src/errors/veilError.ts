import { SOURCE_LOCALE } from '../i18n/locales.js';
import { render, type Sentence } from '../i18n/translate.js';

/**
 * Every kind of Veil error, closed: a new one is added here, and the metrics' outcome map (operations/metrics.ts)
 * must then say how an ask that ends with it is counted.
 */
export type VeilErrorCode =
	| 'ask_busy'
	| 'ask_cancelled'
	| 'ask_daily_limit'
	| 'ask_in_progress'
	| 'ask_rate_limited'
	| 'conversation_expired'
	| 'file_not_cdn'
	| 'thread_exists'
	| 'thread_not_allowed'
	| 'file_not_utf8'
	| 'file_pdf_large'
	| 'file_pdf_pages'
	| 'file_pdf_slow'
	| 'file_pdf_unreadable'
	| 'file_timeout'
	| 'file_too_large'
	| 'file_too_long'
	| 'file_too_many'
	| 'file_unavailable'
	| 'file_unsupported'
	| 'files_too_long'
	| 'flag_not_found'
	| 'form_expired'
	| 'instructions_empty'
	| 'instructions_text_and_clear'
	| 'instructions_too_long'
	| 'language_unknown'
	| 'limits_negative'
	| 'link_bad_email'
	| 'link_bad_password'
	| 'link_rate_limited'
	| 'login_invalid_credentials'
	| 'login_rate_limited'
	| 'login_unavailable'
	| 'login_unreadable'
	| 'message_without_text'
	| 'missing_permission'
	| 'modlog_permissions'
	| 'modlog_unknown_channel'
	| 'not_asker'
	| 'not_in_guild'
	| 'not_owner'
	| 'prompt_empty'
	| 'prompt_too_long'
	| 'regenerate_in_progress'
	| 'release_dm_failed'
	| 'release_dms_closed'
	| 'release_erased'
	| 'release_failed'
	| 'release_forbidden'
	| 'report_already'
	| 'report_nobody'
	| 'review_already'
	| 'review_closed'
	| 'review_gone'
	| 'review_not_asker'
	| 'seal_invalid'
	| 'shutting_down'
	| 'store_unavailable'
	| 'store_write_unconfirmed'
	| 'unknown_command'
	| 'unknown_component'
	| 'unsupported_interaction'
	| 'upstream_breaker_open'
	| 'upstream_invalid'
	| 'upstream_refused'
	| 'upstream_rejected'
	| 'upstream_unavailable'
	| 'version_expired'
	| 'wrong_decision';

/** What every Veil error carries: the logged `message` (never a secret) apart from the `answer` its reader sees. */
interface VeilErrorOptions {
	/** Stable machine-readable kind, logged beside the message. */
	readonly code: VeilErrorCode;
	/** What is logged, in English. */
	readonly message: string;
	/** The sentence the member reads, rendered in their locale by whoever answers. */
	readonly answer: Sentence;
	readonly cause?: unknown;
	/** The answer is for the member alone, even where the acknowledgement is a public "thinking…". Default false. */
	readonly private?: boolean;
}

/**
 * Errors that carry two texts: `message`, which is logged, and `answer`, the sentence the reader sees, chosen where
 * the error is thrown and rendered in the reader's locale where it is answered. The interaction router is the one
 * place that turns an error into an answer.
 */
export class VeilError extends Error {
	override readonly name: string = 'VeilError';
	readonly code: VeilErrorCode;
	readonly answer: Sentence;
	/** Answered to the member alone, and nothing public left behind (see VeilErrorOptions.private). */
	readonly private: boolean;

	constructor(options: VeilErrorOptions) {
		super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
		this.code = options.code;
		this.answer = options.answer;
		this.private = options.private ?? false;
	}
}

/** Something the member asked for that cannot be done as asked (bad input, missing permission, unknown id). */
export class UserInputError extends VeilError {
	override readonly name = 'UserInputError';

	/** The answer, in English, is what is logged too: a refusal names nothing secret. It is the member's alone. */
	constructor(options: { answer: Sentence; code: VeilErrorCode }) {
		super({ code: options.code, message: render(SOURCE_LOCALE, options.answer), answer: options.answer, private: true });
	}
}
