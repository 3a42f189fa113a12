import { ApplicationCommandOptionType, InteractionResponseType, MessageFlags } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeUser, routeRateLimit } from '../../sandbox/discord/emulator.js';
import { startHarness, useHarness, type Harness } from '../support/harness.js';
import { freshServer } from '../support/moderation.js';
import { PausableProxy } from '../support/pausableProxy.js';
import { safeResponse } from '../support/upstreamStandIn.js';
import { utcDay } from '../../src/admission/dailyLimit.js';
import { createLogger } from '../../src/logging/logger.js';
import type { AtomicStore } from '../../src/storage/atomicStore.js';
import { openStorage } from '../../src/storage/openStorage.js';
import { SettingsRepository } from '../../src/settings/settingsRepository.js';
import type { Store } from '../../src/storage/store.js';
import { testRedisUrl } from '../support/testRedis.js';

function ask(harness: Harness, user: ReturnType<typeof makeUser>, prompt: string) {
	return harness.discord.slashCommand({ name: 'ask', user, options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: prompt }] });
}

/** Runs `change` on connections of its own to the bot's SQLite file, as another process of the deployment would. */
async function asAnotherProcess(harness: Harness, change: (connections: { store: Store; atomic: AtomicStore }) => Promise<unknown>): Promise<void> {
	const url = `sqlite://${harness.sqliteFile}`;
	const silent = createLogger('silent');
	const options = { namespace: harness.storeNamespace };
	const { store, atomic } = await openStorage(url, silent, options);
	try {
		await change({ store, atomic });
	} finally {
		await Promise.all([store.close(), atomic.close()]);
	}
}

describe('a member Veil has seen linked, who has unlinked since', () => {
	const harness = useHarness();

	it('gets the link-first answer to themselves alone, and no public message stays behind', async () => {
		const member = makeUser('unlinker');
		await harness().linkMember(member.id);
		expect((await ask(harness(), member, 'first').waitForAnswer()).original?.content).toBe('Answer to: first');
		// Unlinked by another process: this one last saw a link.
		await asAnotherProcess(harness(), ({ store }) => store.delete('accounts', member.id));

		const handle = ask(harness(), member, 'second');
		const state = await handle.waitFor((current) => current.followUps.length > 0);
		const notice = state.followUps.at(-1);
		expect(notice?.content).toMatch(/link/i);
		expect((notice?.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
		const left = harness()
			.discord.channelMessages(harness().discord.defaultChannelId, { all: true })
			.filter((message) => message.interactionId === handle.id && !message.deleted && (message.flags & MessageFlags.Ephemeral) === 0);
		expect(left).toEqual([]);
		expect(harness().upstream.requests.filter((request) => JSON.stringify(request.json ?? '').includes('second'))).toEqual([]);
	});

	it('is deferred before the store is read, and the answer follows the deferral', async () => {
		const member = makeUser('regular-public');
		await harness().linkMember(member.id);
		const handle = ask(harness(), member, 'early');
		const state = await handle.waitForAnswer();
		expect(state.callbacks.map((callback) => callback.type)).toEqual([InteractionResponseType.DeferredChannelMessageWithSource]);
		expect(state.ephemeral).toBe(false);
		expect(state.original?.content).toBe('Answer to: early');
	});

	it('has the question on its way to the model while Discord takes the deferral, and the answer edits it only after', async () => {
		const { discord, upstream } = harness();
		const member = makeUser('regular-waiting');
		await harness().linkMember(member.id);
		expect((await ask(harness(), member, 'seen linked').waitForAnswer()).original?.content).toBe('Answer to: seen linked');
		// Discord holds the deferral back for half a second.
		discord.injectRestFailure(routeRateLimit('POST', '/callback', 0.5));
		const since = discord.requests.length;
		const state = await ask(harness(), member, 'while it waits').waitForAnswer(10_000);
		expect(state.original?.content).toBe('Answer to: while it waits');
		const ofThisAsk = discord.requests.slice(since);
		const accepted = ofThisAsk.find((request) => request.path.includes('/callback') && request.status !== 429);
		const edit = ofThisAsk.find((request) => request.method === 'PATCH' && request.path.includes('/messages/@original'));
		const generation = upstream.requests.find((request) => JSON.stringify(request.json ?? '').includes('while it waits'));
		expect(accepted).toBeDefined();
		expect(generation?.at ?? Infinity).toBeLessThan(accepted?.at ?? 0);
		expect(edit?.at ?? 0).toBeGreaterThanOrEqual(accepted?.at ?? Infinity);
	});

	it('whose deferral Discord refuses stops the generation call and leaves nothing half-done; the next ask is answered', async () => {
		const { discord, upstream } = harness();
		// The model would take 4 s over this question: the ask ends long before, its answer having nowhere to go.
		upstream.setDefaultGeneration((request) => {
			const prompt = (request.json as { contents: Array<{ parts: Array<{ text: string }> }> }).contents.at(-1)?.parts[0]?.text;
			return { json: safeResponse(`Answer to: ${prompt}`), delayMs: prompt === 'too late' ? 4000 : 0 };
		});
		const member = makeUser('regular-refused');
		await harness().linkMember(member.id);
		expect((await ask(harness(), member, 'seen linked').waitForAnswer()).original?.content).toBe('Answer to: seen linked');
		// The interaction is gone by the time the deferral arrives (and so for the error answer after it).
		discord.injectRestFailure({
			method: 'POST',
			pathIncludes: '/callback',
			status: 404,
			body: { message: 'Unknown interaction', code: 10062 },
			times: 2,
		});
		const since = discord.requests.length;
		const lost = ask(harness(), member, 'too late');
		const refusals = () => discord.requests.slice(since).filter((request) => request.path.includes(`/${lost.id}/`) && request.status === 404);
		await vi.waitFor(() => expect(refusals()).toHaveLength(2), { timeout: 2000, interval: 20 });
		expect((await ask(harness(), member, 'next').waitForAnswer()).original?.content).toBe('Answer to: next');
		expect(lost.state().originalEdits).toBe(0);
		expect(discord.requests.slice(since).filter((request) => request.method === 'PATCH' && request.path.includes(lost.token))).toEqual([]);
	});
});

describe('a member Veil has seen linked, in a server whose daily limit another process set since', () => {
	const harness = useHarness();

	it('gets the limit to themselves alone, nothing public stays, and nothing goes upstream', async () => {
		const { guild, member } = freshServer(harness());
		await harness().linkMember(member.user.id);
		// Another process sets a limit of one and has already counted this member's one ask today.
		await asAnotherProcess(harness(), async ({ atomic }) => {
			await new SettingsRepository(atomic).update(guild.id, (settings) => ({ ...settings, asksPerDay: 1 }));
			await atomic.increment(`asks:${guild.id}:${member.user.id}:${utcDay(Date.now())}`, Date.now() + 86_400_000);
		});
		const generations = harness().upstream.requests.length;

		const handle = harness().discord.slashCommand({
			name: 'ask',
			user: member.user,
			guildId: guild.id,
			options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'one too many' }],
		});
		const state = await handle.waitFor((current) => current.followUps.length > 0);
		expect(state.callbacks.map((callback) => callback.type)).toEqual([InteractionResponseType.DeferredChannelMessageWithSource]);
		const notice = state.followUps.at(-1);
		expect(notice?.content).toMatch(/limit of 1 question a day/);
		expect((notice?.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
		const left = harness()
			.discord.channelMessages(guild.channels[0]?.id ?? '', { all: true })
			.filter((message) => message.interactionId === handle.id && !message.deleted && (message.flags & MessageFlags.Ephemeral) === 0);
		expect(left).toEqual([]);
		expect(harness().upstream.requests.length).toBe(generations);
	});
});

describe('the acknowledgement of a member Veil has seen linked (Redis behind a pausable proxy)', () => {
	let proxy: PausableProxy;
	let harness: Harness;
	const member = makeUser('regular');

	beforeAll(async () => {
		const target = new URL(testRedisUrl());
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
			expect(deferred.callbacks[0]?.type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
			expect(harness.upstream.requests.filter((request) => request.endpoint === 'generate')).toHaveLength(1);
		} finally {
			proxy.resume();
		}
		expect((await handle.waitForAnswer()).original?.content).toBe('Answer to: while the store is slow');
	});
});
