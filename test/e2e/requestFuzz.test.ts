import { ApplicationCommandOptionType } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { runScript, type BotProcess } from '../support/botProcess.js';
import { startTestServices, type TestServices } from '../support/harness.js';
import { malformedRequests, sendAll, URL_CRASHERS } from '../support/rawRequests.js';
import { startRestProxy, type RestProxyProcess } from '../support/restProxyProcess.js';
import { safeResponse } from '../support/upstreamStandIn.js';

// Every port Veil opens, each behind its own process: the operators' endpoint of a bot (METRICS_PORT, on its
// default address) and the REST proxy the bot sends through. Malformed and random requests, over raw TCP, must end
// neither; afterwards both still answer /healthz and the bot still answers a member.
describe('malformed requests to the ports Veil opens', () => {
	let services: TestServices;
	let proxy: RestProxyProcess;
	let proxyPort: number;
	let bot: BotProcess;
	let operatorPort: number;

	beforeAll(async () => {
		// Discord's 3 s to acknowledge is lengthened: the member's ask only shows the bot still answers.
		services = await startTestServices({ REQUIRE_LINK: 'false', LOG_LEVEL: 'info' }, { interactionDeadlineMs: 15_000 });
		proxy = await startRestProxy(services.discord.apiUrl, services.discord.token);
		proxyPort = proxy.port;
		bot = runScript('src/main.ts', { ...services.env, DISCORD_API_URL: proxy.apiUrl, METRICS_PORT: '0', SHARD_COUNT: '1' });
		const listening = JSON.parse(await bot.waitForLine(/operator endpoint listening/, 25_000)) as { host: string; port: number };
		operatorPort = listening.port;
		expect(listening.host).toBe('127.0.0.1');
		await bot.waitForLine(/connected to Discord/, 25_000);
	}, 60_000);

	afterAll(async () => {
		bot?.kill();
		proxy?.process.kill();
		await services?.stop();
	});

	const healthz = async (port: number) => (await fetch(`http://127.0.0.1:${port}/healthz`)).status;

	it("leave the bot's operators' endpoint answering, the bot running and answering members", async () => {
		await sendAll(
			operatorPort,
			URL_CRASHERS.map((text) => Buffer.from(text)),
		);
		await sendAll(operatorPort, malformedRequests(2500, 19));
		expect(await healthz(operatorPort)).toBe(200);
		expect((await fetch(`http://127.0.0.1:${operatorPort}/readyz`)).status).toBe(200);
		expect(bot.child.exitCode).toBeNull();

		services.upstream.setDefaultGeneration({ json: safeResponse('still here') });
		const asked = await services.discord
			.slashCommand({ name: 'ask', user: makeUser('after'), options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'hi' }] })
			.waitForAnswer(30_000);
		expect(asked.original?.content).toBe('still here');
	}, 60_000);

	it('leave the REST proxy answering and forwarding', async () => {
		await sendAll(proxyPort, malformedRequests(2500, 26));
		// What the proxy forwarded of the fuzz is the fuzzer's, not Veil's: the local Discord refused it as Discord would.
		services.discord.takeApiViolations();
		expect(await healthz(proxyPort)).toBe(200);
		expect(proxy.process.child.exitCode).toBeNull();
		const forwarded = await fetch(`${proxy.apiUrl}/v10/gateway/bot`, { headers: { authorization: `Bot ${services.discord.token}` } });
		expect(forwarded.status).toBe(200);
	}, 60_000);
});
