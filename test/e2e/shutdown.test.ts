import { ApplicationCommandOptionType, InteractionResponseType } from 'discord.js';
import { expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';

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
