import { VeilError } from '../answers/veilError.js';

export type UpstreamErrorCode =
	/** network error, time-out, 429 or 5xx after the retries */
	| 'upstream_unavailable'
	/** a body that is not JSON or not the response shape of docs/upstream.md */
	| 'upstream_invalid'
	/** 401/403 from generation: the member's linked tokens (or Veil's key) were refused */
	| 'upstream_refused'
	/** any other 4xx from generation */
	| 'upstream_rejected';

/** The text-generation service failed or answered something unusable. */
export class UpstreamError extends VeilError {
	override readonly name = 'UpstreamError';
	declare readonly code: UpstreamErrorCode;
	/** HTTP status of the last attempt, when there was one. */
	readonly status: number | undefined;

	constructor(options: { code: UpstreamErrorCode; message: string; userMessage: string; cause?: unknown; status?: number }) {
		super(options);
		this.status = options.status;
	}
}
