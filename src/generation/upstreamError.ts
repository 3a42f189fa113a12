import { VeilError } from '../errors/veilError.js';
import type { Sentence } from '../i18n/translate.js';

export type UpstreamErrorCode =
	/** network error, time-out, 429 or 5xx after the retries */
	| 'upstream_unavailable'
	/** a body that is not JSON or not the response shape of docs/upstream.md */
	| 'upstream_invalid'
	/** 401/403 from generation: the member's linked tokens (or Veil's key) were refused */
	| 'upstream_refused'
	/** any other 4xx from generation */
	| 'upstream_rejected';

/** What went wrong upstream, as the circuit breaker and the logs ask it, without re-deriving it from a status. */
export type UpstreamFailureKind =
	/** no answer: the connection failed or was reset */
	| 'network'
	/** no answer within GENERATION_TIMEOUT_MS */
	| 'timeout'
	/** 429: the service answers, and says to slow down */
	| 'rate_limited'
	/** 5xx */
	| 'server_error'
	/** an answer that is not the response docs/upstream.md describes */
	| 'invalid_body'
	/** 401/403 */
	| 'refused'
	/** any other 4xx */
	| 'rejected';

/** The kinds that mean the service is not answering (rather than answering no): what opens the circuit breaker. */
export const SERVICE_DOWN_KINDS: ReadonlySet<UpstreamFailureKind> = new Set(['network', 'timeout', 'server_error']);

/** The text-generation service failed or answered something unusable. */
export class UpstreamError extends VeilError {
	override readonly name = 'UpstreamError';
	declare readonly code: UpstreamErrorCode;
	readonly kind: UpstreamFailureKind;
	/** HTTP status of the last attempt, when there was one. */
	readonly status: number | undefined;

	/** Without a `kind`, it follows from the code and the status (no status: a network failure). */
	constructor(options: { code: UpstreamErrorCode; message: string; answer: Sentence; cause?: unknown; status?: number; kind?: UpstreamFailureKind }) {
		super(options);
		this.status = options.status;
		this.kind = options.kind ?? kindOf(options.code, options.status);
	}
}

function kindOf(code: UpstreamErrorCode, status: number | undefined): UpstreamFailureKind {
	switch (code) {
		case 'upstream_invalid':
			return 'invalid_body';
		case 'upstream_refused':
			return 'refused';
		case 'upstream_rejected':
			return 'rejected';
		case 'upstream_unavailable':
			if (status === undefined) return 'network';
			return status >= 500 ? 'server_error' : 'rate_limited';
	}
}
