import { ApplicationCommandOptionType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { safeResponse } from '../support/upstreamStandIn.js';

// Discord takes 300 ms to answer every REST call here, so the order of what Veil waits for shows.
const harness = useHarness({ env: { REQUIRE_LINK: 'false' }, discord: { restDelayMs: 300 } });

describe('the path of an ask', () => {
	it('calls the model only once Discord has the deferral, however slowly it answers', async () => {
		const { discord, upstream } = harness();
		let deferralAnsweredWhenAsked: boolean | undefined;
		upstream.setDefaultGeneration(() => {
			const callback = discord.requests.find((request) => request.path.endsWith('/callback'));
			deferralAnsweredWhenAsked = callback !== undefined && callback.status !== 0;
			return { json: safeResponse('answered after the deferral') };
		});
		const state = await discord
			.slashCommand({ name: 'ask', user: makeUser('asker'), options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'quick' }] })
			.waitForAnswer(10_000);
		expect(state.original?.content).toBe('answered after the deferral');
		expect(deferralAnsweredWhenAsked).toBe(true);
	});
});
