import { type APIUser, ApplicationCommandOptionType } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../../sandbox/discord/emulator.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { pollUntil } from '../../support/moderation.js';
import { metricsText, readyz, samples, sample } from '../../support/operators.js';
import { PausableProxy } from '../../support/pausableProxy.js';
import { generationResponse, ratingsWith, safeResponse } from '../../support/upstreamStandIn.js';
import { testRedisUrl } from '../../support/testRedis.js';

describe("the operators' endpoint (METRICS_PORT), over HTTP", () => {
	let proxy: PausableProxy;
	let harness: Harness;
	let port: number;

	beforeAll(async () => {
		const target = new URL(testRedisUrl());
		proxy = await PausableProxy.start({ host: target.hostname, port: Number(target.port || 6379) });
		harness = await startHarness({
			env: { STORE_URL: `redis://127.0.0.1:${proxy.port}`, METRICS_PORT: '0', METRICS_HOST: '127.0.0.1' },
			// Heartbeats often enough that every shard has a ping to report.
			discord: { heartbeatIntervalMs: 250 },
		});
		port = harness.bot.operatorPort as number;
	});
	afterAll(async () => {
		proxy?.resume();
		await harness?.stop();
		await proxy?.stop();
	});

	const ask = (user: APIUser, prompt: string) =>
		harness.discord
			.slashCommand({ name: 'ask', user, options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: prompt }] })
			.waitForAnswer(10_000);

	it('answers /healthz, and /readyz once every shard Discord recommended is READY and the store answers', async () => {
		expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
		const ready = await readyz(port);
		expect(ready).toEqual({ status: 200, body: { ready: true, shards: { 0: 'Ready', 1: 'Ready', 2: 'Ready', 3: 'Ready' }, store: 'answering' } });
		expect((await fetch(`http://127.0.0.1:${port}/nowhere`)).status).toBe(404);
	});

	it('counts asks by outcome, times generation calls, and names no member, prompt or secret', async () => {
		const linked = makeUser('linked');
		await harness.linkMember(linked.id);
		const before = await samples(port);

		harness.upstream.scriptGeneration({ json: safeResponse('a fine answer') });
		expect((await ask(linked, 'shown prompt canary')).original?.content).toBe('a fine answer');
		harness.upstream.scriptGeneration({
			json: generationResponse({ text: 'held', candidateRatings: ratingsWith({ HARM_CATEGORY_HARASSMENT: 'HIGH' }) }),
		});
		expect((await ask(linked, 'hidden prompt')).original?.content).toMatch(/hidden/i);
		expect((await ask(makeUser('unlinked'), 'refused prompt')).original?.content).toMatch(/link/i);
		harness.upstream.scriptGeneration({ status: 401, json: { error: { code: 401 } } });
		expect((await ask(linked, 'account refused')).original?.content).toMatch(/\/link/);
		harness.upstream.scriptGeneration({ status: 500 }, { status: 500 }, { status: 500 });
		expect((await ask(linked, 'failing prompt')).original?.content).toBeTruthy();

		// A shown ask is counted as its answer goes out, which the metrics may hear of after the test has seen the answer.
		let after = await samples(port);
		const moved = (outcome: string) => after(`veil_asks_total{outcome="${outcome}"}`) - before(`veil_asks_total{outcome="${outcome}"}`);
		await pollUntil(async () => {
			after = await samples(port);
			return moved('shown') > 0;
		}, 'the shown ask counted');
		expect({
			shown: moved('shown'),
			hidden: moved('hidden'),
			refused: moved('refused'),
			error: moved('error'),
			busy: moved('busy'),
			limited: moved('limited'),
		}).toEqual({
			shown: 1,
			hidden: 1,
			refused: 2,
			error: 1,
			busy: 0,
			limited: 0,
		});
		expect(after('veil_generation_duration_seconds_count') - before('veil_generation_duration_seconds_count')).toBe(4);
		for (const gauge of ['veil_ask_queue_length', 'veil_asks_in_flight', 'veil_store_errors_total', 'process_cpu_seconds_total']) {
			expect(sample(await metricsText(port), gauge), gauge).toBeTypeOf('number');
		}

		const text = await metricsText(port);
		for (const secret of [linked.id, 'shown prompt canary', 'a fine answer', harness.config.discordToken, harness.config.generationApiKey]) {
			expect(text).not.toContain(secret);
		}
	});

	it('counts links by outcome', async () => {
		harness.upstream.addAccount('op@example.com', 'right');
		const before = await samples(port);
		const submit = (user: APIUser, email: string, password: string) =>
			harness.discord.modalSubmit({ customId: 'link:submit', user, fields: { email, password } }).waitForAnswer();
		expect((await submit(makeUser('a'), 'op@example.com', 'right')).original?.content).toMatch(/Linked/);
		await submit(makeUser('b'), 'op@example.com', 'wrong');
		await submit(makeUser('c'), 'not an email', 'x');
		const after = await samples(port);
		const moved = (outcome: string) => after(`veil_links_total{outcome="${outcome}"}`) - before(`veil_links_total{outcome="${outcome}"}`);
		expect([moved('linked'), moved('refused'), moved('invalid'), moved('error')]).toEqual([1, 1, 1, 0]);
	});

	it("reports each shard's gateway ping, in seconds, once it has one", async () => {
		const pingOf = (text: string, shard: number) => sample(text, `veil_gateway_ping_seconds{shard="${shard}"}`);
		let text = '';
		await pollUntil(async () => {
			text = await metricsText(port);
			return [0, 1, 2, 3].every((shard) => pingOf(text, shard) !== undefined);
		}, 'a ping of every shard');
		// A heartbeat round trip on the loopback: measured (never discord.js's -1 before the first), well under a second.
		for (const shard of [0, 1, 2, 3]) {
			expect(pingOf(text, shard), `shard ${shard}`).toBeGreaterThanOrEqual(0);
			expect(pingOf(text, shard), `shard ${shard}`).toBeLessThan(1);
		}
		// Only the four shards Discord recommended.
		expect(text.match(/^veil_gateway_ping_seconds\{/gm)).toHaveLength(4);
	});

	it('turns not ready while a shard is down (reconnecting, resuming), and ready again once it is back', async () => {
		harness.discord.holdShard(2);
		try {
			harness.discord.closeShardSocket(2);
			await pollUntil(async () => (await readyz(port)).status === 503, '/readyz to answer 503');
			const down = await readyz(port);
			expect(down.body.shards[2]).not.toBe('Ready');
			expect(down.body.shards[0]).toBe('Ready');
			expect(down.body.store).toBe('answering');
		} finally {
			harness.discord.releaseShard(2);
		}
		await pollUntil(async () => (await readyz(port)).status === 200, '/readyz to answer 200 again');
	});

	it('turns not ready while the store does not answer, counting the failures, and ready again once it does', async () => {
		const before = await samples(port);
		proxy.pause();
		try {
			// An answer may be up to a second old: the first after the pause can still be the last read's.
			await pollUntil(async () => (await readyz(port)).status === 503, '/readyz to answer 503');
			const paused = await readyz(port);
			expect(paused).toMatchObject({ status: 503, body: { ready: false, store: 'not answering', shards: { 0: 'Ready' } } });
		} finally {
			proxy.resume();
		}
		const after = await samples(port);
		expect(after('veil_store_errors_total')).toBeGreaterThan(before('veil_store_errors_total'));
		await pollUntil(async () => (await readyz(port)).status === 200, '/readyz to answer 200 again');
	});
});
