import type { LinkedCredentials } from '../../src/accounts/credentials.js';
import { HARM_CATEGORIES, type HarmCategory, type SafetyRating } from '../../src/generation/generationResponse.js';

// Bodies and answers for the upstream stand-in, also used by tests to script it.

/** What the stand-in answers one request with. */
export interface ScriptedAnswer {
	/** Default 200. */
	status?: number;
	/** Sent as JSON (content type `application/json` unless `headers` say otherwise). */
	json?: unknown;
	/** Sent as is (content type `text/plain` unless `headers` say otherwise). */
	body?: string;
	headers?: Record<string, string | string[]>;
	/** Wait before sending the headers. */
	delayMs?: number;
	/** Send the headers, then hold the body back this long. */
	stallBodyMs?: number;
	/** Reset the connection instead of answering: a network error. */
	destroy?: boolean;
	/** Never answer; `stop()` closes the connection. */
	hang?: boolean;
	/** Answer only once this settles (then after `delayMs`): a test decides when a call ends. */
	until?: Promise<unknown>;
}

/** The response shapes of a good login, after the accepted forms of docs/upstream.md §5. */
export type LoginShape = 'json-snake' | 'json-camel' | 'json-token-sessionId' | 'json-data' | 'cookies';

/** Members a real generation service adds beyond docs/upstream.md §2. */
export const REAL_SERVICE_EXTRAS = {
	usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 14, totalTokenCount: 23 },
	modelVersion: 'textmodel-pro-002',
	responseId: 'stand-in-response',
} as const;

/** Options of {@link generationResponse}; `null` leaves the member out. */
export interface GenerationResponseOptions {
	text?: string;
	promptRatings?: SafetyRating[] | null;
	candidateRatings?: SafetyRating[] | null;
	finishReason?: string | null;
	/** With no `text`, also leaves the candidates out, as a blocked prompt does. */
	blockReason?: string;
	/** Top-level members to add, e.g. {@link REAL_SERVICE_EXTRAS}. */
	extra?: Record<string, unknown>;
}

/** The four harm categories, each `NEGLIGIBLE` unless overridden. */
export function ratingsWith(overrides: Partial<Record<HarmCategory, string>> = {}): SafetyRating[] {
	return HARM_CATEGORIES.map((category) => ({ category, probability: overrides[category] ?? 'NEGLIGIBLE' }));
}

/** A generation response body in the shape of docs/upstream.md §2. */
export function generationResponse(options: GenerationResponseOptions = {}): Record<string, unknown> {
	const { text, blockReason, extra } = options;
	const promptRatings = options.promptRatings === undefined ? ratingsWith() : options.promptRatings;
	const candidateRatings = options.candidateRatings === undefined ? ratingsWith() : options.candidateRatings;
	const finishReason = options.finishReason === undefined ? 'STOP' : options.finishReason;
	const candidate = {
		content: { parts: [{ text: text ?? 'Hello from the stand-in.' }], role: 'model' },
		...(finishReason === null ? {} : { finishReason }),
		index: 0,
		...(candidateRatings === null ? {} : { safetyRatings: candidateRatings }),
	};
	return {
		...(blockReason !== undefined && text === undefined ? {} : { candidates: [candidate] }),
		promptFeedback: {
			...(blockReason === undefined ? {} : { blockReason }),
			...(promptRatings === null ? {} : { safetyRatings: promptRatings }),
		},
		...extra,
	};
}

/** A response every safety check clears, with `text` as its answer. */
export function safeResponse(text: string, overrides: Omit<GenerationResponseOptions, 'text'> = {}) {
	return generationResponse({ ...overrides, text });
}

/** The answer to a good login in the given shape. */
export function loginResponse(shape: LoginShape, tokens: LinkedCredentials): ScriptedAnswer {
	const { accessToken, sessionToken } = tokens;
	switch (shape) {
		case 'json-snake':
			return { json: { access_token: accessToken, session_token: sessionToken, expires_in: 3600 } };
		case 'json-camel':
			return { json: { accessToken, sessionToken, expiresIn: 3600 } };
		case 'json-token-sessionId':
			return { json: { token: accessToken, sessionId: sessionToken } };
		case 'json-data':
			return { json: { status: 'ok', data: { access_token: accessToken, session_token: sessionToken } } };
		case 'cookies':
			return {
				json: { status: 'ok' },
				headers: {
					'set-cookie': [
						`access_token=${encodeURIComponent(accessToken)}; Path=/; HttpOnly; Secure; SameSite=Lax`,
						`session_token=${encodeURIComponent(sessionToken)}; Path=/; HttpOnly; Secure`,
					],
				},
			};
	}
}
