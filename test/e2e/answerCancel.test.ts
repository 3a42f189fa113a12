import { ApplicationCommandOptionType, type APIUser } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { door, generationCount, WAITING } from '../support/admission.js';
import { buttonsOf, settled } from '../support/conversations.js';
import { buttonId, current, press } from '../support/answerActions.js';
import { safeResponse } from '../support/upstreamBodies.js';
import { sample } from '../support/operators.js';

// One call upstream at a time; outside Veil's servers one ask a day each; Cancel offered as soon as a call starts.
const harness = useHarness({
	env: { ASK_CONCURRENCY: '1', ASK_QUEUE_MAX: '2', ASK_USER_PER_DAY: '1', GENERATION_TIMEOUT_MS: '20000' },
	admission: { cancelOfferMs: 0 },
});
const [holder, asker, bystander, second] = ['holder', 'asker', 'bystander', 'second asker'].map((name) => makeUser(name)) as [
	APIUser,
	APIUser,
	APIUser,
	APIUser,
];
const CANCELLED = '❌ Cancelled: this question was not answered.';

beforeAll(async () => {
	for (const user of [holder, asker, bystander, second]) await harness().linkMember(user.id);
	harness().upstream.setDefaultGeneration(() => ({ json: safeResponse('an answer') }));
});

/** /ask in the member's DM with Veil, where ASK_USER_PER_DAY counts. */
function askInDm(user: APIUser, prompt: string) {
	return harness().discord.slashCommand({
		name: 'ask',
		options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: prompt }],
		user,
		guildId: null,
		installs: ['user'],
	});
}

const cancelled = async () => sample((await harness().bot.context.metrics.text()).body, 'veil_asks_total{outcome="cancelled"}');

describe('Cancel', () => {
	it('takes a waiting ask out of the line, for its asker alone; it is not counted, and nothing goes upstream', async () => {
		const upstream = door();
		harness().upstream.scriptGeneration({ json: safeResponse('the holder'), until: upstream.closed });
		const before = generationCount(harness());
		const holding = harness().discord.slashCommand({
			name: 'ask',
			options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'hold' }],
			user: holder,
		});
		await harness().upstream.waitForRequests(harness().upstream.requests.length + 1);

		const waiting = askInDm(asker, 'wait for me');
		const news = await waiting.waitFor((state) => WAITING.test(state.original?.content ?? '') && buttonsOf(state.original).length > 0);
		const message = news.original!;
		const cancel = buttonId(message, 'ask:cancel:');

		const refused = await press(harness(), message, cancel, bystander);
		expect(refused.ephemeral).toBe(true);
		expect(refused.original?.content).toBe('Only the member who asked this question can cancel it.');
		expect(current(harness(), message).content).toMatch(WAITING);

		await press(harness(), message, cancel, asker);
		await settled(harness(), waiting);
		expect(current(harness(), message).content).toBe(CANCELLED);
		expect(current(harness(), message).components ?? []).toEqual([]);

		upstream.open();
		await settled(harness(), holding);
		expect(generationCount(harness())).toBe(before + 1);
		expect(await cancelled()).toBe(1);
		// Not counted: the asker's one ask a day outside servers is still theirs.
		const again = await settled(harness(), askInDm(asker, 'now then'));
		expect(again.original?.content).toBe('an answer');
	});

	it('aborts the call while the answer is generated: the message says so, nothing is kept, and the ask counts', async () => {
		const upstream = door();
		harness().upstream.scriptGeneration({ json: safeResponse('too late for this'), until: upstream.closed });
		const asking = askInDm(second, 'a slow one');
		const offered = await asking.waitFor((state) => buttonsOf(state.original).some((id) => id.startsWith('ask:cancel:')));
		expect(offered.original?.content).toBe('Veil is writing your answer…');
		const message = offered.original!;

		await press(harness(), message, buttonId(message, 'ask:cancel:'), second);
		await settled(harness(), asking);
		upstream.open();
		expect(current(harness(), message).content).toBe(CANCELLED);
		expect(await cancelled()).toBe(2);
		// The service was reached: the ask counts against the day's one.
		const again = await askInDm(second, 'another').waitForAnswer();
		expect(again.ephemeral).toBe(true);
		expect(again.original?.content).toMatch(/^You've reached your limit of 1 question a day/);
	});
});
