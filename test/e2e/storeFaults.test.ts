import { ApplicationCommandOptionType, InteractionResponseType } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { startHarness, type Harness } from '../support/harness.js';
import { PausableProxy } from '../support/pausableProxy.js';
import { testRedisUrl } from '../support/testRedis.js';

describe('a store that stops answering (Redis behind a pausable proxy)', () => {
	let proxy: PausableProxy;
	let harness: Harness;
	const member = makeUser('patient');

	beforeAll(async () => {
		const target = new URL(testRedisUrl());
		proxy = await PausableProxy.start({ host: target.hostname, port: Number(target.port || 6379) });
		harness = await startHarness({ env: { STORE_URL: `redis://127.0.0.1:${proxy.port}` } });
		harness.upstream.addAccount('patient@example.com', 'pw');
		// The member links as they would, through /link and its form: this process then knows them as linked.
		await harness.discord.slashCommand({ name: 'link', user: member }).waitForAnswer();
		const linked = await harness.discord
			.modalSubmit({ customId: 'link:submit', fields: { email: 'patient@example.com', password: 'pw' }, user: member })
			.waitForAnswer();
		if (!/Linked/.test(linked.original?.content ?? '')) throw new Error(`the member could not link: ${linked.original?.content}`);
	});
	afterAll(async () => {
		proxy?.resume();
		await harness?.stop();
		await proxy?.stop();
	});

	it('answers /ask in public while the store answers', async () => {
		const state = await harness.discord
			.slashCommand({ name: 'ask', user: member, options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'hello' }] })
			.waitForAnswer(5000);
		expect(state.callbacks.map((callback) => callback.type)).toEqual([InteractionResponseType.DeferredChannelMessageWithSource]);
		expect(state.ephemeral).toBe(false);
		expect(state.original?.content).toBe('Answer to: hello');
	});

	it('answers /ask plainly and privately within the interaction deadline when the store does not answer', async () => {
		proxy.pause();
		try {
			const before = harness.upstream.requests.length;
			// The link is read before the acknowledgement, bounded: the answer is a private reply, and nothing is deferred.
			const state = await harness.discord
				.slashCommand({
					name: 'ask',
					user: member,
					options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'are you there?' }],
				})
				.waitFor((current) => current.original !== undefined, 5000);
			expect(state.callbacks.map((callback) => callback.type)).toEqual([InteractionResponseType.ChannelMessageWithSource]);
			expect(state.original?.content).toMatch(/storage isn't answering/);
			expect(state.ephemeral).toBe(true);
			expect(harness.upstream.requests.length).toBe(before);
			expect(harness.discord.channelMessages(harness.discord.defaultChannelId)).toHaveLength(0);
		} finally {
			proxy.resume();
		}
	});

	it('answers a link whose save times out plainly, saying it may not have been saved, and answers again once the store is back', async () => {
		await harness.discord.slashCommand({ name: 'link', user: member }).waitForAnswer();
		proxy.pause();
		try {
			const state = await harness.discord
				.modalSubmit({ customId: 'link:submit', fields: { email: 'patient@example.com', password: 'pw' }, user: member })
				.waitForAnswer(5000);
			// The command was sent and may reach Redis once it answers again: the member is not told it failed.
			expect(state.original?.content).toMatch(/storage isn't answering right now, so your change may not have been saved/);
		} finally {
			proxy.resume();
		}
		const state = await harness.discord
			.slashCommand({ name: 'ask', user: member, options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'back?' }] })
			.waitForAnswer(5000);
		expect(state.original?.content).toBe('Answer to: back?');
	});
});
