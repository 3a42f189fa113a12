import { Routes, type InternalRequest } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { DiscordRest, exemptFromGlobalLimit } from '../../../../src/discord/internals/discordRest.js';

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

describe('DiscordRest over @discordjs/rest 2.6', () => {
	/** A DiscordRest whose requests go nowhere: `makeRequest` (the library's own option) answers each at once. */
	function rest() {
		const paths: string[] = [];
		const client = new DiscordRest({
			makeRequest: async (url) => {
				paths.push(new URL(url).pathname);
				return new Response(null, { status: 204 });
			},
		}).setToken('bot-token');
		return { client, paths };
	}

	it('sees every request in queueRequest, the exempt ones on its tokenless side', async () => {
		const { client, paths } = rest();
		await client.patch(Routes.webhookMessage('1', 'token', '@original'), { body: {}, auth: false });
		expect(client.interactionHandlerCount).toBe(1);
		await client.get(Routes.user('@me'));
		await client.patch(Routes.webhookMessage('1', 'token', '@original'), { body: {} });
		expect(client.interactionHandlerCount).toBe(1);
		expect(paths).toHaveLength(3);
		client.clearHashSweeper();
		client.clearHandlerSweeper();
	});

	it('holds the exempt requests to no global limit: 120 edits at once are all sent at once', async () => {
		const { client, paths } = rest();
		const started = performance.now();
		await Promise.all(
			Array.from({ length: 120 }, (_, n) =>
				client.patch(Routes.webhookMessage('123456789012345678', `token${n}`, '@original'), { body: {}, auth: false }),
			),
		);
		expect(paths).toHaveLength(120);
		// Past 50 the library's global limit would hold the rest until the next second.
		expect(performance.now() - started).toBeLessThan(500);
		client.clearHashSweeper();
		client.clearHandlerSweeper();
	});
});
