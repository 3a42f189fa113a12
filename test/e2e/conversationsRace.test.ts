import { ApplicationCommandOptionType } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { answerMessages, buttonsOf, echoLastPrompt, followUpIdOf, settled } from '../support/conversations.js';
import { safeResponse } from '../support/upstreamStandIn.js';

// Discord shows an edit to every member before its answer reaches the bot: with a REST delay, a Follow up pressed
// the moment the answer appears reaches the bot while the answer's own edit is still on its way back to it.
const harness = useHarness({ discord: { restDelayMs: 250 } });
const asker = makeUser('quick asker');

beforeAll(async () => {
	await harness().linkMember(asker.id);
	harness().upstream.setDefaultGeneration((request) => ({ json: safeResponse(echoLastPrompt(request)) }));
});

describe('a Follow up pressed the moment its answer appears', () => {
	it('opens the form, never answering that the conversation has expired', async () => {
		const { discord } = harness();
		const handle = discord.slashCommand({
			name: 'ask',
			options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'a quick one' }],
			user: asker,
		});
		// The press goes out as soon as the local Discord holds the edit with the button, before the bot hears back.
		const shown = await handle.waitFor((state) => buttonsOf(answerMessages(state).at(-1)).some((id) => id.startsWith('ask:followup:')), 10_000);
		const message = answerMessages(shown).at(-1);
		const press = await discord.button({ customId: followUpIdOf(shown), message, user: asker }).waitForAnswer(10_000);
		expect(press.original?.content ?? '').not.toMatch(/expired/);
		expect(press.modal?.custom_id).toMatch(/^ask:followup-form:/);

		// The form it opened leads to an answer that continues the conversation.
		const answer = await settled(
			harness(),
			discord.modalSubmit({ customId: press.modal?.custom_id ?? '', fields: { prompt: 'and then?' }, user: asker }),
		);
		expect(answer.original?.content).toBe('Answer to: and then?');
		await settled(harness(), handle);
	});
});
