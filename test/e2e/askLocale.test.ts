import { ApplicationCommandOptionType } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type InteractionHandle } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { door, editsOf } from '../support/admission.js';
import { safeResponse } from '../support/upstreamStandIn.js';

// One call upstream at a time, so a second and third ask wait in line; the test decides when the first call ends.
const harness = useHarness({ env: { ASK_CONCURRENCY: '1', ASK_QUEUE_MAX: '3', GENERATION_TIMEOUT_MS: '20000' } });
const linked = ['erste', 'zweite', 'dritte'].map((name) => makeUser(name));

beforeAll(async () => {
	for (const member of linked) await harness().linkMember(member.id);
});

function ask(user: ReturnType<typeof makeUser>, prompt: string, locale: string): InteractionHandle {
	return harness().discord.slashCommand({
		name: 'ask',
		options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: prompt }],
		user,
		locale,
	});
}

describe("/ask in the member's language", () => {
	it('tells a German member to link first, in German, with a German button that opens the link form', async () => {
		const state = await ask(makeUser('neuling'), 'Hallo?', 'de').waitForAnswer();
		expect(state.ephemeral).toBe(true);
		expect(state.original?.content).toMatch(/^\*\*Verknüpfe zuerst dein Konto\.\*\* Veil fragt das Modell mit deinem eigenen Konto/);
		const [button] = (state.original?.components?.[0] as { components: Array<{ label: string; custom_id: string }> }).components;
		expect(button).toMatchObject({ label: 'Konto verknüpfen', custom_id: 'link:open' });
	});

	it('answers a locale Veil has no catalogue for in English, and a British member too', async () => {
		for (const locale of ['sv-SE', 'en-GB']) {
			const state = await ask(makeUser(`member-${locale}`), 'hello?', locale).waitForAnswer();
			expect(state.original?.content, locale).toMatch(/^\*\*Link your account first\.\*\*/);
			expect(JSON.stringify(state.original?.components)).toContain('"label":"Link account"');
		}
	});

	it('tells German and Polish members waiting in line their place in their own language', async () => {
		const [first, second, third] = linked as [(typeof linked)[0], (typeof linked)[0], (typeof linked)[0]];
		const upstream = door();
		harness().upstream.scriptGeneration({ json: safeResponse('Answer to: a'), until: upstream.closed });
		harness().upstream.setDefaultGeneration(() => ({ json: safeResponse('Antwort') }));
		const running = ask(first, 'a', 'de');
		await harness().upstream.waitForRequests(harness().upstream.requests.length + 1);
		const next = ask(second, 'b', 'de');
		await next.waitFor((s) => s.originalEdits > 0);
		const behind = ask(third, 'c', 'pl');
		await behind.waitFor((s) => s.originalEdits > 0);
		expect(next.state().original?.content).toBe('Veil ist gerade ausgelastet: Deine Frage ist als Nächstes dran. Deine Antwort erscheint hier.');
		expect(behind.state().original?.content).toBe('Veil jest zajęty: przed twoim czeka 1 pytanie. Odpowiedź pojawi się tutaj.');

		upstream.open();
		for (const handle of [running, next, behind]) await handle.waitFor((s) => /^(Answer to: a|Antwort)$/.test(s.original?.content ?? ''));
		// The model's answer is never translated: the German member reads it as the model wrote it.
		expect(editsOf(harness(), next).at(-1)).toBe('Antwort');
	});
});
