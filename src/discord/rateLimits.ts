import type { RateLimitData } from 'discord.js';

/**
 * The longest Veil lets one Discord request sit out a rate limit. Longer waits fail at once (as a RateLimitError)
 * so an ask ends with an answer, and a shutdown (7 s of grace) is never held by a 429.
 */
export const MAX_RATE_LIMIT_WAIT_MS = 5000;

// A webhook route's major parameter is `applicationId/interactionToken`, and an interaction callback's path holds
// its token: neither may reach a log.
const TOKEN_SEGMENT = /(\/(?:webhooks|interactions)\/[^/]+\/)[^/?]+/g;

/** What a rate-limit event says, safe to log: routes and parameters without interaction tokens, never the URL. */
export function describeRateLimit(info: RateLimitData): Record<string, unknown> {
	return {
		method: info.method,
		route: info.route.replace(TOKEN_SEGMENT, '$1:token'),
		majorParameter: info.majorParameter.includes('/') ? `${info.majorParameter.split('/')[0]}/:token` : info.majorParameter,
		global: info.global,
		scope: info.scope,
		limit: info.limit,
		retryAfterMs: info.retryAfter,
		timeToResetMs: info.timeToReset,
	};
}

/**
 * Whether a request should give up rather than wait: the wait is too long, or the bot is stopping. A 429 without
 * bucket headers is waited out as a "sublimit" of its Retry-After, not as the bucket's time to reset, so the
 * longest of the three is the wait.
 */
export function shouldGiveUpWaiting(info: Pick<RateLimitData, 'timeToReset' | 'retryAfter' | 'sublimitTimeout'>, stopping: boolean): boolean {
	return stopping || Math.max(info.timeToReset, info.retryAfter, info.sublimitTimeout) > MAX_RATE_LIMIT_WAIT_MS;
}
