import { ApplicationCommandOptionType, InteractionResponseType, MessageFlags } from 'discord.js';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EmulatorMessage, InteractionState } from '../../sandbox/discord/emulator.js';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { generationResponse, ratingsWith, safeResponse, type ScriptedAnswer } from '../support/upstreamStandIn.js';

const harness = useHarness();
const member = makeUser('asker');

beforeAll(async () => {
	await harness().linkMember(member.id);
});
beforeEach(() => {
	harness().upstream.setDefaultGeneration((request) => ({
		json: safeResponse(`Answer to: ${(request.json as Prompt).contents[0]?.parts[0]?.text}`),
	}));
});

interface Prompt {
	contents: Array<{ parts: Array<{ text: string }> }>;
}

function ask(prompt: string, options: { private?: boolean; user?: typeof member } = {}) {
	const raw: Array<{ type: number; name: string; value: string | boolean }> = [
		{ type: ApplicationCommandOptionType.String, name: 'prompt', value: prompt },
	];
	if (options.private !== undefined) raw.push({ type: ApplicationCommandOptionType.Boolean, name: 'private', value: options.private });
	return harness().discord.slashCommand({ name: 'ask', options: raw, user: options.user ?? member });
}

/** Every message the member ends up seeing for this interaction: the edited original, then the follow-ups after it. */
function answerMessages(state: InteractionState): EmulatorMessage[] {
	const messages = state.original ? [state.original] : [];
	for (const followUp of state.followUps) if (followUp.id !== state.original?.id) messages.push(followUp);
	return messages;
}

async function askAndWait(prompt: string, answer?: ScriptedAnswer, options?: { private?: boolean }) {
	if (answer) harness().upstream.scriptGeneration(answer);
	const handle = ask(prompt, options);
	return handle.waitForAnswer(10_000);
}

describe('/ask shows a safe answer', () => {
	it('defers publicly, then edits in the text, and calls the upstream exactly as docs/upstream.md §1 says', async () => {
		const before = harness().upstream.requests.length;
		const state = await askAndWait('What is the capital of France?');
		expect(state.callbacks[0]?.type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
		expect(state.ephemeral).toBe(false);
		expect(state.original?.content).toBe('Answer to: What is the capital of France?');
		expect(state.original?.allowed_mentions).toEqual({ parse: [] });

		const [request] = harness().upstream.requests.slice(before);
		// Acknowledged before anything went to the upstream: Discord drops an interaction after 3 s.
		expect(state.callbacks[0]?.at).toBeLessThanOrEqual(request?.at ?? 0);
		expect(request?.path).toBe(`/v1beta/models/${harness().upstream.model}:generateContent`);
		expect(request?.query).toMatchObject({ key: harness().upstream.apiKey });
		expect(request?.headers['content-type']).toMatch(/^application\/json/);
		expect(request?.headers.authorization).toBe(`Bearer access-${member.id}`);
		expect(request?.headers['x-session-token']).toBe(`session-${member.id}`);
		expect(request?.json).toEqual({ contents: [{ parts: [{ text: 'What is the capital of France?' }] }] });
	});

	it('answers only the asker when private is set', async () => {
		const state = await askAndWait('a secret question', undefined, { private: true });
		expect(state.callbacks[0]?.type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
		expect(state.ephemeral).toBe(true);
		expect(state.original?.content).toBe('Answer to: a secret question');
	});

	it('marks an answer cut short by MAX_TOKENS', async () => {
		const state = await askAndWait('long story', { json: safeResponse('Once upon a time', { finishReason: 'MAX_TOKENS' }) });
		expect(state.original?.content).toMatch(/^Once upon a time\n.*[Cc]ut short/);
	});

	it('never lets model text ping anyone', async () => {
		const text = '@everyone look <@123456789012345678> and <@&234567890123456789> @here';
		const state = await askAndWait('ping people', { json: safeResponse(text) });
		expect(state.original?.content).toBe(text);
		for (const message of answerMessages(state)) expect(message.allowed_mentions).toEqual({ parse: [] });
	});

	it('splits a long answer into messages of at most 2000 characters, losing nothing', async () => {
		const paragraphs = Array.from({ length: 6 }, (_, i) => `Paragraph ${i}: ${'word '.repeat(180).trim()}`);
		const text = paragraphs.join('\n\n');
		harness().upstream.scriptGeneration({ json: safeResponse(text) });
		const state = await ask('essay').waitFor((s) => answerMessages(s).length >= 3 && s.originalEdits > 0, 10_000);
		const messages = answerMessages(state);
		expect(messages.length).toBeGreaterThanOrEqual(3);
		expect(messages.length).toBeLessThanOrEqual(4);
		for (const message of messages) {
			expect(message.content.length).toBeLessThanOrEqual(2000);
			expect(message.allowed_mentions).toEqual({ parse: [] });
			expect(message.flags & MessageFlags.Ephemeral).toBe(0);
		}
		expect(
			messages
				.map((m) => m.content)
				.join(' ')
				.replace(/\s+/g, ' '),
		).toBe(text.replace(/\s+/g, ' '));
	});

	it("sends more than four messages' worth as the first part plus reply.md with the whole text", async () => {
		const text = Array.from({ length: 60 }, (_, i) => `Line ${i} ${'lorem ipsum '.repeat(15)}`).join('\n');
		const state = await askAndWait('a book', { json: safeResponse(text) });
		expect(state.followUps.filter((m) => m.id !== state.original?.id)).toHaveLength(0);
		const original = state.original as EmulatorMessage;
		expect(original.content.length).toBeLessThanOrEqual(2000);
		expect(original.content).toMatch(/^Line 0 lorem/);
		expect(original.content).toMatch(/reply\.md/);
		expect(original.files.map((file) => file.filename)).toEqual(['reply.md']);
		expect(original.files[0]?.data.toString('utf8')).toBe(text);
	});

	it('answers a blank prompt plainly, without calling the upstream', async () => {
		const before = harness().upstream.requests.length;
		const state = await ask('   ').waitForAnswer();
		expect(state.original?.content).toMatch(/prompt is empty/);
		expect(state.ephemeral).toBe(true);
		expect(harness().upstream.requests.length).toBe(before);
	});
});

describe('/ask hides what the ratings do not clear', () => {
	const text = 'THE-HIDDEN-TEXT-CANARY';
	const cases: Array<[string, Record<string, unknown>, RegExp]> = [
		[
			'a reply rating above NEGLIGIBLE',
			generationResponse({ text, candidateRatings: ratingsWith({ HARM_CATEGORY_HARASSMENT: 'MEDIUM' }) }),
			/Harassment: MEDIUM \(reply\)/,
		],
		[
			'a prompt rating above NEGLIGIBLE',
			generationResponse({ text, promptRatings: ratingsWith({ HARM_CATEGORY_HATE_SPEECH: 'LOW' }) }),
			/Hate speech: LOW \(prompt\)/,
		],
		[
			'a blocked rating',
			generationResponse({ text, candidateRatings: ratingsWith().map((r, i) => (i === 0 ? { ...r, blocked: true } : r)) }),
			/blocked/,
		],
		['a block reason', generationResponse({ text, blockReason: 'SAFETY' }), /blocked the prompt \(SAFETY\)/],
		['a SAFETY finish reason', generationResponse({ text, finishReason: 'SAFETY' }), /stopped early \(SAFETY\)/],
		[
			'an unknown probability',
			generationResponse({ text, candidateRatings: ratingsWith({ HARM_CATEGORY_DANGEROUS_CONTENT: 'SOMEWHAT' }) }),
			/Dangerous content: SOMEWHAT/,
		],
		['a missing category', generationResponse({ text, candidateRatings: ratingsWith().slice(1) }), /not rated/],
		['missing prompt ratings', generationResponse({ text, promptRatings: null as never }), /ratings of the prompt were missing/],
	];

	it.each(cases)('hides %s, names why, never the text, and keeps a flag', async (_name, body, why) => {
		const state = await askAndWait(`question about ${_name}`, { json: body });
		const content = state.original?.content ?? '';
		expect(content).toMatch(/hidden/);
		expect(content).toMatch(why);
		expect(content).not.toContain(text);
		expect(state.original?.allowed_mentions).toEqual({ parse: [] });
		const flagId = /`([a-z0-9]+)`/.exec(content)?.[1];
		expect(flagId).toBeDefined();
		const flag = await harness().bot.context.flags.find(harness().discord.defaultGuild.id, flagId as string);
		expect(flag).toMatchObject({ userId: member.id, prompt: `question about ${_name}`, text, model: harness().upstream.model });
		expect(flag?.noticeMessageId).toBe(state.original?.id);
	});
});

describe('/ask when the upstream fails', () => {
	it('retries a 429 and then shows the answer', async () => {
		const before = harness().upstream.requests.length;
		const state = await askAndWait('busy?', { status: 429, headers: { 'retry-after': '0' }, json: { error: 'slow down' } });
		expect(state.original?.content).toBe('Answer to: busy?');
		expect(harness().upstream.requests.length - before).toBe(2);
	});

	it('ends 5xx after the retries in a plain answer', async () => {
		const before = harness().upstream.requests.length;
		harness().upstream.scriptGeneration({ status: 503 }, { status: 502 }, { status: 500 });
		const state = await ask('down?').waitForAnswer(10_000);
		expect(state.original?.content).toMatch(/isn't answering right now/);
		expect(harness().upstream.requests.length - before).toBe(3);
	});

	it('ends a time-out after the retries in a plain answer, in place of the "thinking…"', async () => {
		const before = harness().upstream.requests.length;
		// Each call would take 3 s; the harness gives up on one after GENERATION_TIMEOUT_MS (1 s).
		const slow = { json: safeResponse('too late'), delayMs: 3000 };
		harness().upstream.scriptGeneration(slow, slow, slow);
		const asked = Date.now();
		const state = await ask('slow?').waitForAnswer(15_000);
		const answeredAfterMs = Date.now() - asked;
		// The member saw "thinking…" within Discord's 3 s, then the plain answer in its place: no spinner left running,
		// nothing else posted.
		expect(state.callbacks.map((callback) => callback.type)).toEqual([InteractionResponseType.DeferredChannelMessageWithSource]);
		expect(state.callbacks[0]!.at - state.dispatchedAt).toBeLessThan(3000);
		expect(state.original?.content).toMatch(/isn't answering right now/);
		expect(state.original?.deferred).toBeFalsy();
		expect((state.original?.flags ?? 0) & MessageFlags.Loading).toBe(0);
		expect(state.followUps).toEqual([]);
		// The first call and its two retries, each given up at its time-out rather than waited out.
		expect(harness().upstream.requests.length - before).toBe(3);
		expect(answeredAfterMs).toBeLessThan(3 * 3000);
	});

	it('ends an off-shape body in a plain answer', async () => {
		const bad = { json: { candidates: 'not a list' } };
		harness().upstream.scriptGeneration(bad, bad, bad);
		const state = await ask('weird?').waitForAnswer(10_000);
		expect(state.original?.content).toMatch(/couldn't read/);
	});

	it('never writes the API key into a log line', () => {
		expect(harness().logs.length).toBeGreaterThan(0);
		for (const line of harness().logs) expect(line).not.toContain(harness().upstream.apiKey);
	});
});

describe('the gateway', () => {
	it('resumes after a RECONNECT, and /ask still works', async () => {
		const resumes = harness().discord.resumeCount;
		harness().discord.sendReconnect();
		await harness().discord.waitUntil(() => harness().discord.resumeCount > resumes, 'the client resumed');
		const state = await askAndWait('still there?');
		expect(state.original?.content).toBe('Answer to: still there?');
	});
});

describe('/ask under concurrency', () => {
	it('answers 30 asks in flight at once without a listener warning', async () => {
		// One ask at a time per member: thirty members.
		const askers = Array.from({ length: 30 }, (_, n) => makeUser(`asker-${n}`));
		for (const asker of askers) await harness().linkMember(asker.id);
		const warnings: string[] = [];
		const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
		process.on('warning', onWarning);
		try {
			harness().upstream.scriptGeneration(...Array.from({ length: 30 }, (_, n) => ({ json: safeResponse(`answer ${n}`), delayMs: 200 })));
			const states = await Promise.all(askers.map((asker, n) => ask(`question ${n}`, { user: asker }).waitForAnswer(15_000)));
			expect(states.map((state) => state.original?.content).sort()).toEqual(Array.from({ length: 30 }, (_, n) => `answer ${n}`).sort());
			// Warnings are emitted on the next tick.
			await new Promise((resolve) => setImmediate(resolve));
		} finally {
			process.off('warning', onWarning);
		}
		expect(warnings.filter((warning) => warning.includes('MaxListenersExceeded'))).toEqual([]);
	});
});

describe('/ask when Discord rate-limits the answer', () => {
	it('gives up a long wait on the edit, logs the limit without the interaction token, and answers by the follow-up route', async () => {
		harness().discord.injectRestFailure({
			method: 'PATCH',
			pathIncludes: '/messages/@original',
			status: 429,
			headers: { 'retry-after': '12', 'x-ratelimit-scope': 'user' },
			body: { message: 'You are being rate limited.', retry_after: 12, global: false },
		});
		const linesBefore = harness().logs.length;
		const handle = ask('rate limited');
		const state = await handle.waitForAnswer(8_000);
		// The edit route is limited for 12 s; the answer itself arrives by the follow-up route instead, in good time.
		expect(state.followUps.at(-1)?.content).toBe('Answer to: rate limited');
		expect(state.followUps.at(-1)?.components).toHaveLength(1);
		const lines = harness().logs.slice(linesBefore);
		const limit = lines.find((line) => line.includes('Discord rate limit'));
		expect(limit).toBeDefined();
		expect(limit).toContain('/webhooks/');
		for (const line of lines) expect(line).not.toContain(handle.token);
	});
});
