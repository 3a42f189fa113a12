import { ApplicationCommandOptionType, GatewayIntentBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';

// Unlinked members ask with the service key, so any member may ask.
const harness = useHarness({ env: { REQUIRE_LINK: 'false' } });

describe('what Veil keeps of Discord in memory', () => {
	it('takes the server and message intents, never Message Content, and keeps no server, channel or message', async () => {
		const { discord, bot } = harness();
		expect(discord.identifies.at(-1)?.intents).toBe(
			GatewayIntentBits.Guilds | GatewayIntentBits.GuildMessages | GatewayIntentBits.DirectMessages | GatewayIntentBits.AutoModerationConfiguration,
		);
		// Chatter arrives (without its content) and is dropped before discord.js builds anything of it; the gateway
		// keeps order, so once the ask after it is answered the chatter was handled.
		discord.postAsMember({ content: 'chatter between members' });
		const asked = discord.slashCommand({ name: 'ask', options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'hi' }] });
		expect((await asked.waitForAnswer()).original?.content).toContain('Answer to: hi');
		// Not even the stubs READY lists, nor what GUILD_CREATE carried: the log still counts the servers.
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
