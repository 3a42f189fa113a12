import { Agent, type Dispatcher } from 'undici';
import type { LinkedCredentials } from '../accounts/credentials.js';
import { isAcceptableToken } from '../accounts/extractTokens.js';
import { UpstreamError, type UpstreamErrorCode, type UpstreamFailureKind } from './upstreamError.js';
import { generationResponseSchema, type GenerationResponse } from './generationResponse.js';
import { retryLoop, retryPolicy, type Attempted, type RetryPolicy } from '../http/retryLoop.js';
import { readBodyCapped } from '../http/readBodyCapped.js';
import { parseRetryAfterMs } from '../http/parseRetryAfter.js';
import { redactUrl } from '../logging/redactUrl.js';
import { sanitizeError, secretScrubber } from '../logging/sanitizeError.js';
import { sentence, type Sentence } from '../i18n/translate.js';
import { generationBody, type GenerationInput } from './generationBody.js';

/** A generation answer is a few kilobytes; anything past this is not one, and is not read further. */
export const MAX_BODY_BYTES = 1024 * 1024;

const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]); // busy or broken for a moment

const ANSWERS: Record<UpstreamErrorCode, Sentence> = {
	upstream_unavailable: sentence('members.upstream.unavailable'),
	upstream_invalid: sentence('members.upstream.invalid'),
	upstream_refused: sentence('members.upstream.refused'),
	upstream_rejected: sentence('members.upstream.rejected'),
};

/** Options of {@link GenerationClient}; the retry policy defaults as in {@link retryPolicy}. */
export interface GenerationClientOptions extends Partial<RetryPolicy> {
	/** `GENERATION_BASE_URL`; a trailing `/` or a path of its own is fine. */
	baseUrl: string;
	apiKey: string;
	model: string;
	/** Per attempt: from writing the request to the last byte of the answer. */
	timeoutMs: number;
}

/** Per-call options of {@link GenerationClient.generate}. */
export interface GenerateOptions {
	/** The member's linked tokens, sent as `Authorization: Bearer` and `X-Session-Token`. */
	credentials?: LinkedCredentials;
	/** Stops the call, its retries and its waits at once; the call then rejects with `signal.reason`. */
	signal?: AbortSignal;
}

/**
 * The generation endpoint (docs/upstream.md §1, §4) over one keep-alive undici agent, which follows no redirect.
 * Network errors, time-outs, 429, 5xx and unreadable bodies are retried by {@link retryLoop}; every failure is an
 * {@link UpstreamError} whose texts never hold the API key, the tokens or the URL.
 */
export class GenerationClient {
	readonly #agent: Agent;
	readonly #origin: string;
	readonly #path: string;
	readonly #loggableUrl: string;
	readonly #apiKey: string;
	readonly #timeoutMs: number;
	readonly #policy: RetryPolicy;

	constructor(options: GenerationClientOptions) {
		const { baseUrl, apiKey, model, timeoutMs, ...policy } = options;
		const base = new URL(baseUrl);
		this.#origin = base.origin;
		const modelPath = `/v1beta/models/${encodeURIComponent(model)}:generateContent`;
		this.#path = `${base.pathname.replace(/\/+$/, '')}${modelPath}?key=${encodeURIComponent(apiKey)}`;
		this.#loggableUrl = redactUrl(`${this.#origin}${this.#path}`);
		this.#apiKey = apiKey;
		this.#timeoutMs = timeoutMs;
		this.#policy = retryPolicy(policy);
		this.#agent = new Agent({ connectTimeout: timeoutMs });
	}

	/** Sends a lone prompt (with its files, if any) or a conversation's turns; returns the checked answer, or throws an {@link UpstreamError}. */
	async generate(prompt: GenerationInput, options: GenerateOptions = {}): Promise<GenerationResponse> {
		const { credentials, signal } = options;
		// A link stored before tokens were checked may hold what no header can carry: refused, so the member relinks.
		const tokens = credentials ? [credentials.accessToken, credentials.sessionToken] : [];
		if (!tokens.every(isAcceptableToken)) throw this.#failure('upstream_refused', 'the linked tokens cannot be sent in a header');
		const linked = credentials && { authorization: `Bearer ${credentials.accessToken}`, 'x-session-token': credentials.sessionToken };
		const headers = { 'content-type': 'application/json', ...linked };
		const request = { origin: this.#origin, path: this.#path, method: 'POST', headers, body: generationBody(prompt) } as const;
		const attempt = async (signal: AbortSignal) => this.#interpret(await this.#agent.request({ ...request, signal }), linked !== undefined);
		return retryLoop(attempt, {
			...this.#policy,
			timeoutMs: this.#timeoutMs,
			signal,
			onThrow: (error, timedOut) => {
				const what = timedOut ? `timed out after ${this.#timeoutMs} ms` : 'failed';
				const scrub = secretScrubber([this.#apiKey, encodeURIComponent(this.#apiKey), ...tokens]);
				return this.#failure('upstream_unavailable', `generation request to ${this.describeUrl()} ${what}`, {
					cause: sanitizeError(error, scrub),
					kind: timedOut ? 'timeout' : 'network',
				});
			},
		});
	}

	/** The endpoint as it may be logged: the key replaced by `REDACTED`. */
	describeUrl(): string {
		return this.#loggableUrl;
	}

	/** Ends the agent and its sockets at once: callers close once their calls have ended; a hung socket must not hold the exit. */
	async close(): Promise<void> {
		await this.#agent.destroy();
	}

	/** One answer judged, its body read (a 2xx one at most {@link MAX_BODY_BYTES}) and parsed once. */
	async #interpret(response: Dispatcher.ResponseData, linked: boolean): Promise<Attempted<GenerationResponse>> {
		const status = response.statusCode;
		const where = `generation service (${this.describeUrl()}) answered HTTP ${status}`;
		const refuse = (code: UpstreamErrorCode, message: string, retry: boolean, retryAfterMs?: number) =>
			({ ok: false, retry, retryAfterMs, error: this.#failure(code, message, { status }) }) as const;
		if (status >= 200 && status < 300) {
			const bytes = await readBodyCapped(response, MAX_BODY_BYTES);
			// Not retried: an answer that size is what the service chose to send, and asking again would cost it twice more.
			if (bytes === undefined) return refuse('upstream_invalid', `${where} with a body over ${MAX_BODY_BYTES} bytes`, false);
			const result = readGenerationBody(bytes.toString('utf8'));
			return result.ok ? { ok: true, value: result.response } : refuse('upstream_invalid', `${where} ${result.problem}`, true);
		}
		// Unread, the body would pin its socket; dump() reads a little and closes the connection past that.
		await response.body.dump();
		if (status === 401 || status === 403) {
			const answer = linked ? ANSWERS.upstream_refused : sentence('members.upstream.keyRefused');
			return { ok: false, retry: false, error: new UpstreamError({ code: 'upstream_refused', message: where, answer, status }) };
		}
		if (RETRY_STATUSES.has(status)) {
			const retryAfterMs = parseRetryAfterMs(response.headers['retry-after']);
			return refuse('upstream_unavailable', `${where}, the last of ${this.#policy.maxRetries + 1} attempts at most`, true, retryAfterMs);
		}
		if (status >= 500) return refuse('upstream_unavailable', where, false);
		return status >= 400 ? refuse('upstream_rejected', where, false) : refuse('upstream_invalid', `${where}, not an answer`, false);
	}

	#failure(code: UpstreamErrorCode, message: string, details: { status?: number; cause?: unknown; kind?: UpstreamFailureKind } = {}): UpstreamError {
		return new UpstreamError({ code, message, answer: ANSWERS[code], ...details });
	}
}

/** The body parsed and checked against docs/upstream.md §2, or what is wrong with it (never its values). */
function readGenerationBody(text: string): { ok: true; response: GenerationResponse } | { ok: false; problem: string } {
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
	return { ok: false, problem: `off the documented shape (${issues.join('; ')})` };
}
