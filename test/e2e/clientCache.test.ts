import { ApplicationCommandOptionType, GatewayIntentBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';

// Unlinked members ask with the service key, so any member may ask.
const harness = useHarness({ env: { REQUIRE_LINK: 'false' } });

describe('what Veil keeps of Discord in memory', () => {
	it('takes only the AutoMod configuration intent, so no server, channel, role or member data arrives to be kept', () => {
		const { discord, bot } = harness();
		// Rule events only, nothing about the server itself.
		expect(discord.identifies.at(-1)?.intents).toBe(GatewayIntentBits.AutoModerationConfiguration);
		// Not even the stubs READY lists: the log still counts the servers.
		expect(bot.client.guilds.cache.size).toBe(0);
		expect(harness().logs.find((line) => line.includes('connected to Discord'))).toContain('"guilds":1');
		expect(bot.client.channels.cache.size).toBe(0);
	});

	it('keeps none of the members who ask, nor the answers it sends', async () => {
		const { discord, bot } = harness();
		const askers = Array.from({ length: 10 }, (_, n) => makeUser(`asker${n}`));
		const states = await Promise.all(
			askers.map((user) =>
				discord
					.slashCommand({
						name: 'ask',
						user,
						options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: `from ${user.username}` }],
					})
					.waitForAnswer(),
			),
		);
		expect(states.every((state) => state.original?.content.startsWith('Answer to: from asker'))).toBe(true);
		expect([...bot.client.users.cache.keys()]).toEqual([bot.client.user.id]);
	});
});
