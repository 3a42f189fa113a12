import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscordEmulator } from '../../sandbox/discord/emulator.js';
import { runScript } from '../support/botProcess.js';
import { startRestProxy, type RestProxyProcess } from '../support/restProxyProcess.js';

describe('npm run rest-proxy', () => {
	let discord: DiscordEmulator;
	let proxy: RestProxyProcess;

	beforeAll(async () => {
		discord = await DiscordEmulator.start();
		proxy = await startRestProxy(discord.apiUrl, discord.token);
	});
	afterAll(async () => {
		proxy?.process.kill();
		await discord?.stop();
	});

	it("forwards a bot's requests, with the bot's own token, to Discord", async () => {
		const response = await fetch(`${proxy.apiUrl}/v10/gateway/bot`, { headers: { authorization: `Bot ${discord.token}` } });
		expect(response.status).toBe(200);
		expect(await response.json()).toMatchObject({ shards: 4, url: discord.gatewayUrl });
	});

	it("answers Discord's errors as Discord gave them, not as an empty success", async () => {
		const response = await fetch(`${proxy.apiUrl}/v10/gateway/bot`);
		expect(response.status).toBe(401);
		expect(await response.json()).toMatchObject({ message: '401: Unauthorized' });
		const missing = await fetch(`${proxy.apiUrl}/v10/channels/1/messages/2`, { headers: { authorization: `Bot ${discord.token}` } });
		expect(missing.status).toBe(404);
	});

	it('exits 1 naming a missing token and a bad port, and never logs the token', async () => {
		const bad = runScript('src/restProxy.ts', { REST_PROXY_PORT: 'eighty' });
		expect(await bad.exited).toBe(1);
		expect(bad.stderr.join('\n')).toMatch(/DISCORD_TOKEN: missing[\s\S]*REST_PROXY_PORT: invalid/);
		expect(proxy.process.stdout.join('\n')).not.toContain(discord.token);
	});
});
