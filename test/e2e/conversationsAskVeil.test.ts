import { type APIUser, GatewayIntentBits } from 'discord.js';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeUser, type EmulatorMessage, type InteractionState } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { answerMessages, buttonsOf, echoLastPrompt, followUpAnswer, generationRequestsSince, settled, turnsOf } from '../support/conversations.js';
import { MODERATOR_PERMISSIONS, textOf, viewFlag, type Where } from '../support/moderation.js';
import { generationResponse, ratingsWith, safeResponse } from '../support/upstreamStandIn.js';

const harness = useHarness();
const author = makeUser('author');
const asker = makeUser('asker');
const unlinked = makeUser('unlinked');

beforeAll(async () => {
	await harness().linkMember(asker.id);
});
beforeEach(() => {
	harness().upstream.setDefaultGeneration((request) => ({ json: safeResponse(echoLastPrompt(request)) }));
});

/** What picking Ask Veil on `target` did, and, when its form opened, the answer to `question` sent in it. */
async function askVeil(
	target: EmulatorMessage,
	question: string,
	user: APIUser = asker,
): Promise<{ picked: InteractionState; answer?: InteractionState }> {
	const picked = await harness().discord.messageCommand({ name: 'Ask Veil', target, user }).waitForAnswer();
	if (!picked.modal) return { picked };
	const answer = await settled(harness(), harness().discord.modalSubmit({ customId: picked.modal.custom_id, fields: { question }, user }));
	return { picked, answer };
}

describe('Ask Veil', () => {
	it('sends the message quoted, then the question, as one prompt, and answers publicly with a Follow up', async () => {
		const target = harness().discord.postAsMember({ user: author, content: 'The meeting moved to 5pm.\nBring the slides.' });
		const before = harness().upstream.requests.length;
		const { picked, answer } = await askVeil(target, 'When is the meeting?');
		expect(picked.modal?.title).toBe('Ask Veil about this message');
		expect(picked.modal?.custom_id).toMatch(/^Ask Veil:question:/);

		const prompt = '> The meeting moved to 5pm.\n> Bring the slides.\n\nWhen is the meeting?';
		const [request] = generationRequestsSince(harness(), before);
		// A lone prompt: the body of a single /ask, byte for byte, with the asker's own link.
		expect(request?.rawBody).toBe(JSON.stringify({ contents: [{ parts: [{ text: prompt }] }] }));
		expect(request?.headers.authorization).toBe(`Bearer access-${asker.id}`);
		expect(answer?.ephemeral).toBe(false);
		expect(answer?.original?.content).toBe(`Answer to: ${prompt}`);
		expect(buttonsOf(answerMessages(answer as InteractionState).at(-1))).toEqual([
			expect.stringMatching(/^ask:followup:/),
			expect.stringMatching(/^ask:rate:up:/),
			expect.stringMatching(/^ask:rate:down:/),
			expect.stringMatching(/^ask:report:/),
		]);

		// It can be followed up like any answer: the question is the conversation's first turn, with whose message it
		// asked about in place of the message.
		const next = await followUpAnswer(harness(), answer as InteractionState, asker, 'And what should I bring?');
		expect(turnsOf(generationRequestsSince(harness(), before)[1])).toEqual([
			'user:(Asked about a message by Author; the message is not kept.)\n\nWhen is the meeting?',
			`model:Answer to: ${prompt}`,
			'user:And what should I bring?',
		]);
		expect(next.ephemeral).toBe(false);
	});

	it("keeps the quoted message, another member's words, out of the saved conversation", async () => {
		const canary = 'QUOTED-WORDS-CANARY';
		const target = harness().discord.postAsMember({ user: author, content: `${canary} is my secret` });
		harness().upstream.scriptGeneration({ json: safeResponse('It is a secret.') });
		const before = harness().upstream.requests.length;
		const { answer } = await askVeil(target, 'What is it?');
		expect(generationRequestsSince(harness(), before)[0]?.rawBody).toContain(canary);
		const conversationId = buttonsOf(answerMessages(answer as InteractionState).at(-1))[0]?.split(':')[2] as string;
		const saved = await harness().bot.context.conversations.find(harness().discord.defaultGuild.id, conversationId);
		expect(saved?.turns.map((turn) => turn.text)).toEqual([
			'(Asked about a message by Author; the message is not kept.)\n\nWhat is it?',
			'It is a secret.',
		]);
		await followUpAnswer(harness(), answer as InteractionState, asker, 'Tell me more');
		expect(generationRequestsSince(harness(), before)[1]?.rawBody).not.toContain(canary);
	});

	it('keeps one form per member: a new Ask Veil replaces the one before, whose form then answers as expired', async () => {
		const first = harness().discord.postAsMember({ user: author, content: 'FIRST-FORM-TEXT' });
		const second = harness().discord.postAsMember({ user: author, content: 'SECOND-FORM-TEXT' });
		const older = await harness().discord.messageCommand({ name: 'Ask Veil', target: first, user: asker }).waitForAnswer();
		const newer = await harness().discord.messageCommand({ name: 'Ask Veil', target: second, user: asker }).waitForAnswer();
		const before = harness().upstream.requests.length;
		const stale = await settled(
			harness(),
			harness().discord.modalSubmit({ customId: older.modal?.custom_id as string, fields: { question: 'q' }, user: asker }),
		);
		expect(stale.original?.content).toBe('This form has expired. Run Ask Veil on the message again.');
		expect(harness().upstream.requests.length).toBe(before);
		// The stale form's submit left the newer one's text in place.
		const fresh = await settled(
			harness(),
			harness().discord.modalSubmit({ customId: newer.modal?.custom_id as string, fields: { question: 'q' }, user: asker }),
		);
		expect(fresh.original?.content).toContain('SECOND-FORM-TEXT');
		expect(fresh.original?.content).not.toContain('FIRST-FORM-TEXT');
	});

	it('answers ephemerally that a message without text has none, opening no form and asking nothing upstream', async () => {
		// An embed's title, description and fields count as text (SPEC §11): this message has none of them.
		const target = harness().discord.postAsMember({ user: author, content: '', embeds: [{ image: { url: 'https://example.com/a.png' } }] });
		const before = harness().upstream.requests.length;
		const { picked } = await askVeil(target, 'unused');
		expect(picked.modal).toBeUndefined();
		expect(picked.ephemeral).toBe(true);
		expect(picked.original?.content).toBe('That message has no text for Veil to read. Pick a message with text, or ask with /ask.');
		expect(harness().upstream.requests.length).toBe(before);
	});

	it('pings nobody, whatever the message held', async () => {
		const someone = makeUser('someone');
		const role = harness().discord.defaultGuild.roles[1]?.id as string;
		const target = harness().discord.postAsMember({ user: author, content: `@everyone @here <@${someone.id}> <@&${role}> look` });
		// The member's own message pinged as members' messages do; Veil's answer, quoting all of it, pings no one.
		expect(target.mention_everyone).toBe(true);
		const { answer } = await askVeil(target, 'who is mentioned?');
		const messages = answerMessages(answer as InteractionState);
		expect(messages.map((message) => message.content).join('\n')).toContain(`<@${someone.id}>`);
		for (const message of messages) {
			expect(message.allowed_mentions).toEqual({ parse: [] });
			expect(message.mentions).toEqual([]);
			expect(message.mention_roles).toEqual([]);
			expect(message.mention_everyone).toBe(false);
		}
	});

	it('gives an unlinked member the link-first answer instead of the form', async () => {
		const target = harness().discord.postAsMember({ user: author, content: 'some text' });
		const before = harness().upstream.requests.length;
		const { picked } = await askVeil(target, 'unused', unlinked);
		expect(picked.modal).toBeUndefined();
		expect(picked.ephemeral).toBe(true);
		expect(picked.original?.content).toMatch(/Link your account first/);
		expect(buttonsOf(picked.original)).toEqual(['link:open']);
		expect(harness().upstream.requests.length).toBe(before);
	});

	it('hides what the ratings do not clear, flagging the prompt that went upstream, with no Follow up', async () => {
		const canary = 'ASK-VEIL-HIDDEN-CANARY';
		const target = harness().discord.postAsMember({ user: author, content: 'a message' });
		harness().upstream.scriptGeneration({
			json: generationResponse({ text: canary, candidateRatings: ratingsWith({ HARM_CATEGORY_HATE_SPEECH: 'HIGH' }) }),
		});
		const { answer } = await askVeil(target, 'say something');
		expect(answer?.original?.content).toMatch(/hidden/);
		expect(answer?.original?.content).not.toContain(canary);
		const flagId = /`([a-z0-9]+)`/.exec(answer?.original?.content ?? '')?.[1] as string;
		// Its one button asks for a review, never a Follow up.
		expect(buttonsOf(answer?.original)).toEqual([`ask:review:${harness().discord.defaultGuild.id}:${flagId}`]);
		const flag = await harness().bot.context.flags.find(harness().discord.defaultGuild.id, flagId);
		expect(flag).toMatchObject({ prompt: '> a message\n\nsay something', text: canary, userId: asker.id, channelId: target.channel_id });
		// The prompt holds another member's words: the flag says whose, and the moderator's view shows it.
		expect(flag?.quotedAuthor).toEqual({ id: author.id, name: 'Author' });
		const moderator: Where = { user: makeUser('moderator'), guild: harness().discord.defaultGuild, permissions: MODERATOR_PERMISSIONS };
		const view = await viewFlag(harness(), moderator, flagId);
		expect(textOf(view)).toContain(`**Quotes a message by** <@${author.id}> (Author)`);
	});

	it('forgets the message once its form is used: the same form sent again has expired', async () => {
		const target = harness().discord.postAsMember({ user: author, content: 'FORM-TEXT-CANARY' });
		const { picked, answer } = await askVeil(target, 'first');
		expect(answer?.original?.content).toContain('FORM-TEXT-CANARY');
		const before = harness().upstream.requests.length;
		const again = await settled(
			harness(),
			harness().discord.modalSubmit({ customId: picked.modal?.custom_id as string, fields: { question: 'again' }, user: asker }),
		);
		expect(again.ephemeral).toBe(true);
		expect(again.original?.content).toBe('This form has expired. Run Ask Veil on the message again.');
		expect(harness().upstream.requests.length).toBe(before);
	});

	it('needs no privileged intent: the bot identifies without Message Content, and never fetches the message', () => {
		expect(harness().discord.identifies.length).toBeGreaterThan(0);
		for (const identify of harness().discord.identifies) expect(Number(identify.intents) & GatewayIntentBits.MessageContent).toBe(0);
		expect(harness().discord.requests.filter((request) => request.method === 'GET' && /\/channels\/\d+\/messages/.test(request.path))).toEqual([]);
	});
});
