import { type APIUser, ApplicationCommandOptionType, InteractionResponseType } from 'discord.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeUser, type EmulatorMessage, type InteractionState } from '../../sandbox/discord/emulator.js';
import { useHarness, type Harness } from '../support/harness.js';
import { generationCount } from '../support/admission.js';
import { echoLastPrompt, followUp, settled } from '../support/conversations.js';
import { ADMIN_PERMISSIONS, freshServer, runSubcommand, type Where } from '../support/moderation.js';
import { PLAIN_MEMBER_PERMISSIONS } from '../../sandbox/discord/emulator.js';
import { safeResponse } from '../support/upstreamStandIn.js';

/** /ask as `where`, waiting for the whole answer. */
function askIn(harness: Harness, where: Where, prompt: string): Promise<InteractionState> {
	const handle = harness.discord.slashCommand({
		name: 'ask',
		options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: prompt }],
		user: where.user,
		guildId: where.guild.id,
		memberPermissions: where.permissions,
	});
	return settled(harness, handle);
}

/** Ask Veil on `target` as `user`, then the question in its form: the form's answer, or the pick's when no form opened. */
async function askVeil(harness: Harness, target: EmulatorMessage, user: APIUser, question: string): Promise<InteractionState> {
	const picked = await harness.discord.messageCommand({ name: 'Ask Veil', target, user }).waitForAnswer();
	if (!picked.modal) return picked;
	return settled(harness, harness.discord.modalSubmit({ customId: picked.modal.custom_id, fields: { question }, user }));
}

/** The `<t:UNIX:R>` a refusal names, in seconds. */
function timestampIn(content: string | undefined): number {
	const match = /<t:(\d+):R>/.exec(content ?? '');
	if (!match) throw new Error(`no relative timestamp in: ${content}`);
	return Number(match[1]);
}

function expectRefusedPrivately(state: InteractionState): void {
	expect(state.callbacks.map((c) => c.type)).toEqual([InteractionResponseType.ChannelMessageWithSource]);
	expect(state.ephemeral).toBe(true);
	expect(state.original?.allowed_mentions).toEqual({ parse: [] });
}

describe('the daily limit', () => {
	const harness = useHarness();
	beforeEach(() => {
		harness().upstream.setDefaultGeneration((request) => ({ json: safeResponse(echoLastPrompt(request)) }));
	});

	it('is set, shown and turned off by /settings limits, for Manage Server only', async () => {
		const { guild, member } = freshServer(harness());
		const admin: Where = { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS };
		const shownBefore = await runSubcommand(harness(), admin, 'settings', 'limits');
		expect(shownBefore.ephemeral).toBe(true);
		expect(shownBefore.original?.content).toMatch(/^Daily limit: \*\*none\*\*/);

		const set = await runSubcommand(harness(), admin, 'settings', 'limits', [
			{ type: ApplicationCommandOptionType.Integer, name: 'asks_per_day', value: 3 },
		]);
		expect(set.ephemeral).toBe(true);
		expect(set.original?.content).toMatch(/^✅ Daily limit: \*\*3 questions\*\* per member a day/);
		expect((await runSubcommand(harness(), admin, 'settings', 'limits')).original?.content).toMatch(/^Daily limit: \*\*3 questions\*\*/);

		// Turning the mod-log off leaves the limit as it was.
		await runSubcommand(harness(), admin, 'settings', 'modlog');
		expect((await runSubcommand(harness(), admin, 'settings', 'limits')).original?.content).toMatch(/^Daily limit: \*\*3 questions\*\*/);

		const refused = await runSubcommand(harness(), { ...member, permissions: PLAIN_MEMBER_PERMISSIONS }, 'settings', 'limits', [
			{ type: ApplicationCommandOptionType.Integer, name: 'asks_per_day', value: 100 },
		]);
		expect(refused.ephemeral).toBe(true);
		expect(refused.original?.content).toMatch(/Manage Server/);
		expect((await harness().bot.context.settings.get(guild.id)).asksPerDay).toBe(3);

		const off = await runSubcommand(harness(), admin, 'settings', 'limits', [
			{ type: ApplicationCommandOptionType.Integer, name: 'asks_per_day', value: 0 },
		]);
		expect(off.original?.content).toMatch(/^✅ Daily limit: \*\*off\*\*/);
		expect((await harness().bot.context.settings.get(guild.id)).asksPerDay).toBeUndefined();
	});

	it('counts /ask, Follow up and Ask Veil alike; past it, says so only to the member, names the reset, and asks nothing upstream', async () => {
		const { guild, member } = freshServer(harness());
		await harness().linkMember(member.user.id);
		const admin: Where = { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS };
		await runSubcommand(harness(), admin, 'settings', 'limits', [{ type: ApplicationCommandOptionType.Integer, name: 'asks_per_day', value: 3 }]);

		const first = await askIn(harness(), member, 'one');
		expect(first.original?.content).toBe('Answer to: one');
		const followed = await followUp(harness(), first, member.user, 'two');
		expect(followed.answer?.original?.content).toBe('Answer to: two');
		const target = harness().discord.postAsMember({ user: makeUser('author'), channelId: guild.channels[0]?.id, content: 'a message' });
		expect((await askVeil(harness(), target, member.user, 'three')).original?.content).toMatch(/^Answer to: > a message/);

		const before = generationCount(harness());
		const refused = await askIn(harness(), member, 'four');
		expectRefusedPrivately(refused);
		const midnight = Math.floor(Date.now() / 86_400_000 + 1) * 86_400;
		expect(refused.original?.content).toBe(`You've reached this server's limit of 3 questions a day. It resets <t:${midnight}:R>.`);
		const refusedFollowUp = await followUp(harness(), first, member.user, 'five');
		expect(refusedFollowUp.answer?.ephemeral).toBe(true);
		expect(refusedFollowUp.answer?.original?.content).toMatch(/limit of 3 questions a day/);
		expect((await askVeil(harness(), target, member.user, 'six')).original?.content).toMatch(/limit of 3 questions a day/);
		expect(generationCount(harness())).toBe(before);

		// Another server's count is its own.
		const elsewhere = freshServer(harness());
		await runSubcommand(harness(), { user: admin.user, guild: elsewhere.guild, permissions: ADMIN_PERMISSIONS }, 'settings', 'limits', [
			{ type: ApplicationCommandOptionType.Integer, name: 'asks_per_day', value: 3 },
		]);
		expect((await askIn(harness(), { user: member.user, guild: elsewhere.guild }, 'elsewhere')).original?.content).toBe('Answer to: elsewhere');
	});

	it('does not limit members with Manage Server', async () => {
		const { guild } = freshServer(harness());
		const admin: Where = { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS };
		await harness().linkMember(admin.user.id);
		await runSubcommand(harness(), admin, 'settings', 'limits', [{ type: ApplicationCommandOptionType.Integer, name: 'asks_per_day', value: 1 }]);
		for (const prompt of ['a', 'b', 'c']) expect((await askIn(harness(), admin, prompt)).original?.content).toBe(`Answer to: ${prompt}`);
	});

	it('keeps the count in the store: a restarted bot still refuses', async () => {
		const { guild, member } = freshServer(harness());
		await harness().linkMember(member.user.id);
		await runSubcommand(harness(), { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS }, 'settings', 'limits', [
			{ type: ApplicationCommandOptionType.Integer, name: 'asks_per_day', value: 1 },
		]);
		expect((await askIn(harness(), member, 'before')).original?.content).toBe('Answer to: before');
		await harness().restartBot();
		await harness().discord.waitForReady();
		expect((await askIn(harness(), member, 'after')).original?.content).toMatch(/limit of 1 question a day/);
	});
});

describe("a member's pace", () => {
	const harness = useHarness({ env: { ASK_MEMBER_PER_MINUTE: '2' } });
	beforeEach(() => {
		harness().upstream.setDefaultGeneration((request) => ({ json: safeResponse(echoLastPrompt(request)) }));
	});

	it('past ASK_MEMBER_PER_MINUTE, answers only the member, naming when to ask again, and asks nothing upstream', async () => {
		const { member, guild } = freshServer(harness());
		await harness().linkMember(member.user.id);
		const startedAt = Date.now();
		expect((await askIn(harness(), member, 'one')).original?.content).toBe('Answer to: one');
		expect((await askIn(harness(), member, 'two')).original?.content).toBe('Answer to: two');
		const before = generationCount(harness());
		const refused = await askIn(harness(), member, 'three');
		expectRefusedPrivately(refused);
		expect(refused.original?.content).toMatch(/^You're asking quickly: at most 2 questions a minute\. You can ask again <t:\d+:R>\.$/);
		const at = timestampIn(refused.original?.content);
		expect(at).toBeGreaterThanOrEqual(Math.floor(startedAt / 1000) + 60);
		expect(at).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
		expect(generationCount(harness())).toBe(before);
		// Someone else is not slowed by it.
		const other: Where = { user: makeUser('other'), guild };
		await harness().linkMember(other.user.id);
		expect((await askIn(harness(), other, 'mine')).original?.content).toBe('Answer to: mine');
	});

	it("applies at Ask Veil's command: past it no form opens and nothing of the message is stored", async () => {
		const { member, guild } = freshServer(harness());
		await harness().linkMember(member.user.id);
		await askIn(harness(), member, 'one');
		await askIn(harness(), member, 'two');
		const target = harness().discord.postAsMember({ user: makeUser('author'), channelId: guild.channels[0]?.id, content: 'PACE-CANARY' });
		const picked = await harness().discord.messageCommand({ name: 'Ask Veil', target, user: member.user }).waitForAnswer();
		expect(picked.modal).toBeUndefined();
		expectRefusedPrivately(picked);
		expect(picked.original?.content).toMatch(/^You're asking quickly: at most 2 questions a minute\. You can ask again <t:\d+:R>\.$/);
		const kept = await harness().bot.store.entries('pending-questions');
		expect(kept.filter(([key]) => key.startsWith(`${member.user.id}:`))).toEqual([]);
	});
});
