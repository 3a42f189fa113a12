import { ApplicationCommandOptionType, type APIUser } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type InteractionHandle, type InteractionState } from '../../sandbox/discord/emulator.js';
import { t, type MessageKey, type MessageValues } from '../../src/i18n/translate.js';
import { door, waitForFinalAnswer } from '../support/admission.js';
import { answerMessages, followUpIdOf, settled } from '../support/conversations.js';
import { useHarness } from '../support/harness.js';
import { ADMIN_PERMISSIONS, freshServer, runSubcommand } from '../support/moderation.js';
import { generationResponse, ratingsWith, safeResponse } from '../support/upstreamStandIn.js';

// What /ask says to a German member besides the link-first answer and the line (askLocale.test.ts): the answer's
// notes and buttons, the hidden notice, the refusals. One call upstream at a time and one more waiting, so the line
// fills by hand.
const harness = useHarness({ env: { ASK_CONCURRENCY: '1', ASK_QUEUE_MAX: '1', GENERATION_TIMEOUT_MS: '20000' } });
const german = makeUser('deutsch');

beforeAll(async () => {
	await harness().linkMember(german.id);
});

function ask(user: APIUser, prompt: string, locale: string, where: { guildId?: string; memberPermissions?: bigint } = {}): InteractionHandle {
	return harness().discord.slashCommand({
		name: 'ask',
		options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: prompt }],
		user,
		locale,
		...where,
	});
}

/** The German sentence, checked to be a translation: a key German lacks would fall back to the English. */
function inGerman(key: MessageKey, values?: MessageValues): string {
	const said = t('de', key, values);
	expect(said, `${key} is not translated into German`).not.toBe(t('en-US', key, values));
	return said;
}

/** The labels of the buttons on one message. */
function buttonLabels(message: { components?: unknown } | undefined): string[] {
	const rows = (message?.components ?? []) as Array<{ components?: Array<{ label?: string }> }>;
	return rows.flatMap((row) => (row.components ?? []).flatMap((button) => button.label ?? []));
}

describe("/ask in a German member's language", () => {
	it('says "cut short" in German and labels Follow up in German; its form is German; the model\'s words stay as written', async () => {
		harness().upstream.scriptGeneration({ json: safeResponse('Die Antwort des Modells.', { finishReason: 'MAX_TOKENS' }) });
		const state = await settled(harness(), ask(german, 'Wie heißt die Hauptstadt?', 'de'));
		expect(state.original?.content).toBe(`Die Antwort des Modells.\n-# ${inGerman('members.ask.cutShort')}`);
		expect(buttonLabels(answerMessages(state).at(-1))).toEqual([
			inGerman('members.conversation.followUpButton'),
			inGerman('answers.buttons.regenerate'),
			inGerman('cases.buttons.report'),
		]);

		const press = await harness()
			.discord.button({ customId: followUpIdOf(state), message: answerMessages(state).at(-1)!, user: german, locale: 'de' })
			.waitForAnswer();
		expect(press.modal?.title).toBe(inGerman('members.conversation.formTitle'));
		expect(JSON.stringify(press.modal?.components)).toContain(JSON.stringify(inGerman('members.conversation.promptLabel')));
	});

	it('tells a German member in German that the answer was hidden, and why, naming the rating in German', async () => {
		harness().upstream.scriptGeneration({
			json: generationResponse({ text: 'secret', candidateRatings: ratingsWith({ HARM_CATEGORY_HARASSMENT: 'MEDIUM' }) }),
		});
		const notice = (await ask(german, 'Etwas Heikles?', 'de').waitForAnswer()).original?.content ?? '';
		const [headline, why, reference] = notice.split('\n');
		expect(headline).toBe(inGerman('members.ask.hidden.forServer'));
		const rating = inGerman('members.ratings.inReply', {
			category: inGerman('members.ratings.categories.HARM_CATEGORY_HARASSMENT'),
			probability: 'MEDIUM',
		});
		expect(why).toBe(inGerman('members.ask.hidden.why', { reasons: rating }));
		expect(reference).toMatch(new RegExp(`^-# ${inGerman('members.ask.hidden.reference', { flagId: 'ID' }).replace('ID', '[a-z0-9]+')}$`));
		expect(notice).not.toContain('secret');
	});

	it('turns a German member away in German when the line is full', async () => {
		const [first, second] = [makeUser('erster'), makeUser('zweiter')];
		for (const member of [first, second]) await harness().linkMember(member.id);
		const upstream = door();
		harness().upstream.scriptGeneration({ json: safeResponse('eins'), until: upstream.closed });
		const running = ask(first, 'a', 'de');
		await harness().upstream.waitForRequests(harness().upstream.requests.length + 1);
		const waiting = ask(second, 'b', 'de');
		await waiting.waitFor((s) => s.originalEdits > 0);

		const turnedAway = await ask(german, 'c', 'de').waitForAnswer();
		expect(turnedAway.ephemeral).toBe(true);
		expect(turnedAway.original?.content).toBe(inGerman('members.admission.busy'));
		upstream.open();
		await Promise.all([running, waiting].map((handle) => waitForFinalAnswer(handle)));
	});

	it("names a server's daily limit and when it resets in German", async () => {
		const { guild } = freshServer(harness());
		await runSubcommand(harness(), { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS }, 'settings', 'limits', [
			{ type: ApplicationCommandOptionType.Integer, name: 'asks_per_day', value: 1 },
		]);
		harness().upstream.setDefaultGeneration(() => ({ json: safeResponse('Antwort') }));
		await settled(harness(), ask(german, 'eins', 'de', { guildId: guild.id }));
		const refused: InteractionState = await ask(german, 'zwei', 'de', { guildId: guild.id }).waitForAnswer();
		const resetsAt = /<t:\d+:R>/.exec(refused.original?.content ?? '')?.[0] ?? '(no timestamp)';
		expect(refused.ephemeral).toBe(true);
		expect(refused.original?.content).toBe(inGerman('members.admission.dailyLimit', { count: 1, resetsAt }));
	});

	it('refuses an empty prompt in German, and in English for a locale Veil has no catalogue for', async () => {
		for (const [locale, expected] of [
			['de', inGerman('members.ask.emptyPrompt')],
			['zh-TW', t('en-US', 'members.ask.emptyPrompt')],
			['xx', t('en-US', 'members.ask.emptyPrompt')],
		] as const) {
			const refused = await ask(german, '   ', locale).waitForAnswer();
			expect(refused.ephemeral, locale).toBe(true);
			expect(refused.original?.content, locale).toBe(expected);
		}
	});

	it("answers a member whose locale Veil has no catalogue for in English: the answer's button and the hidden notice", async () => {
		const member = makeUser('taiwan');
		await harness().linkMember(member.id);
		harness().upstream.scriptGeneration({ json: safeResponse('An answer.') });
		const shown = await settled(harness(), ask(member, 'hello?', 'zh-TW'));
		expect(buttonLabels(answerMessages(shown).at(-1))).toEqual(['Follow up', 'Regenerate', 'Report']);
		harness().upstream.scriptGeneration({
			json: generationResponse({ text: 'secret', candidateRatings: ratingsWith({ HARM_CATEGORY_HARASSMENT: 'MEDIUM' }) }),
		});
		const hidden = await ask(member, 'and this?', 'xx').waitForAnswer();
		expect(hidden.original?.content).toMatch(/^🛡️ \*\*This answer was hidden\.\*\*[^\n]*\n\*\*Why:\*\* Harassment: MEDIUM \(reply\)/);
	});
});
