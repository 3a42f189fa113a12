import { Agent, interceptors, type Dispatcher } from 'undici';
import { bufferAttempts, ResponseTooLargeError, UnacceptableBodyError } from './bufferAttempts.js';
import type { LinkedCredentials } from '../accounts/credentials.js';
import { UpstreamError, type UpstreamErrorCode } from './upstreamError.js';
import { generationResponseSchema, type GenerationResponse } from './generationResponse.js';
import { jitteredRetry, RETRY_CODES, RETRY_STATUSES } from './generationRetry.js';
import { redactUrl } from '../logging/redactUrl.js';
import { sanitizeError, secretScrubber } from '../logging/sanitizeError.js';
import { messages } from '../answers/messages.js';
import { generationBody, type Turn } from '../conversations/buildContents.js';

/** A generation answer is a few kilobytes; anything near this is not one. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

const USER_MESSAGES: Record<UpstreamErrorCode, string> = {
	upstream_unavailable: messages.upstream.unavailable,
	upstream_invalid: messages.upstream.invalid,
	upstream_refused: messages.upstream.refused,
	upstream_rejected: messages.upstream.rejected,
};

/** Options of {@link GenerationClient}. */
export interface GenerationClientOptions {
	/** `GENERATION_BASE_URL`; a trailing `/` or a path of its own is fine. */
	baseUrl: string;
	apiKey: string;
	model: string;
	/** Per attempt: from writing the request to the last byte of the answer. */
	timeoutMs: number;
	/** Retries after the first attempt. Default 2. */
	maxRetries?: number;
	/** First back-off before jitter. Default 500. */
	minRetryDelayMs?: number;
	/** Cap of every wait, `Retry-After` included. Default 8000. */
	maxRetryDelayMs?: number;
}

/** Per-call options of {@link GenerationClient.generate}. */
export interface GenerateOptions {
	/** The member's linked tokens, sent as `Authorization: Bearer` and `X-Session-Token`. */
	credentials?: LinkedCredentials;
	/** Stops the call, its retries and its waits at once; the call then rejects with `signal.reason`. */
	signal?: AbortSignal;
}

/**
 * The generation endpoint of the seed (SPEC §4) over one keep-alive undici dispatcher. Retries (undici's
 * `interceptors.retry` with a jittered back-off of our own) cover network errors, time-outs, 429 and 5xx; every
 * failure is an {@link UpstreamError} whose texts never hold the API key, the tokens or the URL.
 */
export class GenerationClient {
	readonly #agent: Agent;
	readonly #dispatcher: Dispatcher;
	readonly #origin: string;
	readonly #path: string;
	readonly #apiKey: string;
	readonly #maxRetries: number;

	constructor(options: GenerationClientOptions) {
		const base = new URL(options.baseUrl);
		this.#origin = base.origin;
		const basePath = base.pathname.replace(/\/+$/, '');
		this.#path =
			`${basePath}/v1beta/models/${encodeURIComponent(options.model)}:generateContent` +
			`?key=${encodeURIComponent(options.apiKey)}`;
		this.#apiKey = options.apiKey;
		const policy = {
			maxRetries: options.maxRetries ?? 2,
			minRetryDelayMs: options.minRetryDelayMs ?? 500,
			maxRetryDelayMs: options.maxRetryDelayMs ?? 8000,
		};
		this.#maxRetries = policy.maxRetries;
		const { timeoutMs } = options;
		// undici's own time-outs back up the per-attempt deadline of bufferAttempts.
		this.#agent = new Agent({ connectTimeout: timeoutMs, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
		// compose() wraps in order, so the retry interceptor is outermost and every attempt passes bufferAttempts.
		this.#dispatcher = this.#agent.compose(
			bufferAttempts({
				timeoutMs,
				maxBodyBytes: MAX_BODY_BYTES,
				accept: (body) => {
					const result = readGenerationBody(body.toString('utf8'));
					return result.ok ? undefined : result.problem;
				},
			}),
			interceptors.retry({
				// Hand the last retryable status over as a response instead of an error, so its body is read.
				throwOnError: false,
				methods: ['POST'],
				// jitteredRetry decides alone; these mirror it for anyone reading the options.
				maxRetries: policy.maxRetries,
				minTimeout: policy.minRetryDelayMs,
				maxTimeout: policy.maxRetryDelayMs,
				statusCodes: [...RETRY_STATUSES],
				errorCodes: [...RETRY_CODES],
				retry: jitteredRetry(policy),
			}),
		);
	}

	/**
	 * Sends a lone prompt, or a conversation's turns ending with the new prompt; returns the validated answer, or
	 * throws an {@link UpstreamError} (or `signal.reason`).
	 */
	async generate(prompt: string | readonly Turn[], options: GenerateOptions = {}): Promise<GenerationResponse> {
		const { credentials, signal } = options;
		signal?.throwIfAborted();
		const scrub = secretScrubber([
			this.#apiKey,
			encodeURIComponent(this.#apiKey),
			credentials?.accessToken,
			credentials?.sessionToken,
		]);
		const headers: Record<string, string> = { 'content-type': 'application/json' };
		if (credentials !== undefined) {
			headers.authorization = `Bearer ${credentials.accessToken}`;
			headers['x-session-token'] = credentials.sessionToken;
		}
		let status: number;
		let text: string;
		try {
			const pending = this.#dispatcher.request({
				origin: this.#origin,
				path: this.#path,
				method: 'POST',
				headers,
				body: generationBody(prompt),
				signal,
			});
			const response = await untilAborted(pending, signal);
			status = response.statusCode;
			// bufferAttempts read the whole body off the socket before passing the headers on; this drains its copy.
			text = await response.body.text();
		} catch (error) {
			if (signal?.aborted) throw signal.reason;
			if (error instanceof UnacceptableBodyError) {
				const where = `generation service (${this.describeUrl()}) answered HTTP ${error.status}`;
				throw this.#failure('upstream_invalid', `${where} ${error.message}, every attempt`, { status: error.status });
			}
			if (error instanceof ResponseTooLargeError) {
				throw this.#failure('upstream_invalid', `generation service (${this.describeUrl()}) sent ${error.message}`, {});
			}
			throw this.#failure('upstream_unavailable', `generation request to ${this.describeUrl()} failed`, {
				cause: sanitizeError(error, scrub),
			});
		}
		return this.#interpret(status, text, credentials !== undefined);
	}

	/** The endpoint as it may be logged: the key replaced by `REDACTED`. */
	describeUrl(): string {
		return redactUrl(`${this.#origin}${this.#path}`);
	}

	/**
	 * Ends the dispatcher and its sockets at once: callers close only after their calls have finished or been
	 * aborted, and a hung connection must not hold the exit.
	 */
	async close(): Promise<void> {
		await this.#agent.destroy();
	}

	#interpret(status: number, text: string, linked: boolean): GenerationResponse {
		const where = `generation service (${this.describeUrl()}) answered HTTP ${status}`;
		if (status >= 200 && status < 300) {
			const result = readGenerationBody(text);
			if (!result.ok) throw this.#failure('upstream_invalid', `${where} ${result.problem}`, { status });
			return result.response;
		}
		if (status === 401 || status === 403) {
			const userMessage = linked ? USER_MESSAGES.upstream_refused : messages.upstream.keyRefused;
			throw new UpstreamError({ code: 'upstream_refused', message: where, userMessage, status });
		}
		if (status >= 500 || status === 429) {
			const retried = RETRY_STATUSES.has(status) ? `, the last of ${this.#maxRetries + 1} attempts at most` : '';
			throw this.#failure('upstream_unavailable', `${where}${retried}`, { status });
		}
		if (status >= 400 && status < 500) throw this.#failure('upstream_rejected', where, { status });
		throw this.#failure('upstream_invalid', `${where}, not an answer`, { status });
	}

	#failure(code: UpstreamErrorCode, message: string, options: { cause?: unknown; status?: number }): UpstreamError {
		return new UpstreamError({ code, message, userMessage: USER_MESSAGES[code], ...options });
	}
}

/** The body parsed and checked against the seed's §2.2, or what is wrong with it (never its values). */
function readGenerationBody(
	text: string,
): { ok: true; response: GenerationResponse } | { ok: false; problem: string } {
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		return { ok: false, problem: 'with a body that is not JSON' };
	}
	const parsed = generationResponseSchema.safeParse(json);
	if (parsed.success) return { ok: true, response: parsed.data };
	// Paths and issue codes only: the values are the service's and may echo anything, the key included.
	const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.code}`);
	return { ok: false, problem: `off the seed's shape (${issues.join('; ')})` };
}

/** `promise`, or a rejection with `signal.reason` the moment the signal aborts, whichever comes first. */
function untilAborted(
	promise: Promise<Dispatcher.ResponseData>,
	signal: AbortSignal | undefined,
): Promise<Dispatcher.ResponseData> {
	if (signal === undefined) return promise;
	return new Promise((resolve, reject) => {
		const onAbort = (): void => reject(signal.reason);
		signal.addEventListener('abort', onAbort, { once: true });
		promise.then(
			(response) => {
				signal.removeEventListener('abort', onAbort);
				// Lost the race: let the late body go so its socket is freed.
				if (signal.aborted) response.body.destroy();
				resolve(response);
			},
			(error: unknown) => {
				signal.removeEventListener('abort', onAbort);
				reject(error);
			},
		);
	});
}
