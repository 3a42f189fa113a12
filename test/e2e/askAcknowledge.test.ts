import { ApplicationCommandOptionType, MessageFlags } from 'discord.js';
import { describe, expect, it, vi } from 'vitest';
import { makeUser, type InteractionState } from '../../sandbox/discord/emulator.js';
import { useHarness, type Harness } from '../support/harness.js';
import { freshServer } from '../support/moderation.js';
import { utcDay } from '../../src/admission/dailyLimit.js';
import { createLogger } from '../../src/logging/logger.js';
import type { AtomicStore } from '../../src/storage/atomicStore.js';
import { openStorage } from '../../src/storage/openStorage.js';
import { SettingsRepository } from '../../src/settings/settingsRepository.js';
import type { Store } from '../../src/storage/store.js';

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

/** The answer the member alone reads: an ephemeral reply, or the follow-up that took a public deferral's place. */
function privateAnswer(state: InteractionState) {
	const answer = state.followUps.at(-1) ?? state.original;
	expect((answer?.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
	return answer;
}

/** Answered in words: a reply, or a follow-up (not the deferral's empty "thinking…", nor the '…' before a refusal). */
function answered(state: InteractionState): boolean {
	return state.followUps.length > 0 || (state.original?.content ?? '').length > 1;
}

/** What of the interaction stays public in `channelId`. */
function publicLeft(harness: Harness, channelId: string, interactionId: string) {
	return harness.discord
		.channelMessages(channelId, { all: true })
		.filter((message) => message.interactionId === interactionId && !message.deleted && (message.flags & MessageFlags.Ephemeral) === 0);
}

describe('a member who has unlinked in another process since their last ask', () => {
	const harness = useHarness();

	it('gets the link-first answer to themselves alone, and no public message stays behind', async () => {
		const member = makeUser('unlinker');
		await harness().linkMember(member.id);
		expect((await ask(harness(), member, 'first').waitForAnswer()).original?.content).toBe('Answer to: first');
		await asAnotherProcess(harness(), ({ store }) => store.delete('accounts', member.id));

		const handle = ask(harness(), member, 'second');
		const state = await handle.waitFor((current) => answered(current));
		expect(privateAnswer(state)?.content).toMatch(/link/i);
		expect(publicLeft(harness(), harness().discord.defaultChannelId, handle.id)).toEqual([]);
		expect(harness().upstream.requests.filter((request) => JSON.stringify(request.json ?? '').includes('second'))).toEqual([]);
	});

	it('whose deferral Discord refuses sends nothing to the model and leaves nothing half-done; the next ask is answered', async () => {
		const { discord, upstream } = harness();
		const member = makeUser('regular-refused');
		await harness().linkMember(member.id);
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
		expect(upstream.requests.filter((request) => JSON.stringify(request.json ?? '').includes('too late'))).toEqual([]);
	});
});

describe('a member in a server whose daily limit another process set since', () => {
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
		const state = await handle.waitFor((current) => answered(current));
		expect(privateAnswer(state)?.content).toMatch(/limit of 1 question a day/);
		expect(publicLeft(harness(), guild.channels[0]?.id ?? '', handle.id)).toEqual([]);
		expect(harness().upstream.requests.length).toBe(generations);
	});
});
