import { ApplicationCommandOptionType } from 'discord.js';
import { describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { DiscordRest } from '../../src/discord/internals/discordRest.js';
import { useHarness } from '../support/harness.js';
import { safeResponse } from '../support/upstreamStandIn.js';

// The sweep is shortened from its production 10 s so the test need not wait; what is tested is that the handlers
// each interaction leaves in the REST client are let go once idle, not the interval itself. Discord's 3 s to
// acknowledge is lengthened: on a loaded machine 40 asks at once can take longer, and it is not what is tested here.
const harness = useHarness({
	env: { REQUIRE_LINK: 'false', ASK_CONCURRENCY: '500' },
	discord: { interactionDeadlineMs: 15_000 },
	interactionHandlerSweepMs: 100,
});

function ask(prompt: string) {
	return harness().discord.slashCommand({
		name: 'ask',
		user: makeUser('asker'),
		options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: prompt }],
	});
}

function interactionHandlerCount(): number {
	const { rest } = harness().bot.client;
	if (!(rest instanceof DiscordRest)) throw new Error('the bot does not use DiscordRest');
	return rest.interactionHandlerCount;
}

describe('the REST handlers of interactions', () => {
	it('are released once idle, so answering many members leaves none behind, and later answers still land', { timeout: 60_000 }, async () => {
		harness().upstream.setDefaultGeneration({ json: safeResponse('an answer') });
		const states = await Promise.all(Array.from({ length: 40 }, (_, n) => ask(`question ${n}`).waitForAnswer(30_000)));
		expect(states.every((state) => state.original?.content === 'an answer')).toBe(true);

		// What may stay: the one handler every interaction callback shares (its route has no per-interaction key).
		await vi.waitFor(() => expect(interactionHandlerCount()).toBeLessThanOrEqual(1), { timeout: 5000, interval: 50 });

		const later = await ask('after the sweep').waitForAnswer(10_000);
		expect(later.original?.content).toBe('an answer');
	});
});
