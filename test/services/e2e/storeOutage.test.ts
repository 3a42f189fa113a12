import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../../sandbox/discord/emulator.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { ask, submitLink, unlink } from '../../support/memberCommands.js';
import { RedisServer } from '../../support/redisServer.js';

describe('a write while Redis is down (a Redis of its own, restarted on its file)', () => {
	let redis: RedisServer;
	let harness: Harness;
	const keeper = makeUser('keeper');
	const newcomer = makeUser('newcomer');

	beforeAll(async () => {
		redis = await RedisServer.start();
		harness = await startHarness({ env: { STORE_URL: redis.url } });
		harness.upstream.addAccount('newcomer@example.com', 'pw');
	});
	afterAll(async () => {
		await harness?.stop();
		await redis?.stop();
	});

	it('fails at once with a plain answer, and is not applied when Redis is back', async () => {
		await harness.linkMember(keeper.id);
		expect((await ask(harness, keeper, 'before')).original?.content).toBe('Answer to: before');

		await redis.halt();
		// Not sent, so certainly not saved: the plain sentence, without the doubt of a write that was sent.
		const unlinked = await unlink(harness, keeper);
		expect(unlinked.original?.content).toMatch(/storage isn't answering/);
		expect(unlinked.original?.content).not.toMatch(/may not have been saved/);
		const linked = await submitLink(harness, newcomer, 'newcomer@example.com');
		expect(linked.original?.content).toMatch(/storage isn't answering/);
		expect(linked.original?.content).not.toMatch(/may not have been saved/);
		expect(harness.upstream.requests.some((request) => request.endpoint === 'login')).toBe(true);

		await redis.resume();
		// The first read that answers comes after anything the client had held back for the reconnection.
		await expect
			.poll(
				() =>
					harness.bot.context.accounts.find(keeper.id).then(
						() => true,
						() => false,
					),
				{ timeout: 15_000 },
			)
			.toBe(true);

		expect((await ask(harness, keeper, 'after')).original?.content).toBe('Answer to: after');
		expect((await ask(harness, newcomer, 'after')).original?.content).toMatch(/Link your account first/);
	});
});
