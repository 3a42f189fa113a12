import type { Dispatcher } from 'undici';

/** An attempt that outlived its deadline; the code is in undici's style so retry logic can match on it. */
export class AttemptTimeoutError extends Error {
	override readonly name = 'AttemptTimeoutError';
	readonly code = 'VEIL_ATTEMPT_TIMEOUT';
}

/** A response body larger than the buffer allows. */
export class ResponseTooLargeError extends Error {
	override readonly name = 'ResponseTooLargeError';
	readonly code = 'VEIL_RESPONSE_TOO_LARGE';
}

/** A 2xx body the caller's `accept` check turned down; retried like a failure of the wire. */
export class UnacceptableBodyError extends Error {
	override readonly name = 'UnacceptableBodyError';
	readonly code = 'VEIL_UNACCEPTABLE_BODY';
	/** The HTTP status it came with (not `statusCode`, which undici's retry logic reads as "a status to retry"). */
	readonly status: number;

	constructor(message: string, status: number) {
		super(message);
		this.status = status;
	}
}

/** Options of {@link bufferAttempts}. */
export interface BufferAttemptsOptions {
	/** Per attempt, from writing the request to the last body byte. */
	timeoutMs: number;
	maxBodyBytes: number;
	/** Checks a whole 2xx body; a returned reason fails the attempt with an {@link UnacceptableBodyError}. */
	accept?: (body: Buffer) => string | undefined;
}

/**
 * An undici interceptor, composed *under* `interceptors.retry`, that makes each attempt all or nothing: it gives
 * the attempt `timeoutMs` from the moment the request is written to the last body byte, and holds the whole
 * response back until its body has arrived.
 *
 * Why: undici's RetryHandler passes a 2xx response on as soon as its headers arrive; if the body then stalls or
 * the socket drops, it tries to *resume* the body with a `Range` request, which for a POST fails with
 * "Content-Range mismatch". Buffered, a body failure reaches the RetryHandler before any headers did, as an
 * ordinary error it retries. A total deadline per attempt also catches a server that trickles bytes, which
 * `bodyTimeout` (time between chunks) would not. With `accept`, a 2xx body that cannot be used fails its attempt
 * the same way, so an unreadable answer is retried too (SPEC §5.6).
 */
export function bufferAttempts(options: BufferAttemptsOptions): Dispatcher.DispatcherComposeInterceptor {
	return (dispatch) => (opts, handler) => dispatch(opts, new BufferedAttempt(handler, options));
}

type ResponseHeaders = Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>[2];

interface HeldResponse {
	statusCode: number;
	headers: ResponseHeaders;
	statusMessage: string | undefined;
}

class BufferedAttempt implements Dispatcher.DispatchHandler, Dispatcher.DispatchController {
	readonly #downstream: Dispatcher.DispatchHandler;
	readonly #options: BufferAttemptsOptions;
	#upstream: Dispatcher.DispatchController | undefined;
	#timer: NodeJS.Timeout | undefined;
	#response: HeldResponse | undefined;
	#chunks: Buffer[] = [];
	#bytes = 0;
	/** The connection is done with this attempt (ended or failed). */
	#settled = false;
	/** The downstream has the whole response. */
	#delivered = false;
	/** The downstream was told the attempt failed. */
	#failed = false;
	#aborted = false;
	#reason: Error | null = null;
	#paused = false;
	#steps: Array<() => void> = [];
	#pumping = false;

	constructor(downstream: Dispatcher.DispatchHandler, options: BufferAttemptsOptions) {
		this.#downstream = downstream;
		this.#options = options;
	}

	// The handler side, facing the connection.

	onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
		this.#upstream = controller;
		if (this.#aborted) {
			controller.abort(this.#reason ?? new Error('aborted'));
			return;
		}
		this.#timer ??= setTimeout(() => {
			controller.abort(new AttemptTimeoutError(`no complete answer within ${this.#options.timeoutMs} ms`));
		}, this.#options.timeoutMs);
		this.#downstream.onRequestStart?.(this, context);
	}

	onResponseStart(
		_controller: Dispatcher.DispatchController,
		statusCode: number,
		headers: ResponseHeaders,
		statusMessage?: string,
	): void {
		// Interim 1xx answers are the connection's business, not a response.
		if (statusCode >= 200) this.#response = { statusCode, headers, statusMessage };
	}

	onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
		this.#bytes += chunk.length;
		if (this.#bytes > this.#options.maxBodyBytes) {
			controller.abort(new ResponseTooLargeError(`response body over ${this.#options.maxBodyBytes} bytes`));
			return;
		}
		this.#chunks.push(chunk);
	}

	onResponseEnd(_controller: Dispatcher.DispatchController, trailers: ResponseHeaders): void {
		this.#settle();
		if (this.#aborted) return;
		const response = this.#response;
		if (response === undefined) {
			this.#fail(new Error('response ended before it started'));
			return;
		}
		const body = Buffer.concat(this.#chunks);
		this.#chunks = [];
		const { statusCode } = response;
		const refusal = statusCode >= 200 && statusCode < 300 ? this.#options.accept?.(body) : undefined;
		if (refusal !== undefined) {
			this.#fail(new UnacceptableBodyError(refusal, statusCode));
			return;
		}
		if (body.length > 0) this.#steps.push(() => this.#downstream.onResponseData?.(this, body));
		this.#steps.push(() => {
			this.#delivered = true;
			this.#downstream.onResponseEnd?.(this, trailers);
		});
		this.#downstream.onResponseStart?.(this, statusCode, response.headers, response.statusMessage);
		this.#pump();
	}

	onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
		this.#settle();
		this.#fail(error);
	}

	// The controller side, facing the RetryHandler above.

	get aborted(): boolean {
		return this.#aborted;
	}

	get paused(): boolean {
		return this.#paused;
	}

	get reason(): Error | null {
		return this.#reason;
	}

	pause(): void {
		this.#paused = true;
	}

	resume(): void {
		this.#paused = false;
		this.#pump();
	}

	abort(reason: Error): void {
		if (this.#aborted) return;
		this.#aborted = true;
		this.#reason = reason;
		if (!this.#settled) {
			// The connection reports the abort back through onResponseError (or at onRequestStart, if not started).
			this.#upstream?.abort(reason);
			return;
		}
		// Already over on the wire (held for a retry, or failed): the abort is still this attempt's last word, and
		// the RetryHandler above passes an aborted attempt's error straight down instead of retrying.
		this.#steps = [];
		if (!this.#delivered) queueMicrotask(() => this.#downstream.onResponseError?.(this, reason));
	}

	#settle(): void {
		this.#settled = true;
		clearTimeout(this.#timer);
	}

	#fail(error: Error): void {
		if (this.#delivered || this.#failed) return;
		this.#failed = true;
		this.#steps = [];
		this.#downstream.onResponseError?.(this, error);
	}

	#pump(): void {
		if (this.#pumping) return;
		this.#pumping = true;
		try {
			while (this.#steps.length > 0 && !this.#paused && !this.#aborted) this.#steps.shift()?.();
		} finally {
			this.#pumping = false;
		}
	}
}
