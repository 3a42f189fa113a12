import { randomBytes } from 'node:crypto';
import type { APIUser } from 'discord.js';
import { DiscordEmulator, makeUser } from '../sandbox/discord/emulator.js';
import { freePort, RedisServer, redisServerAvailable } from '../test/support/redisServer.js';
import { safeResponse, UpstreamStandIn } from '../test/support/upstreamStandIn.js';
import { startBotProcess, type BotUnderTest } from './botUnderTest.js';
import { AskTracker, type LoadResult } from './load.js';
import { addGuilds, prepareVeil, startKind, veil, type BenchPlan } from './scenario.js';

/** Veil behind `npm run rest-proxy`: the deployment of several processes on one machine, as the README shows it. */
export const PROXY_PROCESSES = 2;

export type ProxyOutcome =
	| {
			readonly load: LoadResult;
			/** CPU an ask offered, in ms: the proxy's, and the bots' together. */
			readonly proxyCpuMs: number;
			readonly botsCpuMs: number;
	  }
	| { readonly skipped: string };

/**
 * Two Veil processes (shards 0 and 1 of 2, the Procfile's command) on one Redis, both sending through one REST proxy
 * (the compiled `npm run rest-proxy`, with a secret), on a local Discord and upstream stand-in of their own: `count`
 * asks at `rate` a second, after a warm-up. What they answer is compared with one bare bot's at the same rate: the
 * proxy must not hold the answers to the 50-a-second global limit it keeps for the bot token.
 */
export async function runProxyPhase(plan: BenchPlan, rate: number, count: number, log: (line: string) => void): Promise<ProxyOutcome> {
	if (!redisServerAvailable) return { skipped: 'no redis-server on PATH' };
	const redis = await RedisServer.start({ persistent: false });
	const emulator = await DiscordEmulator.start({ defaultTimeoutMs: 30_000 });
	const upstream = await UpstreamStandIn.start();
	const tracker = new AskTracker(emulator);
	const processes: BotUnderTest[] = [];
	try {
		upstream.setDefaultGeneration((request) => {
			const prompt = (request.json as { contents?: Array<{ parts?: Array<{ text?: string }> }> }).contents?.[0]?.parts?.[0]?.text;
			return { json: safeResponse(`Answer to: ${prompt}`), delayMs: plan.upstreamMs };
		});
		const guilds = [emulator.defaultGuild, ...addGuilds(emulator, plan.guildsFirst - 1)];
		const members: APIUser[] = Array.from({ length: plan.members }, (_, n) => makeUser(`bench${n}`));
		const secret = randomBytes(32).toString('base64');
		const proxyPort = await freePort();
		const proxy = startBotProcess('dist/src/restProxy.js', {
			DISCORD_TOKEN: emulator.token,
			DISCORD_API_URL: emulator.apiUrl,
			REST_PROXY_PORT: String(proxyPort),
			REST_PROXY_SECRET: secret,
			LOG_LEVEL: 'warn',
		});
		processes.push(proxy);
		// Not waited on to go idle: the bots' start runs through it.
		await untilHealthy(proxyPort, proxy);

		const veilEnv = {
			DISCORD_TOKEN: emulator.token,
			DISCORD_APPLICATION_ID: emulator.applicationId,
			DISCORD_API_URL: `http://127.0.0.1:${proxyPort}/api`,
			REST_PROXY_SECRET: secret,
			GENERATION_BASE_URL: upstream.baseUrl,
			GENERATION_API_KEY: upstream.apiKey,
			GENERATION_MODEL: upstream.model,
			AUTH_BASE_URL: upstream.authBaseUrl,
			AUTH_PATH_PREFIX: upstream.pathPrefix,
			SHARD_COUNT: String(PROXY_PROCESSES),
			...(await prepareVeil(redis.url, members)),
		};
		for (let shard = 0; shard < PROXY_PROCESSES; shard++) processes.push(startKind(veil, { ...veilEnv, SHARD_IDS: String(shard) }));
		await emulator.waitUntil(() => emulator.identifies.length >= PROXY_PROCESSES, 'every shard identified', 60_000);
		for (const running of processes.slice(1)) await running.waitForIdle({ timeoutMs: 60_000 });

		// Every member asks once first, as in a deployment that has run a while: each process has seen the members
		// of its shards linked, so their asks are acknowledged before the store is read (the single bot's phases
		// above have run hundreds of asks before their 200/s).
		await tracker.offer({ rate: 100, count: Math.max(plan.warmUp, plan.members), members, guilds, timeoutMs: 30_000 });
		for (const running of processes.slice(1)) await running.waitForIdle({ windowMs: 500, timeoutMs: 30_000 });
		tracker.forget();
		const before = await Promise.all(processes.map((running) => running.sample()));
		const load = await tracker.offer({ rate, count, members, guilds, timeoutMs: 30_000 + (count / 40) * 1000 });
		const after = await Promise.all(processes.map((running) => running.sample()));
		const cpuMs = after.map((reply, n) => (reply.cpuMicros - (before[n]?.cpuMicros ?? 0)) / 1000 / count);
		log(
			`  Veil ×${PROXY_PROCESSES} behind the proxy: ${rate}/s: ${load.answered}/${count} answered (${load.wrong} wrong) in ${load.seconds.toFixed(1)} s`,
		);
		return { load, proxyCpuMs: cpuMs[0] ?? Number.NaN, botsCpuMs: cpuMs.slice(1).reduce((sum, ms) => sum + ms, 0) };
	} catch (error) {
		for (const running of processes) process.stderr.write(`${running.stderr.join('').slice(-2000)}`);
		throw error;
	} finally {
		tracker.close();
		await Promise.allSettled(processes.map((running) => running.stop()));
		await Promise.allSettled([emulator.stop(), upstream.stop(), redis.stop()]);
	}
}

async function untilHealthy(port: number, proxy: BotUnderTest): Promise<void> {
	for (let attempt = 0; attempt < 300; attempt++) {
		const answered = await fetch(`http://127.0.0.1:${port}/healthz`).then(
			(response) => response.ok,
			() => false,
		);
		if (answered) return;
		await new Promise((wake) => setTimeout(wake, 100));
	}
	throw new Error(`the REST proxy never answered /healthz: ${proxy.stderr.join('').slice(-2000)}`);
}
