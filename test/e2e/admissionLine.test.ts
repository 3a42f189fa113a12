import { InteractionResponseType } from 'discord.js';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { askAs, door, editsOf, generationCount, waitForFinalAnswer, WAITING } from '../support/admission.js';
import { safeResponse } from '../support/upstreamStandIn.js';
import { sample } from '../support/operators.js';

/** One sample of this process's metrics (the bot runs in it). */
async function metric(series: string): Promise<number | undefined> {
	return sample((await harness().bot.context.metrics.text()).body, series);
}

// One call upstream at a time, two more may wait: the line is short enough to fill by hand. The test decides when
// each call ends, so an attempt must not time out first.
const harness = useHarness({ env: { ASK_CONCURRENCY: '1', ASK_QUEUE_MAX: '2', GENERATION_TIMEOUT_MS: '20000' } });
const members = ['first', 'second', 'third', 'fourth'].map((name) => makeUser(name));

beforeAll(async () => {
	for (const member of members) await harness().linkMember(member.id);
});
beforeEach(() => {
	harness().upstream.setDefaultGeneration((request) => ({
		json: safeResponse(`Answer to: ${(request.json as { contents: Array<{ parts: Array<{ text: string }> }> }).contents[0]?.parts[0]?.text}`),
	}));
});

/** A waiting message's place in line, its first line. */
const placeOf = (content: string | undefined): string | undefined => content?.split('\n')[0];
/** Its estimate, the line under the place, if any. */
const estimateOf = (content: string | undefined): string | undefined => content?.split('\n')[1];

describe('the line', () => {
	it('runs ASK_CONCURRENCY at once, tells those waiting how many are ahead, turns one away past ASK_QUEUE_MAX, and answers the rest in order', async () => {
		const [a, b, c, d] = members as [(typeof members)[0], (typeof members)[0], (typeof members)[0], (typeof members)[0]];
		const upstream = door();
		harness().upstream.scriptGeneration({ json: safeResponse('Answer to: a'), until: upstream.closed });
		const before = generationCount(harness());

		const running = askAs(harness(), a, 'a');
		await harness().upstream.waitForRequests(harness().upstream.requests.length + 1);
		const second = askAs(harness(), b, 'b');
		await second.waitFor((s) => s.originalEdits > 0);
		const third = askAs(harness(), c, 'c');
		await third.waitFor((s) => s.originalEdits > 0);
		expect(second.state().original?.content).toBe('Veil is busy: yours is next in line. Your answer will appear here.');
		expect(third.state().original?.content).toBe('Veil is busy: 1 ask is ahead of yours. Your answer will appear here.');
		expect(second.state().ephemeral).toBe(false);
		expect(await metric('veil_ask_queue_length')).toBe(2);
		expect(await metric('veil_asks_in_flight')).toBe(1);
		const busyBefore = (await metric('veil_asks_total{outcome="busy"}')) ?? 0;

		// Two wait: the next is turned away at once, only to the member, and costs the upstream nothing.
		const turnedAway = await askAs(harness(), d, 'd').waitForAnswer();
		expect(turnedAway.callbacks.map((c) => c.type)).toEqual([InteractionResponseType.ChannelMessageWithSource]);
		expect(turnedAway.ephemeral).toBe(true);
		expect(turnedAway.original?.content).toBe('Veil is busy right now: too many questions are waiting. Please try again in a minute.');
		expect(generationCount(harness())).toBe(before + 1);
		expect(await metric('veil_asks_total{outcome="busy"}')).toBe(busyBefore + 1);

		upstream.open();
		const answers = await Promise.all([running, second, third].map((handle) => waitForFinalAnswer(handle)));
		expect(answers.map((s) => s.original?.content)).toEqual(['Answer to: a', 'Answer to: b', 'Answer to: c']);
		const calls = harness()
			.upstream.requests.filter((r) => r.endpoint === 'generate')
			.slice(-3);
		expect(calls.map((r) => (r.json as { contents: Array<{ parts: Array<{ text: string }> }> }).contents[0]?.parts[0]?.text)).toEqual([
			'a',
			'b',
			'c',
		]);
		expect(generationCount(harness())).toBe(before + 3);
		expect(await metric('veil_ask_queue_length')).toBe(0);
		expect(await metric('veil_asks_in_flight')).toBe(0);

		// The one that did not wait heard nothing of a line; each that waited heard only its own news, then its answer.
		expect(editsOf(harness(), running)).toEqual(['Answer to: a']);
		expect(editsOf(harness(), second).filter((text) => WAITING.test(text))).toEqual([
			'Veil is busy: yours is next in line. Your answer will appear here.',
		]);
		const thirdNews = editsOf(harness(), third).filter((text) => WAITING.test(text));
		expect(thirdNews[0]).toBe('Veil is busy: 1 ask is ahead of yours. Your answer will appear here.');
		expect(thirdNews.length).toBeLessThanOrEqual(2);
		expect(editsOf(harness(), third).at(-1)).toBe('Answer to: c');
	});

	it('moves a waiting ask up as the line moves, editing its message again after 2 s at most, with about how long from the answers timed', async () => {
		const [a, b, c] = members as [(typeof members)[0], (typeof members)[0], (typeof members)[0]];
		const first = door();
		const second = door();
		harness().upstream.scriptGeneration(
			{ json: safeResponse('Answer to: a'), until: first.closed },
			{ json: safeResponse('Answer to: b'), until: second.closed },
		);
		const running = askAs(harness(), a, 'a');
		await harness().upstream.waitForRequests(harness().upstream.requests.length + 1);
		const next = askAs(harness(), b, 'b');
		await next.waitFor((s) => s.originalEdits > 0);
		const last = askAs(harness(), c, 'c');
		await last.waitFor((s) => s.originalEdits > 0);
		// The test before this one timed answers in this bot's line, so the place comes with an estimate.
		expect(placeOf(last.state().original?.content)).toBe('Veil is busy: 1 ask is ahead of yours. Your answer will appear here.');
		expect(estimateOf(last.state().original?.content)).toMatch(/^About \d+ s to go\.$/);
		first.open();
		await waitForFinalAnswer(running);
		const moved = await last.waitFor(
			(s) => placeOf(s.original?.content) === 'Veil is busy: yours is next in line. Your answer will appear here.',
			5000,
		);
		// The estimate rides on the place's edit: no edit of its own.
		expect(moved.originalEdits).toBe(2);
		expect(estimateOf(moved.original?.content)).toMatch(/^About \d+ s to go\.$/);
		second.open();
		expect((await waitForFinalAnswer(last)).original?.content).toBe('Answer to: c');
		expect(editsOf(harness(), last).map(placeOf)).toEqual([
			'Veil is busy: 1 ask is ahead of yours. Your answer will appear here.',
			'Veil is busy: yours is next in line. Your answer will appear here.',
			'Answer to: c',
		]);
	});

	it("refuses a member's second ask while the first is still running, at once and only to them, asking nothing upstream", async () => {
		const [a] = members as [(typeof members)[0]];
		const upstream = door();
		harness().upstream.scriptGeneration({ json: safeResponse('Answer to: slow'), until: upstream.closed });
		const first = askAs(harness(), a, 'slow');
		await harness().upstream.waitForRequests(harness().upstream.requests.length + 1);
		const before = generationCount(harness());
		const second = await askAs(harness(), a, 'again').waitForAnswer();
		expect(second.callbacks.map((c) => c.type)).toEqual([InteractionResponseType.ChannelMessageWithSource]);
		expect(second.ephemeral).toBe(true);
		expect(second.original?.content).toBe('Veil is still answering your last question. Wait for that answer, then ask again.');
		expect(generationCount(harness())).toBe(before);
		upstream.open();
		expect((await waitForFinalAnswer(first)).original?.content).toBe('Answer to: slow');
		// Once answered, the member may ask again.
		expect((await waitForFinalAnswer(askAs(harness(), a, 'later'))).original?.content).toBe('Answer to: later');
	});

	it('a member waiting in line is the one ask too: their follow-up while they wait is refused', async () => {
		const [a, b] = members as [(typeof members)[0], (typeof members)[0]];
		const answered = await waitForFinalAnswer(askAs(harness(), b, 'to follow up'));
		const upstream = door();
		harness().upstream.scriptGeneration({ json: safeResponse('Answer to: hold'), until: upstream.closed });
		const holder = askAs(harness(), a, 'hold');
		await harness().upstream.waitForRequests(harness().upstream.requests.length + 1);
		const waiting = askAs(harness(), b, 'wait');
		await waiting.waitFor((s) => s.originalEdits > 0);
		const followUpId = JSON.stringify(answered.original?.components).match(/ask:followup:[^"]+/)?.[0] as string;
		const press = await harness().discord.button({ customId: followUpId, message: answered.original, user: b }).waitForAnswer();
		const before = generationCount(harness());
		const submit = await harness()
			.discord.modalSubmit({ customId: press.modal?.custom_id as string, fields: { prompt: 'more' }, user: b })
			.waitForAnswer();
		expect(submit.ephemeral).toBe(true);
		expect(submit.original?.content).toMatch(/still answering your last question/);
		expect(generationCount(harness())).toBe(before);
		upstream.open();
		await Promise.all([waitForFinalAnswer(holder), waitForFinalAnswer(waiting)]);
	});
});
