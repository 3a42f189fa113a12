/** What every Veil error carries: the logged `message` (never a secret) apart from the member's `userMessage`. */
interface VeilErrorOptions {
	/** Stable machine-readable kind, logged beside the message. */
	readonly code: string;
	/** What is logged. */
	readonly message: string;
	/** The plain sentence the member reads, from `messages`. */
	readonly userMessage: string;
	readonly cause?: unknown;
}

/**
 * Errors that carry two texts: `message`, which is logged, and `userMessage`, the sentence the member sees. The
 * interaction router is the one place that turns an error into an answer.
 */
export class VeilError extends Error {
	override readonly name: string = 'VeilError';
	readonly code: string;
	readonly userMessage: string;

	constructor(options: VeilErrorOptions) {
		super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
		this.code = options.code;
		this.userMessage = options.userMessage;
	}
}

/** Something the member asked for that cannot be done as asked (bad input, missing permission, unknown id). */
export class UserInputError extends VeilError {
	override readonly name = 'UserInputError';

	/** `userMessage` is what is logged too: a refusal names nothing secret. `code` defaults to `bad_input`. */
	constructor(options: { userMessage: string; code?: string }) {
		super({ code: options.code ?? 'bad_input', message: options.userMessage, userMessage: options.userMessage });
	}
}
