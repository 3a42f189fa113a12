import type { InternalRequest } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { exemptFromGlobalLimit } from '../../../../src/discord/internals/discordRest.js';

const request = (fullRoute: string, more: Partial<InternalRequest> = {}) => ({ fullRoute, ...more }) as InternalRequest;

describe("the requests outside the client-side global limit (Discord's interaction exemption)", () => {
	it('are the callbacks and webhook requests sent without the bot token', () => {
		expect(exemptFromGlobalLimit(request('/webhooks/1/token/messages/@original', { auth: false }))).toBe(true);
		expect(exemptFromGlobalLimit(request('/interactions/1/token/callback', { auth: false }))).toBe(true);
		expect(exemptFromGlobalLimit(request('/webhooks/1/token', { auth: false, headers: { 'Content-Type': 'application/json' } }))).toBe(true);
	});

	it('are never a request with the bot token, given by discord.js or by a caller of the proxy', () => {
		expect(exemptFromGlobalLimit(request('/webhooks/1/token/messages/@original'))).toBe(false);
		expect(exemptFromGlobalLimit(request('/webhooks/1/token/messages/@original', { auth: false, headers: { authorization: 'Bot x' } }))).toBe(false);
		expect(exemptFromGlobalLimit(request('/webhooks/1/token/messages/@original', { auth: false, headers: { Authorization: 'Bot x' } }))).toBe(false);
	});

	it('are never another route, whatever its authorization', () => {
		expect(exemptFromGlobalLimit(request('/gateway/bot', { auth: false }))).toBe(false);
		expect(exemptFromGlobalLimit(request('/channels/1/messages', { auth: false }))).toBe(false);
	});
});
