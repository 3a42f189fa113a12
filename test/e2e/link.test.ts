import { ApplicationCommandOptionType, InteractionResponseType } from 'discord.js';
import { beforeEach, describe, expect, it } from 'vitest';
import type { APIUser } from 'discord-api-types/v10';
import { makeUser, type InteractionState } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { generationResponse, type LoginShape } from '../support/upstreamStandIn.js';

const harness = useHarness();

async function submitLink(user: APIUser, email: string, password: string, guildId?: string | null): Promise<InteractionState> {
	const opened = await harness().discord.slashCommand({ name: 'link', user, guildId }).waitForAnswer();
	expect(opened.callbacks[0]?.type).toBe(InteractionResponseType.Modal);
	return harness().discord.modalSubmit({ customId: 'link:submit', fields: { email, password }, user, guildId }).waitForAnswer(10_000);
}

async function askAs(user: APIUser, prompt = 'hello') {
	return harness()
		.discord.slashCommand({ name: 'ask', user, options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: prompt }] })
		.waitForAnswer(10_000);
}

function lastGeneration() {
	return harness()
		.upstream.requests.filter((request) => request.endpoint === 'generate')
		.at(-1);
}

describe('/link', () => {
	const shapes: LoginShape[] = ['json-snake', 'json-camel', 'json-token-sessionId', 'json-data', 'cookies'];

	it.each(shapes)('links an account whose login answers %s, and /ask then carries its tokens', async (shape) => {
		const user = makeUser(`shape-${shape}`);
		const email = `${shape}@example.com`;
		harness().upstream.addAccount(email, 'correct horse', shape);
		const linked = await submitLink(user, email, 'correct horse');
		expect(linked.callbacks[0]?.type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
		expect(linked.ephemeral).toBe(true);
		expect(linked.original?.content).toContain(`\`${email[0]}***@example.com\``);

		const login = harness()
			.upstream.requests.filter((request) => request.endpoint === 'login')
			.at(-1);
		expect(login?.path).toBe(`/${harness().upstream.pathPrefix}/api/auth/login`);
		expect(login?.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
		expect(login?.form).toEqual({ username: email, password: 'correct horse' });

		const answer = await askAs(user);
		expect(answer.original?.content).toBe('Answer to: hello');
		const tokens = harness().upstream.tokensOf(email);
		expect(lastGeneration()?.headers.authorization).toBe(`Bearer ${tokens?.accessToken}`);
		expect(lastGeneration()?.headers['x-session-token']).toBe(tokens?.sessionToken);
	});

	it('URL-encodes an email and a password full of form characters', async () => {
		const user = makeUser('encoder');
		const email = 'first+tag@example.com';
		const password = 'p&ss=word with spaces%';
		harness().upstream.addAccount(email, password);
		const linked = await submitLink(user, email, password);
		expect(linked.original?.content).toMatch(/Linked/);
		const login = harness()
			.upstream.requests.filter((request) => request.endpoint === 'login')
			.at(-1);
		expect(login?.rawBody).toContain('username=first%2Btag%40example.com');
		expect(login?.form).toEqual({ username: email, password });
	});

	it('refuses a malformed email without calling the login', async () => {
		const before = harness().upstream.requests.length;
		const state = await submitLink(makeUser('typo'), 'not-an-email', 'whatever');
		expect(state.original?.content).toMatch(/doesn't look like an email/);
		expect(harness().upstream.requests.length).toBe(before);
	});

	it('works in a DM with the bot', async () => {
		const user = makeUser('dm');
		harness().upstream.addAccount('dm@example.com', 'pw');
		const state = await submitLink(user, 'dm@example.com', 'pw', null);
		expect(state.original?.content).toMatch(/Linked to/);
		expect(await harness().bot.context.accounts.find(user.id)).toBeDefined();
	});

	it('replaces a link with a newer one', async () => {
		const user = makeUser('relinker');
		harness().upstream.addAccount('old@example.com', 'pw-old');
		harness().upstream.addAccount('new@example.com', 'pw-new');
		await submitLink(user, 'old@example.com', 'pw-old');
		await submitLink(user, 'new@example.com', 'pw-new');
		await askAs(user);
		expect(lastGeneration()?.headers.authorization).toBe(`Bearer ${harness().upstream.tokensOf('new@example.com')?.accessToken}`);
	});

	describe('a failed login leaves an earlier link untouched and says why', () => {
		const email = 'keeper@example.com';
		let keepers = 0;
		let user: APIUser;
		// A member of their own for each case: one member's submits are limited to 5 in 15 minutes.
		beforeEach(async () => {
			user = makeUser(`keeper-${++keepers}`);
			harness().upstream.addAccount(email, 'right');
			await submitLink(user, email, 'right');
		});

		async function expectOldLinkKept() {
			await askAs(user);
			expect(lastGeneration()?.headers.authorization).toBe(`Bearer ${harness().upstream.tokensOf(email)?.accessToken}`);
		}

		it('wrong password', async () => {
			const state = await submitLink(user, email, 'wrong');
			expect(state.original?.content).toMatch(/weren't accepted/);
			await expectOldLinkKept();
		});

		it('429 with Retry-After', async () => {
			harness().upstream.scriptLogin({ status: 429, headers: { 'retry-after': '42' }, json: { error: 'slow down' } });
			const state = await submitLink(user, email, 'right');
			expect(state.original?.content).toMatch(/Too many login attempts.*42 seconds/);
			await expectOldLinkKept();
		});

		it('500, with the raw body never shown', async () => {
			harness().upstream.scriptLogin({ status: 500, body: 'UPSTREAM-RAW-BODY stack trace here' });
			const state = await submitLink(user, email, 'right');
			expect(state.original?.content).toMatch(/isn't answering/);
			expect(state.original?.content).not.toContain('UPSTREAM-RAW-BODY');
			await expectOldLinkKept();
		});

		it('time-out', async () => {
			harness().upstream.scriptLogin({ hang: true });
			const state = await submitLink(user, email, 'right');
			expect(state.original?.content).toMatch(/isn't answering/);
			await expectOldLinkKept();
		});

		it('a success whose session token holds CR LF', async () => {
			harness().upstream.scriptLogin({ json: { access_token: 'acc', session_token: 'ses\r\nX-Injected: 1' } });
			const state = await submitLink(user, email, 'right');
			expect(state.original?.content).toMatch(/couldn't read/);
			await expectOldLinkKept();
		});

		it('a success over 64 KiB, tokens and all', async () => {
			harness().upstream.scriptLogin({ json: { access_token: 'acc', session_token: 'ses', pad: 'x'.repeat(100 * 1024) } });
			const state = await submitLink(user, email, 'right');
			expect(state.original?.content).toMatch(/couldn't read/);
			await expectOldLinkKept();
		});

		it('a success without both tokens', async () => {
			harness().upstream.scriptLogin({ json: { access_token: 'only-one' } });
			const state = await submitLink(user, email, 'right');
			expect(state.original?.content).toMatch(/couldn't read/);
			await expectOldLinkKept();
		});
	});

	it('links whoever submits the form, never anyone else', async () => {
		const submitter = makeUser('submitter');
		const bystander = makeUser('bystander');
		harness().upstream.addAccount('submitter@example.com', 'pw');
		await submitLink(submitter, 'submitter@example.com', 'pw');
		expect(await harness().bot.context.accounts.find(submitter.id)).toBeDefined();
		expect(await harness().bot.context.accounts.find(bystander.id)).toBeUndefined();
		const state = await askAs(bystander);
		expect(state.original?.content).toMatch(/Link your account first/);
	});
});

describe('/ask behind the link', () => {
	it('answers an unlinked member ephemerally with a button that opens the same modal, leaving nothing public', async () => {
		const user = makeUser('newcomer');
		const channelBefore = harness().discord.channelMessages(harness().discord.defaultChannelId, { all: true }).length;
		const generationsBefore = harness().upstream.requests.length;
		const state = await askAs(user);
		expect(state.callbacks.map((callback) => callback.type)).toEqual([InteractionResponseType.ChannelMessageWithSource]);
		expect(state.ephemeral).toBe(true);
		expect(state.original?.content).toMatch(/Link your account first/);
		expect(JSON.stringify(state.original?.components)).toContain('link:open');
		expect(harness().upstream.requests.length).toBe(generationsBefore);
		expect(harness().discord.channelMessages(harness().discord.defaultChannelId).length).toBeLessThanOrEqual(channelBefore);

		const opened = await harness().discord.button({ customId: 'link:open', user }).waitForAnswer();
		expect(opened.callbacks[0]?.type).toBe(InteractionResponseType.Modal);
		expect(opened.modal?.custom_id).toBe('link:submit');
		expect(JSON.stringify(opened.modal?.components)).toMatch(/"custom_id":"email".*"custom_id":"password"/);
	});

	it('tells a member whose tokens are refused to link again, and keeps the link', async () => {
		const user = makeUser('expired');
		await harness().linkMember(user.id);
		harness().upstream.scriptGeneration({ status: 401, json: { error: 'expired' } });
		const state = await askAs(user);
		expect(state.original?.content).toMatch(/refused your linked account.*\/link again.*kept/);
		expect(await harness().bot.context.accounts.find(user.id)).toBeDefined();
	});

	it('/unlink deletes the link and says whether there was one', async () => {
		const user = makeUser('leaver');
		await harness().linkMember(user.id);
		const first = await harness().discord.slashCommand({ name: 'unlink', user }).waitForAnswer();
		expect(first.ephemeral).toBe(true);
		expect(first.original?.content).toMatch(/unlinked/);
		expect(await harness().bot.context.accounts.find(user.id)).toBeUndefined();
		const second = await harness().discord.slashCommand({ name: 'unlink', user }).waitForAnswer();
		expect(second.original?.content).toMatch(/nothing to remove/);
		expect((await askAs(user)).original?.content).toMatch(/Link your account first/);
	});

	it('shows a hidden answer for a linked member just like any other', async () => {
		const user = makeUser('linked-hidden');
		await harness().linkMember(user.id);
		harness().upstream.scriptGeneration({ json: generationResponse({ text: 'x', finishReason: 'SAFETY' }) });
		expect((await askAs(user)).original?.content).toMatch(/hidden/);
	});
});

describe('REQUIRE_LINK=false', () => {
	const open = useHarness({ env: { REQUIRE_LINK: 'false' } });

	it('lets an unlinked member ask with the service key alone, and a linked one with their tokens', async () => {
		const stranger = makeUser('stranger');
		const state = await open()
			.discord.slashCommand({ name: 'ask', user: stranger, options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'hi' }] })
			.waitForAnswer();
		expect(state.original?.content).toBe('Answer to: hi');
		const request = open().upstream.requests.at(-1);
		expect(request?.headers.authorization).toBeUndefined();
		expect(request?.query).toMatchObject({ key: open().upstream.apiKey });

		const member = makeUser('member');
		await open().linkMember(member.id);
		await open()
			.discord.slashCommand({ name: 'ask', user: member, options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'hi' }] })
			.waitForAnswer();
		expect(open().upstream.requests.at(-1)?.headers.authorization).toBe(`Bearer access-${member.id}`);
	});
});
