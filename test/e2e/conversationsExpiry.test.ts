import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type InteractionState } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { sqliteBytes } from '../support/sqliteBytes.js';
import { answerMessages, ask, followUp, followUpIdOf, settled } from '../support/conversations.js';

// 0.0003 hours is about a second: long enough to open the form right after an answer, short enough to wait out.
const harness = useHarness({ env: { CONVERSATION_TTL_HOURS: '0.0003' } });
const asker = makeUser('asker');

beforeAll(async () => {
	await harness().linkMember(asker.id);
});

/** Waits until the conversation behind an answer's Follow up button is past its expiry, by the record's own time. */
async function outlive(answer: InteractionState): Promise<void> {
	const conversationId = followUpIdOf(answer).split(':')[2] as string;
	const conversation = await harness().bot.context.conversations.find(harness().discord.defaultGuild.id, conversationId);
	if (!conversation) return;
	await new Promise((resolve) => setTimeout(resolve, Math.max(0, conversation.expiresAt.getTime() - Date.now() + 20)));
}

describe('an expired conversation', () => {
	it('answers a Follow up press ephemerally that it expired, opens no form and asks nothing upstream', async () => {
		const answer = await ask(harness(), asker, 'a question soon forgotten');
		await outlive(answer);
		const before = harness().upstream.requests.length;
		const { press, answer: submitted } = await followUp(harness(), answer, asker, 'too late');
		expect(submitted).toBeUndefined();
		expect(press.modal).toBeUndefined();
		expect(press.ephemeral).toBe(true);
		expect(press.original?.content).toBe('This conversation has expired, so Veil no longer has it. Start a new one with /ask.');
		expect(harness().upstream.requests.length).toBe(before);
	});

	it('answers a form opened in time but sent after the expiry the same way', async () => {
		const answer = await ask(harness(), asker, 'another question');
		const message = answerMessages(answer).at(-1);
		const press = await harness()
			.discord.button({ customId: followUpIdOf(answer), message, user: asker })
			.waitForAnswer();
		expect(press.modal?.custom_id).toMatch(/^ask:followup-form:/);
		await outlive(answer);
		const before = harness().upstream.requests.length;
		const late = await settled(
			harness(),
			harness().discord.modalSubmit({ customId: press.modal?.custom_id as string, fields: { prompt: 'late' }, user: asker }),
		);
		expect(late.ephemeral).toBe(true);
		expect(late.original?.content).toMatch(/has expired.*\/ask/);
		expect(harness().upstream.requests.length).toBe(before);
	});

	it('is erased from the SQLite file once past its time, by the sweep that runs hourly', async () => {
		const canary = 'CONVERSATION-ERASE-CANARY';
		const answer = await ask(harness(), asker, canary);
		const key = `conversations:${harness().discord.defaultGuild.id}:${followUpIdOf(answer).split(':')[2]}`;
		expect(sqliteBytes(harness().sqliteFile)).toContain(key);
		await outlive(answer);
		expect(await harness().bot.store.sweepExpired()).toBeGreaterThan(0);
		expect(sqliteBytes(harness().sqliteFile)).not.toContain(key);
		expect(sqliteBytes(harness().sqliteFile)).not.toContain(canary);
	});
});
