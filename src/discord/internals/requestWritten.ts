/*
 * Reaches past discord.js's public API; checked against discord.js 14.28.1 and @discordjs/rest 2.6.3. It relies on
 * @discordjs/rest handing a request that no rate limit holds back to its `makeRequest` (undici's fetch) within the
 * turn of the event loop the request was made in: its queues wait on promises only, never on a timer.
 * test/unit/discord/internals/requestWritten.test.ts fails when that changes.
 */

/**
 * Resolves once a request made through the client's REST in this turn of the event loop (and not held by a rate
 * limit) is on its way, so work started after it no longer delays it.
 */
export function requestWritten(): Promise<void> {
	return new Promise((resolve) => setImmediate(resolve));
}
