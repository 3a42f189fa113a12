import { ApplicationCommandOptionType, InteractionResponseType } from 'discord.js';
import { expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { settled } from '../support/conversations.js';
import { useHarness } from '../support/harness.js';
import { safeResponse } from '../support/upstreamStandIn.js';

const harness = useHarness({ shutdownGraceMs: 300 });

it('answers an /ask still waiting on the upstream when the shutdown grace runs out, instead of leaving it thinking', async () => {
	const user = makeUser('unlucky');
	await harness().linkMember(user.id);
	harness().upstream.scriptGeneration({ hang: true });
	const handle = harness().discord.slashCommand({
		name: 'ask',
		user,
		options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'never mind' }],
	});
	await harness().upstream.waitForRequests(1);
	await handle.waitFor((state) => state.callbacks.length > 0);

	await harness().bot.stop();

	const state = handle.state();
	expect(state.callbacks[0]?.type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
	expect(state.original?.deferred).toBeFalsy();
	expect(state.original?.content).toMatch(/restarting/);
});

it('answers a /link still waiting on the login the same way', async () => {
	await harness().restartBot();
	const user = makeUser('linker');
	harness().upstream.scriptLogin({ hang: true });
	await harness().discord.slashCommand({ name: 'link', user }).waitForAnswer();
	const handle = harness().discord.modalSubmit({ customId: 'link:submit', fields: { email: 'a@example.com', password: 'pw' }, user });
	await handle.waitFor((state) => state.callbacks.length > 0);
	await harness().upstream.waitForRequests(2);

	await harness().bot.stop();

	expect(handle.state().original?.content).toMatch(/restarting/);
});

it('keeps the usage counted just before a stop: a new bot on the same SQLite file shows the asks in /usage', async () => {
	await harness().restartBot();
	const h = harness();
	h.upstream.setDefaultGeneration(() => ({ json: safeResponse('an answer') }));
	const user = makeUser('counted-at-stop');
	await h.linkMember(user.id);
	const guild = h.discord.addGuild({ channels: [{ name: 'general' }] });
	const channelId = guild.channels[0]?.id as string;
	await settled(
		h,
		h.discord.slashCommand({
			name: 'ask',
			user,
			guildId: guild.id,
			channelId,
			options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'counted?' }],
		}),
	);
	const mention = h.discord.postAsMember({ user, channelId, content: `<@${h.discord.bot.id}> and this?` });
	const handled = (line: string) => line.includes(`"messageId":"${mention.id}"`) && line.includes('"msg":"message handled"');
	await h.discord.waitUntil(() => h.logs.some(handled), 'the mention answered');

	// At once: the asks' counts are still in the batch that writes them together, in memory.
	await h.restartBot();

	const shown = await h.discord.slashCommand({ name: 'usage', user, guildId: guild.id, channelId }).waitForAnswer();
	expect(shown.original?.content).toContain('Questions today in this server: **2**');
	expect(h.logs.some((line) => line.includes('could not count an ask'))).toBe(false);
});
