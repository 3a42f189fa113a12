import { Routes } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { DiscordRest } from '../../../../src/discord/internals/discordRest.js';
import { requestWritten } from '../../../../src/discord/internals/requestWritten.js';

describe('a request made through the REST of @discordjs/rest 2.6', () => {
	it('is handed to makeRequest by the time requestWritten resolves, a deferral and an edit alike', async () => {
		const handed: string[] = [];
		const rest = new DiscordRest({
			makeRequest: async (url) => {
				handed.push(decodeURIComponent(new URL(url).pathname));
				return new Response(null, { status: 204 });
			},
		}).setToken('bot-token');
		// The deferral's route, as deferOriginal sends it, and the edits', with the bot's route beside them.
		const requests = [
			rest.post(Routes.interactionCallback('10', 'token'), { body: {}, auth: false }),
			rest.patch(Routes.webhookMessage('123456789012345678', 'token', '@original'), { body: {}, auth: false }),
			rest.get(Routes.user('@me')),
		];
		await requestWritten();
		expect(handed).toEqual([
			'/api/v10/interactions/10/token/callback',
			'/api/v10/webhooks/123456789012345678/token/messages/@original',
			'/api/v10/users/@me',
		]);
		await Promise.all(requests);
		rest.clearHashSweeper();
		rest.clearHandlerSweeper();
	});
});
