import { ApplicationCommandOptionType, InteractionResponseType, MessageFlags } from 'discord.js';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import {
	answerMessages,
	ask,
	buttonsOf,
	contentsOf,
	echoLastPrompt,
	followUp,
	followUpAnswer,
	followUpIdOf,
	generationRequestsSince,
	settled,
	turnsOf,
} from '../support/conversations.js';
import { click, MODERATOR_PERMISSIONS, type Where } from '../support/moderation.js';
import { lockSqliteFile } from '../support/sqliteLock.js';
import { generationResponse, ratingsWith, safeResponse } from '../support/upstreamStandIn.js';
import { UNSEEN_PROMPT } from '../../src/conversations/buildContents.js';

const harness = useHarness();
const asker = makeUser('asker');
const friend = makeUser('friend');
const stranger = makeUser('stranger');

beforeAll(async () => {
	await harness().linkMember(asker.id);
	await harness().linkMember(friend.id);
});
beforeEach(() => {
	harness().upstream.setDefaultGeneration((request) => ({ json: safeResponse(echoLastPrompt(request)) }));
});

describe('Follow up', () => {
	it('carries a three-turn conversation: the third body holds the first two turns in order, then the new prompt', async () => {
		const before = harness().upstream.requests.length;
		const first = await ask(harness(), asker, 'P1: name a colour');
		expect(first.original?.content).toBe('Answer to: P1: name a colour');
		expect(first.ephemeral).toBe(false);
		const second = await followUpAnswer(harness(), first, asker, 'P2: and another');
		expect(second.ephemeral).toBe(false);
		expect(second.original?.content).toBe('Answer to: P2: and another');
		const third = await followUpAnswer(harness(), second, asker, 'P3: which did you say first?');
		expect(third.original?.content).toBe('Answer to: P3: which did you say first?');
		// The third answer can be followed up in turn.
		expect(followUpIdOf(third)).toMatch(/^ask:followup:/);

		const [lone, withOne, withTwo] = generationRequestsSince(harness(), before);
		// A lone /ask keeps its body byte for byte: one content item, no role.
		expect(lone?.rawBody).toBe('{"contents":[{"parts":[{"text":"P1: name a colour"}]}]}');
		expect(turnsOf(withOne)).toEqual(['user:P1: name a colour', 'model:Answer to: P1: name a colour', 'user:P2: and another']);
		expect(turnsOf(withTwo)).toEqual([
			'user:P1: name a colour',
			'model:Answer to: P1: name a colour',
			'user:P2: and another',
			'model:Answer to: P2: and another',
			'user:P3: which did you say first?',
		]);
		expect(withTwo?.rawBody).toBe(
			JSON.stringify({
				contents: [
					{ role: 'user', parts: [{ text: 'P1: name a colour' }] },
					{ role: 'model', parts: [{ text: 'Answer to: P1: name a colour' }] },
					{ role: 'user', parts: [{ text: 'P2: and another' }] },
					{ role: 'model', parts: [{ text: 'Answer to: P2: and another' }] },
					{ role: 'user', parts: [{ text: 'P3: which did you say first?' }] },
				],
			}),
		);
	});

	it('puts the button on the last message of an answer split in several', async () => {
		const paragraphs = Array.from({ length: 3 }, (_, i) => `Paragraph ${i}: ${'word '.repeat(300).trim()}`).join('\n\n');
		harness().upstream.scriptGeneration({ json: safeResponse(paragraphs) });
		const handle = harness().discord.slashCommand({
			name: 'ask',
			options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'essay' }],
			user: asker,
		});
		const state = await handle.waitFor((s) => answerMessages(s).length >= 3 && s.originalEdits > 0, 10_000);
		const messages = answerMessages(state);
		expect(messages.slice(0, -1).flatMap(buttonsOf)).toEqual([]);
		expect(buttonsOf(messages.at(-1))).toEqual([
			expect.stringMatching(/^ask:followup:/),
			expect.stringMatching(/^ask:regen:/),
			expect.stringMatching(/^ask:rate:up:/),
			expect.stringMatching(/^ask:rate:down:/),
			expect.stringMatching(/^ask:report:/),
		]);
		for (const message of messages) expect(message.allowed_mentions).toEqual({ parse: [] });
	});

	it("uses the presser's own link when another member follows up, and sends none of the asker's prompts", async () => {
		const secret = 'ASKER-PROMPT-CANARY: what did I type?';
		harness().upstream.scriptGeneration({ json: safeResponse('A public answer.') });
		const first = await ask(harness(), asker, secret);
		const before = harness().upstream.requests.length;
		const answer = await followUpAnswer(harness(), first, friend, "the friend's follow-up");
		expect(answer.original?.content).toBe("Answer to: the friend's follow-up");
		expect(answer.ephemeral).toBe(false);
		const [request] = generationRequestsSince(harness(), before);
		expect(request?.headers.authorization).toBe(`Bearer access-${friend.id}`);
		expect(request?.headers['x-session-token']).toBe(`session-${friend.id}`);
		// The friend saw the answer, not what the asker typed: the body keeps its shape, the prompt left out.
		expect(turnsOf(request)).toEqual([`user:${UNSEEN_PROMPT}`, 'model:A public answer.', "user:the friend's follow-up"]);
		expect(request?.rawBody).not.toContain('ASKER-PROMPT-CANARY');

		// The asker, following up the friend's answer, gets the friend's prompt left out in turn.
		const mine = await followUpAnswer(harness(), answer, asker, 'and mine');
		const [again] = generationRequestsSince(harness(), before + 1);
		expect(mine.original?.content).toBe('Answer to: and mine');
		expect(turnsOf(again)).toEqual([
			`user:${UNSEEN_PROMPT}`,
			'model:A public answer.',
			`user:${UNSEEN_PROMPT}`,
			"model:Answer to: the friend's follow-up",
			'user:and mine',
		]);
		expect(again?.rawBody).not.toContain("user:the friend's follow-up");
		expect(contentsOf(again).map((content) => content.parts[0]?.text)).not.toContain("the friend's follow-up");
	});

	it("answers another member's press on a private conversation as expired, sending nothing upstream", async () => {
		const first = await ask(harness(), asker, 'PRIVATE-CANARY', { private: true });
		// Discord shows the button to the asker alone; a press by anyone else can only be forged, and finds nothing.
		const before = harness().upstream.requests.length;
		const { press, answer } = await followUp(harness(), first, friend, 'let me see');
		expect(answer).toBeUndefined();
		expect(press.modal).toBeUndefined();
		expect(press.original?.content).toMatch(/has expired/);
		expect(harness().upstream.requests.length).toBe(before);
	});

	it('gives an unlinked presser the link-first answer instead of the form, and asks nothing upstream', async () => {
		const first = await ask(harness(), asker, 'another public question');
		const before = harness().upstream.requests.length;
		const { press, answer } = await followUp(harness(), first, stranger, 'never sent');
		expect(answer).toBeUndefined();
		expect(press.modal).toBeUndefined();
		expect(press.ephemeral).toBe(true);
		expect(press.original?.content).toMatch(/Link your account first/);
		expect(buttonsOf(press.original)).toEqual(['link:open']);
		expect(harness().upstream.requests.length).toBe(before);
	});

	it('keeps a private conversation private: every follow-up answers ephemerally, with its own Follow up', async () => {
		const first = await ask(harness(), asker, 'a private question', { private: true });
		expect(first.ephemeral).toBe(true);
		const second = await followUpAnswer(harness(), first, asker, 'a private follow-up');
		expect(second.callbacks[0]).toMatchObject({
			type: InteractionResponseType.DeferredChannelMessageWithSource,
			data: { flags: MessageFlags.Ephemeral },
		});
		expect(second.ephemeral).toBe(true);
		expect(second.original?.content).toBe('Answer to: a private follow-up');
		const third = await followUpAnswer(harness(), second, asker, 'and again');
		expect(third.ephemeral).toBe(true);
		expect(followUpIdOf(third)).toMatch(/^ask:followup:/);
	});

	it('refuses a blank follow-up plainly, asking nothing upstream', async () => {
		const first = await ask(harness(), asker, 'question before a blank');
		const before = harness().upstream.requests.length;
		const answer = await followUpAnswer(harness(), first, asker, '   ');
		expect(answer.ephemeral).toBe(true);
		expect(answer.original?.content).toMatch(/follow-up is empty/);
		expect(harness().upstream.requests.length).toBe(before);
	});
});

describe('what a follow-up sends', () => {
	it('sends at most the last 20 turns, dropping the oldest exchange first', async () => {
		let answered = await ask(harness(), asker, 'T1');
		for (let n = 2; n <= 10; n += 1) answered = await followUpAnswer(harness(), answered, asker, `T${n}`);
		const before = harness().upstream.requests.length;
		// Ten exchanges (20 turns) before it: the eleventh prompt would make 21, so the first exchange goes.
		await followUpAnswer(harness(), answered, asker, 'T11');
		const turns = turnsOf(generationRequestsSince(harness(), before)[0]);
		expect(turns).toHaveLength(19);
		expect(turns[0]).toBe('user:T2');
		expect(turns.slice(-3)).toEqual(['user:T10', 'model:Answer to: T10', 'user:T11']);
		expect(turns.join('\n')).not.toMatch(/T1$/m);
	});

	it('sends at most 16,000 characters, dropping the oldest first', async () => {
		const long = (n: number) => `${n}`.repeat(6000);
		harness().upstream.scriptGeneration({ json: safeResponse(long(1)) }, { json: safeResponse(long(2)) }, { json: safeResponse(long(3)) });
		let answered = await ask(harness(), asker, 'Q1');
		answered = await followUpAnswer(harness(), answered, asker, 'Q2');
		answered = await followUpAnswer(harness(), answered, asker, 'Q3');
		const before = harness().upstream.requests.length;
		await followUpAnswer(harness(), answered, asker, 'Q4');
		const sent = turnsOf(generationRequestsSince(harness(), before)[0]);
		// Three answers of 6,000 characters are more than 16,000: the first exchange is dropped, the next two fit.
		const summary = sent.map((turn) => `${turn.slice(0, turn.indexOf(':') + 3)}…(${turn.length - turn.indexOf(':') - 1})`);
		expect(summary).toEqual(['user:Q2…(2)', 'model:22…(6000)', 'user:Q3…(2)', 'model:33…(6000)', 'user:Q4…(2)']);
		expect(sent).toEqual(['user:Q2', `model:${long(2)}`, 'user:Q3', `model:${long(3)}`, 'user:Q4']);
	});
});

describe('one exchange longer than a body holds', () => {
	it('keeps a cut copy of it, so its Follow up still has the answer it follows', async () => {
		const long = `START-OF-ANSWER ${'word '.repeat(4000)}`;
		harness().upstream.scriptGeneration({ json: safeResponse(long) });
		const first = await ask(harness(), asker, 'L1: write at length');
		const before = harness().upstream.requests.length;
		await followUpAnswer(harness(), first, asker, 'L2: sum it up');
		const [request] = generationRequestsSince(harness(), before);
		const contents = contentsOf(request);
		expect(contents.map((content) => content.role)).toEqual(['user', 'model', 'user']);
		expect(contents[0]?.parts[0]?.text).toBe('L1: write at length');
		expect(contents[1]?.parts[0]?.text).toMatch(/^START-OF-ANSWER word word .* \[…\]$/s);
		const characters = contents.reduce((sum, content) => sum + [...(content.parts[0]?.text ?? '')].length, 0);
		expect(characters).toBeLessThanOrEqual(16_000);
		expect(characters).toBeGreaterThan(15_000);
	});
});

describe('a hidden answer in a conversation', () => {
	const canary = 'HIDDEN-SECOND-TURN-CANARY';
	const unsafe = { json: generationResponse({ text: canary, candidateRatings: ratingsWith({ HARM_CATEGORY_HARASSMENT: 'MEDIUM' }) }) };

	it('never enters it: no Follow up on its notice, no later body holds it, and its release adds nothing', async () => {
		const first = await ask(harness(), asker, 'H1');
		harness().upstream.scriptGeneration(unsafe);
		const hidden = await followUpAnswer(harness(), first, asker, 'H2: the hidden one');
		expect(hidden.original?.content).toMatch(/hidden/);
		expect(hidden.original?.content).not.toContain(canary);
		// Flagged like any hidden answer, with the follow-up's own prompt; its one button asks for a review, never a Follow up.
		const flagId = /Reference for moderators: `([a-z0-9]+)`/.exec(hidden.original?.content ?? '')?.[1] as string;
		expect(buttonsOf(hidden.original)).toEqual([`ask:review:${harness().discord.defaultGuild.id}:${flagId}`]);
		const guild = harness().discord.defaultGuild;
		const flag = await harness().bot.context.flags.find(guild.id, flagId);
		expect(flag).toMatchObject({ prompt: 'H2: the hidden one', text: canary, userId: asker.id, noticeMessageId: hidden.original?.id });

		// A moderator releases it: posted without a Follow up, so nothing continues from it.
		const moderator: Where = { user: makeUser('moderator'), guild, permissions: MODERATOR_PERMISSIONS };
		await click(harness(), moderator, `flagged:release:${flagId}`);
		const released = harness()
			.discord.channelMessages(harness().discord.defaultChannelId)
			.find((message) => message.content.includes(canary));
		expect(released).toBeDefined();
		expect(buttonsOf(released)).toEqual([]);

		// The conversation goes on from the last shown answer; no body holds the hidden turn.
		const before = harness().upstream.requests.length;
		const third = await followUpAnswer(harness(), first, asker, 'H3');
		expect(third.original?.content).toBe('Answer to: H3');
		const [request] = generationRequestsSince(harness(), before);
		expect(turnsOf(request)).toEqual(['user:H1', 'model:Answer to: H1', 'user:H3']);
		expect(request?.rawBody).not.toContain(canary);
		expect(request?.rawBody).not.toContain('H2');
	});
});

describe('after a restart', () => {
	it('follows up an answer given before the bot restarted, with the turns kept in the store', async () => {
		const first = await ask(harness(), asker, 'R1: before the restart');
		await harness().restartBot();
		const before = harness().upstream.requests.length;
		const answer = await followUpAnswer(harness(), first, asker, 'R2: after it');
		expect(answer.original?.content).toBe('Answer to: R2: after it');
		expect(turnsOf(generationRequestsSince(harness(), before)[0])).toEqual([
			'user:R1: before the restart',
			'model:Answer to: R1: before the restart',
			'user:R2: after it',
		]);
	});
});

describe('a conversation planted in plain', () => {
	it('is not honoured: its Follow up answers as expired and sends nothing upstream', async () => {
		const guildId = harness().discord.defaultGuild.id;
		const now = Date.now();
		const planted = {
			version: 1,
			ephemeral: false,
			turns: [
				{ role: 'user', text: 'PLANTED-CANARY' },
				{ role: 'model', text: 'planted answer' },
			],
			createdAt: new Date(now).toISOString(),
			expiresAt: new Date(now + 3_600_000).toISOString(),
		};
		await harness().bot.store.set('conversations', `${guildId}:plantedrecrd`, planted, 3_600_000);
		const before = harness().upstream.requests.length;
		const press = await harness().discord.button({ customId: 'ask:followup:plantedrecrd', user: asker }).waitForAnswer();
		expect(press.modal).toBeUndefined();
		expect(press.original?.content).toMatch(/has expired/);
		const submit = await settled(
			harness(),
			harness().discord.modalSubmit({ customId: 'ask:followup-form:plantedrecrd', fields: { prompt: 'go on' }, user: asker }),
		);
		expect(submit.original?.content).toMatch(/has expired/);
		expect(harness().upstream.requests.length).toBe(before);
	});
});

describe('when the conversation cannot be saved', () => {
	it('still gives the answer, without a Follow up button that would lead nowhere', async () => {
		// Writers are kept out (readers are not, in write-ahead-log mode): the link is read, the save fails.
		const lock = await lockSqliteFile(harness().sqliteFile, 'IMMEDIATE');
		const asked = harness().discord.slashCommand({
			name: 'ask',
			options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'S1: saved nowhere' }],
			user: asker,
		});
		try {
			// The ask ends as its answer goes out; the save fails after, and then the buttons come off.
			await settled(harness(), asked);
			await harness().discord.waitUntil(() => buttonsOf(asked.state().original).length === 0, 'the buttons to come off', 10_000);
		} finally {
			await lock.release();
		}
		expect(asked.state().original?.content).toBe('Answer to: S1: saved nowhere');
		expect(harness().logs.some((line) => line.includes('could not save the conversation'))).toBe(true);
		// Once the store answers again, answers carry the button as before.
		expect(followUpIdOf(await ask(harness(), asker, 'S2: saved'))).toMatch(/^ask:followup:/);
	});
});
