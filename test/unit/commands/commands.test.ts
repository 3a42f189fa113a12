import { ApplicationCommandOptionType } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GUILD_ID, MANAGER, MEMBER, MODERATOR, startCommandHarness, type CommandHarness } from '../../support/commandHarness.js';

// The command layer: each handler through the bot's router, on a memory store, with no Discord and no bot running.
let harness: CommandHarness;
beforeEach(async () => {
	harness = await startCommandHarness();
});
afterEach(async () => {
	await harness.close();
});

const limits = (asksPerDay?: number) => ({
	name: 'settings',
	subcommand: 'limits',
	permissions: MANAGER,
	options: asksPerDay === undefined ? [] : [{ type: ApplicationCommandOptionType.Integer as const, name: 'asks_per_day', value: asksPerDay }],
});

/** The text the member finally reads, and whether only they see it. */
const finalWords = (answers: Awaited<ReturnType<CommandHarness['run']>>) => ({
	text: answers.findLast((answer) => answer.content !== undefined)?.content ?? '',
	private: answers[0]?.ephemeral ?? false,
});

describe('/settings limits', () => {
	it('shows no limit in a new server, privately, and changes nothing', async () => {
		expect(finalWords(await harness.run(limits()))).toMatchObject({ text: expect.stringMatching(/Daily limit: \*\*none\*\*/), private: true });
		expect((await harness.ctx.settings.get(GUILD_ID)).asksPerDay).toBeUndefined();
	});

	it('sets a limit that the server keeps and the next look shows, and 0 turns it off', async () => {
		expect(finalWords(await harness.run(limits(5)))).toMatchObject({ text: expect.stringContaining('5'), private: true });
		expect(await harness.ctx.settings.asksPerDay(GUILD_ID)).toBe(5);
		expect(finalWords(await harness.run(limits())).text).toMatch(/\b5\b/);
		expect(finalWords(await harness.run(limits(0))).text).toMatch(/Daily limit: \*\*off\*\*/);
		expect(await harness.ctx.settings.asksPerDay(GUILD_ID)).toBeUndefined();
	});

	it('refuses a negative limit and keeps the one set', async () => {
		await harness.run(limits(3));
		expect(finalWords(await harness.run(limits(-1))).text).toMatch(/0 or more.*Nothing was changed/);
		expect(await harness.ctx.settings.asksPerDay(GUILD_ID)).toBe(3);
	});

	it('refuses a member without Manage Server before anything is read or written, naming the permission', async () => {
		const answers = await harness.run({ ...limits(7), permissions: MODERATOR });
		expect(answers.map(({ kind }) => kind)).toEqual(['reply']);
		expect(finalWords(answers)).toMatchObject({ text: expect.stringMatching(/Manage Server/), private: true });
		expect(await harness.ctx.settings.asksPerDay(GUILD_ID)).toBeUndefined();
	});
});

describe('/unlink', () => {
	it("deletes the member's link and says so, only to them", async () => {
		await harness.ctx.accounts.save('830000000000000009', 'member@example.com', { accessToken: 'acc', sessionToken: 'ses' });
		expect(finalWords(await harness.run({ name: 'unlink', userId: '830000000000000009' }))).toEqual({
			text: expect.stringMatching(/Your account is unlinked/),
			private: true,
		});
		expect(await harness.ctx.accounts.find('830000000000000009')).toBeUndefined();
	});

	it('says there was nothing to remove when the member had no link', async () => {
		expect(finalWords(await harness.run({ name: 'unlink', permissions: MEMBER })).text).toMatch(/no linked account/);
	});
});

describe('/flagged list', () => {
	it('tells a moderator privately that nothing is held', async () => {
		expect(finalWords(await harness.run({ name: 'flagged', subcommand: 'list', permissions: MODERATOR }))).toMatchObject({
			text: expect.stringMatching(/No flagged replies/),
			private: true,
		});
	});

	it('refuses a member without Manage Messages, naming the permission', async () => {
		expect(finalWords(await harness.run({ name: 'flagged', subcommand: 'list', permissions: MEMBER }))).toMatchObject({
			text: expect.stringMatching(/Manage Messages/),
			private: true,
		});
	});
});
