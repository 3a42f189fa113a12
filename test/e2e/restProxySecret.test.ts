import { ApplicationCommandOptionType } from 'discord.js';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { PROXY_SECRET_HEADER } from '../../src/discord/restProxySecret.js';
import { runScript, type BotProcess } from '../support/botProcess.js';
import { startTestServices, type TestServices } from '../support/harness.js';
import { startRestProxy, type RestProxyProcess } from '../support/restProxyProcess.js';
import { safeResponse } from '../support/upstreamStandIn.js';

const SECRET = randomBytes(32).toString('base64');

/** The waits on a rate limit the proxy logged, from line `from` of its output on. */
function rateLimitWaits(proxy: RestProxyProcess, from = 0): Array<{ global: boolean; route: string }> {
	return proxy.process.stdout
		.slice(from)
		.filter((line) => line.includes('Discord rate limit'))
		.map((line) => (JSON.parse(line) as { rateLimit: { global: boolean; route: string } }).rateLimit);
}

// A bot process behind `npm run rest-proxy` with REST_PROXY_SECRET set on both: the proxy serves only callers
// that carry the secret, and Veil's own processes do.
describe('npm run rest-proxy with REST_PROXY_SECRET', () => {
	let services: TestServices;
	let proxy: RestProxyProcess;
	let bot: BotProcess;

	beforeAll(async () => {
		// Answers wide open: 150 asks at once each get a generation slot, and every answer is ready together. The
		// 3 s to acknowledge is lengthened: on a loaded machine a process takes longer to start on 150 at once, and
		// the acknowledgement is not what this file is about.
		services = await startTestServices(
			{ REQUIRE_LINK: 'false', ASK_CONCURRENCY: '500', LOG_LEVEL: 'info', REST_PROXY_SECRET: SECRET },
			{ interactionDeadlineMs: 15_000 },
		);
		proxy = await startRestProxy(services.discord.apiUrl, services.discord.token, { REST_PROXY_SECRET: SECRET });
		bot = runScript('src/main.ts', { ...services.env, DISCORD_API_URL: proxy.apiUrl, SHARD_COUNT: '1' });
		await bot.waitForLine(/connected to Discord/, 25_000);
	}, 60_000);

	afterAll(async () => {
		bot?.kill();
		proxy?.process.kill();
		await services?.stop();
	});

	const gatewayBot = (headers: Record<string, string>) =>
		fetch(`${proxy.apiUrl}/v10/gateway/bot`, { headers: { authorization: `Bot ${services.discord.token}`, ...headers } });
	const gatewayRequests = () => services.discord.requests.filter((request) => request.path === '/gateway/bot').length;

	it('refuses a request without the secret, or with another, and never forwards it', async () => {
		const before = gatewayRequests();
		const missing = await gatewayBot({});
		expect(missing.status).toBe(401);
		expect(await missing.json()).toMatchObject({ message: expect.stringMatching(/secret/) });
		expect((await gatewayBot({ [PROXY_SECRET_HEADER]: `${SECRET}x` })).status).toBe(401);
		expect((await gatewayBot({ [PROXY_SECRET_HEADER]: '' })).status).toBe(401);
		expect(gatewayRequests()).toBe(before);
	});

	it('forwards a request with the secret, and the secret never reaches Discord', async () => {
		const before = gatewayRequests();
		const response = await gatewayBot({ [PROXY_SECRET_HEADER]: SECRET });
		expect(response.status).toBe(200);
		expect(gatewayRequests()).toBe(before + 1);
		expect(services.discord.requests.some((request) => PROXY_SECRET_HEADER in request.headers)).toBe(false);
	});

	it('answers 150 members at once through the proxy, no answer held for the 50-a-second global limit', async () => {
		const { discord, upstream } = services;
		const logFrom = proxy.process.stdout.length;
		const since = discord.requests.length;
		upstream.setDefaultGeneration((request) => ({
			json: safeResponse(`Answer to: ${(request.json as { contents: Array<{ parts: Array<{ text: string }> }> }).contents[0]?.parts[0]?.text}`),
			delayMs: 300,
		}));
		const states = await Promise.all(
			Array.from({ length: 150 }, (_, n) =>
				discord
					.slashCommand({
						name: 'ask',
						user: makeUser(`member ${n}`),
						options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: `question ${n}` }],
					})
					.waitForAnswer(30_000),
			),
		);
		expect(states.map((state) => state.original?.content).sort()).toEqual(Array.from({ length: 150 }, (_, n) => `Answer to: question ${n}`).sort());
		// Every answer went through the proxy (the bot sent the secret), and the proxy waited on no global limit.
		const edits = discord.requests.slice(since).filter((request) => request.method === 'PATCH' && request.path.endsWith('/messages/@original'));
		expect(edits.length).toBeGreaterThanOrEqual(150);
		expect(rateLimitWaits(proxy, logFrom)).toEqual([]);
	}, 60_000);

	it('keeps the global limit on requests made with the bot token', async () => {
		const logFrom = proxy.process.stdout.length;
		// Four windows' worth: however the 1 s windows fall, some request has to wait for one.
		const answers = await Promise.all(Array.from({ length: 200 }, () => gatewayBot({ [PROXY_SECRET_HEADER]: SECRET })));
		expect(answers.every((answer) => answer.status === 200)).toBe(true);
		const waits = rateLimitWaits(proxy, logFrom);
		expect(waits.length).toBeGreaterThan(0);
		expect(waits.every((wait) => wait.global)).toBe(true);
	}, 30_000);
});

describe('npm run rest-proxy off loopback', () => {
	it('refuses to start without REST_PROXY_SECRET, naming it and never listening', async () => {
		const open = runScript('src/restProxy.ts', { DISCORD_TOKEN: 'token', REST_PROXY_HOST: '0.0.0.0', REST_PROXY_PORT: '0' });
		expect(await open.exited).toBe(1);
		expect(open.stderr.join('\n')).toMatch(/REST_PROXY_SECRET: missing/);
		expect(open.stdout.join('\n')).not.toMatch(/listening/);
	});
});
