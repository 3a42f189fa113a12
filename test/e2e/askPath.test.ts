import { ApplicationCommandOptionType, InteractionResponseType, type APIUser } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { makeUser, type InteractionHandle } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { safeResponse } from '../support/upstreamStandIn.js';

// Discord takes 300 ms to answer every REST call here, so the order of what Veil waits for shows.
const harness = useHarness({ env: { REQUIRE_LINK: 'false' }, discord: { restDelayMs: 300 } });

type DeferralState = 'not sent' | 'on its way' | 'answered';

function ask(user: APIUser, prompt: string): InteractionHandle {
	return harness().discord.slashCommand({
		name: 'ask',
		user,
		options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: prompt }],
	});
}

/** Answers the next generation call with `text`, noting where the deferral of the ask stood at that moment. */
function noteDeferralWhenModelCalled(text: string): () => DeferralState | undefined {
	const { discord, upstream } = harness();
	const since = discord.requests.length;
	let seen: DeferralState | undefined;
	upstream.setDefaultGeneration(() => {
		const callback = discord.requests.slice(since).find((request) => request.path.endsWith('/callback'));
		seen = callback === undefined ? 'not sent' : callback.status === 0 ? 'on its way' : 'answered';
		return { json: safeResponse(text) };
	});
	return () => seen;
}

/** When the edit of `handle`'s answer reached the local Discord. */
function editedAt(handle: InteractionHandle): number | undefined {
	return harness().discord.requests.find((request) => request.method === 'PATCH' && request.path.endsWith(`/${handle.token}/messages/@original`))?.at;
}

describe('the path of an ask', () => {
	it('calls the model only once Discord has answered the deferral, linked or not, and edits the answer in after it', async () => {
		const member = makeUser('regular');
		await harness().linkMember(member.id);
		for (const [user, prompt] of [
			[makeUser('newcomer'), 'quick'],
			[member, 'first'],
			[member, 'second'],
		] as const) {
			const deferralWhenModelCalled = noteDeferralWhenModelCalled(`answered after the deferral: ${prompt}`);
			const handle = ask(user, prompt);
			const state = await handle.waitForAnswer(10_000);
			expect(deferralWhenModelCalled()).toBe('answered');
			// The member sees "thinking…", then the answer in its place.
			expect(state.callbacks.map((callback) => callback.type)).toEqual([InteractionResponseType.DeferredChannelMessageWithSource]);
			expect(state.original?.content).toBe(`answered after the deferral: ${prompt}`);
			expect(state.followUps).toEqual([]);
			expect(editedAt(handle)).toBeGreaterThanOrEqual(state.callbacks[0]!.at);
		}
	});
});
