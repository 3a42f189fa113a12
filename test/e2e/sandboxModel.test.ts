import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HARM_CATEGORIES } from '../../src/generation/generationResponse.js';
import { LocalModel } from '../../sandbox/model/localModel.js';

/** A generation request as Veil sends it (SPEC §4), over a real socket. */
function generate(model: LocalModel, prompt: string, options: { key?: string; signal?: AbortSignal } = {}) {
	return fetch(`${model.baseUrl}/v1beta/models/${model.model}:generateContent?key=${options.key ?? model.apiKey}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ contents: [{ parts: [{ text: prompt }] }] }),
		signal: options.signal,
	});
}

interface Rated {
	candidates: Array<{
		content: { parts: Array<{ text: string }> };
		finishReason: string;
		safetyRatings: Array<{ category: string; probability: string }>;
	}>;
	promptFeedback: { safetyRatings: Array<{ category: string; probability: string }> };
}

describe("the sandbox's local model: the model panel's choices reach the wire", () => {
	let model: LocalModel;
	beforeAll(async () => {
		model = await LocalModel.start();
	});
	afterAll(() => model.stop());

	test('by default every category is NEGLIGIBLE on prompt and candidate, and the same prompt gets the same answer', async () => {
		model.choose({ rating: null, delayMs: 0, failure: 'none' });
		const first = (await (await generate(model, 'Name a grey cat')).json()) as Rated;
		const second = (await (await generate(model, 'Name a grey cat')).json()) as Rated;
		expect(first).toEqual(second);
		expect(first.candidates[0]?.finishReason).toBe('STOP');
		expect(first.candidates[0]?.content.parts[0]?.text).toContain('You asked: “Name a grey cat”');
		for (const ratings of [first.promptFeedback.safetyRatings, first.candidates[0]?.safetyRatings]) {
			expect(ratings).toEqual(HARM_CATEGORIES.map((category) => ({ category, probability: 'NEGLIGIBLE' })));
		}
	});

	test.each(['LOW', 'MEDIUM', 'HIGH'] as const)('one category at %s is rated so on the candidate, the others NEGLIGIBLE', async (level) => {
		model.choose({ rating: { category: 'HARM_CATEGORY_HATE_SPEECH', level }, delayMs: 0, failure: 'none' });
		const body = (await (await generate(model, 'hello')).json()) as Rated;
		expect(body.candidates[0]?.safetyRatings).toEqual(
			HARM_CATEGORIES.map((category) => ({ category, probability: category === 'HARM_CATEGORY_HATE_SPEECH' ? level : 'NEGLIGIBLE' })),
		);
		expect(model.exchanges.at(-1)).toMatchObject({ endpoint: 'generate', prompt: 'hello', status: 200 });
	});

	test('files after the prompt are recorded as such, and the answer says it received them', async () => {
		model.choose({ rating: null, delayMs: 0, failure: 'none' });
		const response = await fetch(`${model.baseUrl}/v1beta/models/${model.model}:generateContent?key=${model.apiKey}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ contents: [{ parts: [{ text: 'Summarise' }, { text: 'notes.txt:\nabc' }] }] }),
		});
		const body = (await response.json()) as Rated;
		expect(body.candidates[0]?.content.parts[0]?.text).toContain('I received 1 file');
		expect(model.exchanges.at(-1)).toMatchObject({ prompt: 'Summarise', files: ['notes.txt:\nabc'] });
	});

	test('a 500 failure answers 500', async () => {
		model.choose({ rating: null, delayMs: 0, failure: '500' });
		const response = await generate(model, 'hello');
		expect(response.status).toBe(500);
		expect(((await response.json()) as { error: { status: string } }).error.status).toBe('INTERNAL');
	});

	test('a delay holds the answer back; a time-out never answers', async () => {
		model.choose({ rating: null, delayMs: 300, failure: 'none' });
		const started = Date.now();
		expect((await generate(model, 'slow')).status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);

		model.choose({ rating: null, delayMs: 0, failure: 'timeout' });
		await expect(generate(model, 'never', { signal: AbortSignal.timeout(400) })).rejects.toThrow();
		expect(model.exchanges.at(-1)).toMatchObject({ prompt: 'never', status: 0 });
	});

	test('a call Veil gave up on shows so, and an answer that comes after never turns it into a 200 (issue 35, item 5)', async () => {
		model.choose({ rating: null, delayMs: 500, failure: 'none' });
		await expect(generate(model, 'late', { signal: AbortSignal.timeout(150) })).rejects.toThrow();
		await new Promise((r) => setTimeout(r, 700));
		expect(model.exchanges.at(-1)).toMatchObject({ prompt: 'late', status: 0, abandoned: true });
		model.choose({ rating: null, delayMs: 0, failure: 'timeout' });
		await expect(generate(model, 'never again', { signal: AbortSignal.timeout(150) })).rejects.toThrow();
		await expect.poll(() => model.exchanges.at(-1)).toMatchObject({ prompt: 'never again', abandoned: true });
	});

	test("standing instructions are acknowledged in the answer, and do not count as the conversation's turns (issue 35, item 10)", async () => {
		model.choose({ rating: null, delayMs: 0, failure: 'none' });
		const answer = async (contents: Array<{ role: string; text: string }>) => {
			const response = await fetch(`${model.baseUrl}/v1beta/models/${model.model}:generateContent?key=${model.apiKey}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ contents: contents.map((c) => ({ role: c.role, parts: [{ text: c.text }] })) }),
			});
			return ((await response.json()) as Rated).candidates[0]?.content.parts[0]?.text ?? '';
		};
		const instructions = [
			{ role: 'user', text: "Instructions from this server's moderators:\nAnswer in one short line." },
			{ role: 'model', text: 'Understood.' },
		];
		const first = await answer([...instructions, { role: 'user', text: 'Hi' }]);
		expect(first).toContain('Answer in one short line.');
		expect(first).not.toMatch(/turn \d/);
		const second = await answer([...instructions, { role: 'user', text: 'Hi' }, { role: 'model', text: first }, { role: 'user', text: 'And?' }]);
		expect(second).toContain('turn 2 of our conversation');
	});

	test('a change from the panel keeps every choice it does not name', () => {
		model.choose({ rating: { category: 'HARM_CATEGORY_HARASSMENT', level: 'HIGH' }, delayMs: 0, failure: 'none' });
		expect(model.update({ delayMs: 1500 })).toEqual({
			rating: { category: 'HARM_CATEGORY_HARASSMENT', level: 'HIGH' },
			delayMs: 1500,
			failure: 'none',
		});
		expect(() => model.update({ colour: 'blue' })).toThrow();
		model.choose({ rating: null, delayMs: 0, failure: 'none' });
	});

	test('the panel refuses what it does not offer, and keeps the previous choice', () => {
		model.choose({ rating: null, delayMs: 0, failure: 'none' });
		expect(() => model.choose({ rating: { category: 'HARM_CATEGORY_UNKNOWN', level: 'HIGH' }, delayMs: 0, failure: 'none' })).toThrow();
		expect(() => model.choose({ rating: null, delayMs: -1, failure: 'none' })).toThrow();
		expect(() => model.choose({ rating: null, delayMs: 0, failure: '503' })).toThrow();
		expect(model.choices).toEqual({ rating: null, delayMs: 0, failure: 'none' });
	});

	test('a wrong key is refused (403); any e-mail and password log in, with the same tokens each time', async () => {
		expect((await generate(model, 'hi', { key: 'wrong' })).status).toBe(403);
		const login = () =>
			fetch(`${model.baseUrl}/${model.pathPrefix}/api/auth/login`, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: 'username=mia%40example.com&password=anything',
			}).then((r) => r.json() as Promise<Record<string, string>>);
		const first = await login();
		expect(first.access_token).toBeTruthy();
		expect(first.session_token).toBeTruthy();
		expect(await login()).toEqual(first);
	});
});
