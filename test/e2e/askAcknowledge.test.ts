import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../support/discord/emulator.js';
import { startHarness, useHarness, type Harness } from '../support/harness.js';
import { PausableProxy } from '../support/pausableProxy.js';

function ask(harness: Harness, user: ReturnType<typeof makeUser>, prompt: string) {
	return harness.discord.slashCommand({ name: 'ask', user, options: [{ type: 3, name: 'prompt', value: prompt }] });
}

describe('a member Veil has seen linked, who has unlinked since', () => {
	const harness = useHarness();

	it('gets the link-first answer to themselves alone, and no public message stays behind', async () => {
		const member = makeUser('unlinker');
		await harness().linkMember(member.id);
		expect((await ask(harness(), member, 'first').waitForAnswer()).original?.content).toBe('Answer to: first');
		// Unlinked elsewhere (another process, say): this process last saw a link.
		await harness().bot.context.accounts.remove(member.id);

		const handle = ask(harness(), member, 'second');
		const state = await handle.waitFor((current) => current.followUps.length > 0);
		const notice = state.followUps.at(-1);
		expect(notice?.content).toMatch(/link/i);
		expect((notice?.flags ?? 0) & 64).toBe(64);
		const left = harness()
			.discord.channelMessages(harness().discord.defaultChannelId, { all: true })
			.filter((message) => message.interactionId === handle.id && !message.deleted && (message.flags & 64) === 0);
		expect(left).toEqual([]);
		expect(harness().upstream.requests.filter((request) => JSON.stringify(request.json ?? '').includes('second'))).toEqual([]);
	});
});

const redisUrl = process.env.REDIS_URL;

describe.skipIf(!redisUrl)('the acknowledgement of a member Veil has seen linked (Redis behind a pausable proxy)', () => {
	let proxy: PausableProxy;
	let harness: Harness;
	const member = makeUser('regular');

	beforeAll(async () => {
		const target = new URL(redisUrl as string);
		proxy = await PausableProxy.start({ host: target.hostname, port: Number(target.port || 6379) });
		harness = await startHarness({ env: { STORE_URL: `redis://127.0.0.1:${proxy.port}` } });
		await harness.linkMember(member.id);
	});
	afterAll(async () => {
		proxy?.resume();
		await harness?.stop();
		await proxy?.stop();
	});

	it('does not wait for the store, which still decides, and the answer follows once it has', async () => {
		expect((await ask(harness, member, 'warm').waitForAnswer()).original?.content).toBe('Answer to: warm');
		proxy.pause();
		const handle = ask(harness, member, 'while the store is slow');
		try {
			// With the store silent (its bound is 1 s, then a plain error answer), the ask is deferred all the same.
			const deferred = await handle.waitFor((state) => state.callbacks.length > 0);
			expect(deferred.callbacks[0]?.type).toBe(5);
			expect(harness.upstream.requests.filter((request) => request.endpoint === 'generate')).toHaveLength(1);
		} finally {
			proxy.resume();
		}
		expect((await handle.waitForAnswer()).original?.content).toBe('Answer to: while the store is slow');
	});
});
