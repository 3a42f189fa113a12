import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeRateLimit, MAX_RATE_LIMIT_WAIT_MS, shouldGiveUpWaiting } from '../../../src/discord/rateLimits.js';

const token = 'aW50ZXJhY3Rpb246MTIzNDU2Nzg5OmFiY2RlZmdoaWprbG1ub3A';
const info = {
	global: false,
	method: 'PATCH',
	url: `http://127.0.0.1/api/v10/webhooks/111111111111111111/${token}/messages/%40original`,
	route: `/webhooks/:id/${token}/messages/@original`,
	majorParameter: `111111111111111111/${token}`,
	hash: 'h',
	limit: 5,
	timeToReset: 12_000,
	retryAfter: 12_000,
	sublimitTimeout: 0,
	scope: 'user' as const,
};

describe('describeRateLimit', () => {
	it('keeps the route and the wait, never the URL or an interaction token', () => {
		const described = describeRateLimit(info);
		expect(JSON.stringify(described)).not.toContain(token);
		expect(described).not.toHaveProperty('url');
		expect(described).toMatchObject({
			route: '/webhooks/:id/:token/messages/@original',
			majorParameter: '111111111111111111/:token',
			retryAfterMs: 12_000,
		});
		expect(describeRateLimit({ ...info, route: `/interactions/222222222222222222/${token}/callback`, majorParameter: 'global' }).route).toBe(
			'/interactions/222222222222222222/:token/callback',
		);
	});
});

describe('shouldGiveUpWaiting', () => {
	it('waits out a short limit, gives up a long one, and gives up any wait while stopping', () => {
		fc.assert(
			fc.property(fc.nat(60_000), fc.nat(60_000), fc.nat(60_000), fc.boolean(), (timeToReset, retryAfter, sublimitTimeout, stopping) => {
				const longest = Math.max(timeToReset, retryAfter, sublimitTimeout);
				expect(shouldGiveUpWaiting({ timeToReset, retryAfter, sublimitTimeout }, stopping)).toBe(stopping || longest > MAX_RATE_LIMIT_WAIT_MS);
			}),
		);
	});
});
