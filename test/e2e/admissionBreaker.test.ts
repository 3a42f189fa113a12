import { InteractionResponseType } from 'discord.js';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { askAs, generationCount, waitForFinalAnswer } from '../support/admission.js';
import { echoLastPrompt } from '../support/conversations.js';
import { safeResponse } from '../support/upstreamStandIn.js';

// The breaker's clock runs ahead when the test says, so its 30 s pass at once and nothing here depends on timing.
let skewMs = 0;
const harness = useHarness({ admission: { breaker: { now: () => Date.now() + skewMs } } });
const member = makeUser('asker');

const DOWN = "The model's service is not answering right now, so Veil is not sending it questions for a moment. Please try again in a minute.";
const FAILED = /isn't answering right now/;

beforeAll(async () => {
	await harness().linkMember(member.id);
});
beforeEach(() => {
	harness().upstream.setDefaultGeneration((request) => ({ json: safeResponse(echoLastPrompt(request)) }));
});

async function failFiveTimes(): Promise<void> {
	harness().upstream.setDefaultGeneration({ status: 503, json: { error: { code: 503, message: 'Unavailable', status: 'UNAVAILABLE' } } });
	for (let i = 0; i < 5; i++) {
		const state = await waitForFinalAnswer(askAs(harness(), member, `failing ${i}`));
		expect(state.original?.content).toMatch(FAILED);
	}
}

/** 30 s later, as the breaker sees it. */
function thirtySecondsLater(): void {
	expect(harness().bot.context.admission.breaker.state).toBe('open');
	skewMs += 30_000;
	expect(harness().bot.context.admission.breaker.state).toBe('half-open');
}

describe('the circuit breaker', () => {
	it('opens after 5 failures in a row: asks are answered at once, only to the member, and nothing goes upstream; a success closes it', async () => {
		await failFiveTimes();
		const before = generationCount(harness());
		const refused = await askAs(harness(), member, 'while down').waitForAnswer();
		expect(refused.callbacks.map((c) => c.type)).toEqual([InteractionResponseType.ChannelMessageWithSource]);
		expect(refused.ephemeral).toBe(true);
		expect(refused.original?.content).toBe(DOWN);
		expect(generationCount(harness())).toBe(before);

		harness().upstream.setDefaultGeneration((request) => ({ json: safeResponse(echoLastPrompt(request)) }));
		thirtySecondsLater();
		expect((await waitForFinalAnswer(askAs(harness(), member, 'trial'))).original?.content).toBe('Answer to: trial');
		expect(harness().bot.context.admission.breaker.state).toBe('closed');
		expect((await waitForFinalAnswer(askAs(harness(), member, 'after'))).original?.content).toBe('Answer to: after');
	});

	it('lets one ask through when the time is up; if it fails too, the breaker opens again', async () => {
		await failFiveTimes();
		thirtySecondsLater();
		expect((await waitForFinalAnswer(askAs(harness(), member, 'trial'))).original?.content).toMatch(FAILED);
		const before = generationCount(harness());
		expect((await askAs(harness(), member, 'still down').waitForAnswer()).original?.content).toBe(DOWN);
		expect(generationCount(harness())).toBe(before);
		harness().upstream.setDefaultGeneration((request) => ({ json: safeResponse(echoLastPrompt(request)) }));
		thirtySecondsLater();
		expect((await waitForFinalAnswer(askAs(harness(), member, 'back'))).original?.content).toBe('Answer to: back');
	});

	it('does not count answers the service gave: a 4xx, a 429 after the retries or an unreadable body breaks a run of failures', async () => {
		const failFour = async () => {
			for (let i = 0; i < 4; i++) expect((await waitForFinalAnswer(askAs(harness(), member, `failing ${i}`))).original?.content).toMatch(FAILED);
		};
		harness().upstream.setDefaultGeneration({ status: 503, json: {} });
		const busy = { status: 429, headers: { 'retry-after': '0' }, json: { error: { code: 429, message: 'slow down', status: 'RESOURCE_EXHAUSTED' } } };
		const answers = [
			[{ status: 400, json: { error: { code: 400, message: 'bad', status: 'INVALID_ARGUMENT' } } }],
			[busy, busy, busy],
			[{ body: 'not json' }, { body: 'not json' }, { body: 'not json' }],
		];
		await failFour();
		for (const answer of answers) {
			harness().upstream.scriptGeneration(...answer);
			await waitForFinalAnswer(askAs(harness(), member, 'answered, if not well'));
			await failFour();
			expect(harness().bot.context.admission.breaker.state).toBe('closed');
		}
		harness().upstream.setDefaultGeneration((request) => ({ json: safeResponse(echoLastPrompt(request)) }));
		await waitForFinalAnswer(askAs(harness(), member, 'fine'));
	});

	it('the same refusal reaches a follow-up, and the member can still ask once it has closed', async () => {
		const answered = await waitForFinalAnswer(askAs(harness(), member, 'to follow'));
		await failFiveTimes();
		const followUpId = JSON.stringify(answered.original?.components).match(/ask:followup:[^"]+/)?.[0] as string;
		const press = await harness().discord.button({ customId: followUpId, message: answered.original, user: member }).waitForAnswer();
		const before = generationCount(harness());
		const submit = await harness()
			.discord.modalSubmit({ customId: press.modal?.custom_id as string, fields: { prompt: 'more' }, user: member })
			.waitForAnswer();
		expect(submit.ephemeral).toBe(true);
		expect(submit.original?.content).toBe(DOWN);
		expect(generationCount(harness())).toBe(before);
		harness().upstream.setDefaultGeneration((request) => ({ json: safeResponse(echoLastPrompt(request)) }));
		thirtySecondsLater();
		expect((await waitForFinalAnswer(askAs(harness(), member, 'again'))).original?.content).toBe('Answer to: again');
	});
});
