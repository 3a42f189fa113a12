import { ApplicationCommandOptionType } from 'discord.js';
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { sqliteBytes } from '../support/sqliteBytes.js';
import { safeResponse } from '../support/upstreamStandIn.js';
import { freshServer, makeFlag, readable, viewFlag } from '../support/moderation.js';
import { ask, followUpIdOf, settled } from '../support/conversations.js';

const PASSWORD = 'CANARY-pa55word-7f3a9e';
const ACCESS = 'CANARY-access-token-51c2';
const SESSION = 'CANARY-session-token-88d0';

const harness = useHarness({ env: { LOG_LEVEL: 'trace' } });

function restBodies(): string[] {
	return harness().discord.requests.map((request) => `${request.path} ${request.rawBody.toString('utf8')} ${JSON.stringify(request.json ?? null)}`);
}

it('keeps the password out of every log line, the store and every message to Discord; the tokens only sealed', async () => {
	const user = makeUser('canary');
	const email = 'canary@example.com';
	harness().upstream.addAccount(email, PASSWORD, 'json-snake', { accessToken: ACCESS, sessionToken: SESSION });
	const submit = (password: string) =>
		harness().discord.modalSubmit({ customId: 'link:submit', fields: { email, password }, user }).waitForAnswer(10_000);

	// Linked, then asked with the tokens.
	await harness().discord.slashCommand({ name: 'link', user }).waitForAnswer();
	expect((await submit(PASSWORD)).original?.content).toMatch(/Linked/);
	await harness()
		.discord.slashCommand({ name: 'ask', user, options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'hi' }] })
		.waitForAnswer(10_000);
	expect(harness().upstream.requests.at(-1)?.headers.authorization).toBe(`Bearer ${ACCESS}`);

	// A wrong password that contains the canary, and the service down while the canary is sent.
	expect((await submit(`${PASSWORD}-wrong`)).original?.content).toMatch(/weren't accepted/);
	harness().upstream.scriptLogin({ status: 503, body: `echo: ${PASSWORD}` });
	expect((await submit(PASSWORD)).original?.content).toMatch(/isn't answering/);
	harness().upstream.scriptLogin({ json: { echoed_password: PASSWORD } });
	expect((await submit(PASSWORD)).original?.content).toMatch(/couldn't read/);

	// The canary did reach the login endpoint, so its absence below means something.
	expect(
		harness().upstream.requests.filter((request) => request.rawBody.includes(encodeURIComponent(PASSWORD).replace(/%20/g, '+'))),
	).not.toHaveLength(0);
	expect(harness().logs.length).toBeGreaterThan(20);

	const places: Array<[string, string]> = [
		['log', harness().logs.join('\n')],
		['sqlite', sqliteBytes(harness().sqliteFile)],
		['discord', restBodies().join('\n')],
	];
	for (const [place, text] of places) {
		expect(text.length, place).toBeGreaterThan(0);
		expect(text.includes(PASSWORD), `password in ${place}`).toBe(false);
		expect(text.includes(ACCESS), `access token in ${place}`).toBe(false);
		expect(text.includes(SESSION), `session token in ${place}`).toBe(false);
		expect(text.includes(harness().upstream.apiKey), `API key in ${place}`).toBe(false);
	}
	expect(sqliteBytes(harness().sqliteFile)).toContain('c***@example.com');
	expect(sqliteBytes(harness().sqliteFile)).not.toContain(email);
});

it('keeps interaction tokens and model text out of the logs when Discord refuses an answer', async () => {
	const user = makeUser('refused');
	await harness().linkMember(user.id);
	harness().upstream.scriptGeneration({ json: safeResponse('MODEL-TEXT-CANARY') });
	harness().discord.injectRestFailure({
		method: 'PATCH',
		pathIncludes: '/messages/@original',
		status: 400,
		body: { code: 50035, message: 'Invalid Form Body' },
		times: 2,
	});
	const linesBefore = harness().logs.length;
	const handle = harness().discord.slashCommand({
		name: 'ask',
		user,
		options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'hi' }],
	});
	// Both edits are refused; the error answer then arrives as a follow-up.
	const answered = await handle.waitForAnswer();
	expect(answered.followUps.at(-1)?.content).toMatch(/Something went wrong/);
	await harness().discord.waitUntil(
		() =>
			harness()
				.logs.slice(linesBefore)
				.some((line) => line.includes('following up instead')),
		'the failure was logged',
	);
	const logged = harness().logs.slice(linesBefore).join('\n');
	expect(logged).toContain('Invalid Form Body');
	expect(logged).not.toContain(handle.token);
	expect(logged).not.toContain('MODEL-TEXT-CANARY');
});

it('keeps a hidden answer in the store only sealed, where moderators still read it, in a file only Veil can open', async () => {
	const { member, moderator } = freshServer(harness());
	const flag = await makeFlag(harness(), member, { prompt: 'PROMPT-CANARY-3c1d', text: 'HELD-TEXT-CANARY-a9e4' });
	const view = await viewFlag(harness(), moderator, flag.id);
	expect(readable(view)).toContain('PROMPT-CANARY-3c1d');
	expect(readable(view)).toContain('HELD-TEXT-CANARY-a9e4');

	expect(sqliteBytes(harness().sqliteFile)).toContain(flag.id);
	expect(sqliteBytes(harness().sqliteFile)).not.toContain('PROMPT-CANARY');
	expect(sqliteBytes(harness().sqliteFile)).not.toContain('HELD-TEXT-CANARY');
	expect(statSync(harness().sqliteFile).mode & 0o777).toBe(0o600);
	expect(statSync(dirname(harness().sqliteFile)).mode & 0o777).toBe(0o700);
});

it("keeps a conversation's prompt and answer and an Ask Veil form's message only sealed in the SQLite file", async () => {
	const member = makeUser('conversing');
	await harness().linkMember(member.id);
	harness().upstream.scriptGeneration({ json: safeResponse('ANSWER-CANARY-0b7f') });
	const answer = await ask(harness(), member, 'PROMPT-CANARY-2e9d');
	expect(answer.original?.content).toBe('ANSWER-CANARY-0b7f');
	const conversationKey = `conversations:${harness().discord.defaultGuild.id}:${followUpIdOf(answer).split(':')[2]}`;
	expect(sqliteBytes(harness().sqliteFile)).toContain(conversationKey);
	expect(sqliteBytes(harness().sqliteFile)).not.toContain('PROMPT-CANARY');
	expect(sqliteBytes(harness().sqliteFile)).not.toContain('ANSWER-CANARY');

	// The form is open: the picked message's text waits in the store for its submit.
	const target = harness().discord.postAsMember({ user: makeUser('author'), content: 'FORM-TEXT-CANARY-61d3' });
	const picked = await harness().discord.messageCommand({ name: 'Ask Veil', target, user: member }).waitForAnswer();
	// One form per member, under their id; the form's key is kept beside the sealed text.
	expect(sqliteBytes(harness().sqliteFile)).toContain(`pending-questions:${member.id}`);
	expect(sqliteBytes(harness().sqliteFile)).toContain(String(picked.modal?.custom_id.split(':').at(-1)));
	expect(sqliteBytes(harness().sqliteFile)).not.toContain('FORM-TEXT-CANARY');
	harness().upstream.scriptGeneration({ json: safeResponse('an answer') });
	const asked = await settled(
		harness(),
		harness().discord.modalSubmit({ customId: picked.modal?.custom_id as string, fields: { question: 'what?' }, user: member }),
	);
	expect(asked.original?.content).toBe('an answer');
	// Its conversation keeps the question, not the quoted message, and the form's text is erased.
	expect(sqliteBytes(harness().sqliteFile)).not.toContain('FORM-TEXT-CANARY');
});
