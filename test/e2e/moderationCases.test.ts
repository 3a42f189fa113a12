import { ApplicationCommandOptionType, Routes } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import {
	ADMIN_PERMISSIONS,
	click,
	freshServer,
	lastWords,
	listFlags,
	listLines,
	makeFlag,
	runSubcommand,
	textOf,
	viewFlag,
	expectCard,
	cardText,
	buttonIdsIn,
} from '../support/moderation.js';

const harness = useHarness();

describe('case numbers', () => {
	it('numbers each flag of a server in turn, on its mod-log post, in /flagged list, and opens it by #N', async () => {
		const { guild, member, moderator } = freshServer(harness());
		const modlogId = guild.channels[1]!.id;
		const admin = { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS };
		await runSubcommand(harness(), admin, 'settings', 'modlog', [{ type: ApplicationCommandOptionType.Channel, name: 'channel', value: modlogId }]);
		const first = await makeFlag(harness(), member, { prompt: 'first prompt', text: 'first text' });
		const second = await makeFlag(harness(), member, { prompt: 'second prompt', text: 'second text' });

		await harness().discord.waitUntil(() => harness().discord.channelMessages(modlogId).length === 2, 'two mod-log posts');
		const posts = harness().discord.channelMessages(modlogId);
		for (const post of posts) expectCard(post);
		expect(posts.map((post) => cardText(post).split('\n')[0])).toEqual(['## Case #1 · Pending', '## Case #2 · Pending']);
		const lines = listLines(await listFlags(harness(), moderator));
		expect(lines[0]).toMatch(new RegExp(`^\\*\\*#2\\*\\* · \`${second.id}\``));
		expect(lines[1]).toMatch(new RegExp(`^\\*\\*#1\\*\\* · \`${first.id}\``));

		for (const reference of ['#1', '1', ' #1 ']) {
			const view = await viewFlag(harness(), moderator, reference);
			expectCard(view.original);
			expect(textOf(view)).toMatch(new RegExp(`^## Case #1 · Pending\n[^]*\`${first.id}\` · model`));
		}
		expect(textOf(await viewFlag(harness(), moderator, second.id))).toMatch(/^## Case #2 · Pending/);
		expect(textOf(await viewFlag(harness(), moderator, '#3'))).toBe('No flag with that id in this server.');

		// A decision brings the mod-log card up to date: its status, the history with the reason, View kept, no decisions.
		await click(harness(), moderator, `flagged:review:${first.id}`, 'Checked with the member');
		const [post, untouched] = harness().discord.channelMessages(modlogId);
		expectCard(post);
		expect(cardText(post)).toMatch(/^## Case #1 · Reviewed/);
		expect(cardText(post)).toMatch(new RegExp(`- reviewed by <@${moderator.user.id}> <t:\\d+:R>\n> Checked with the member`));
		expect(buttonIdsIn(post)).toEqual([`flagged:view:${first.id}`]);
		expect(cardText(untouched)).toMatch(/^## Case #2 · Pending/);
		expect(buttonIdsIn(untouched)).toContain(`flagged:release:${second.id}`);
	});

	it('keeps a mod-log post made before case cards working: its View reply acts, and a decision edits it as the embed it was', async () => {
		const { guild, member, moderator } = freshServer(harness());
		const modlogId = guild.channels[1]!.id;
		const flag = await makeFlag(harness(), member, { prompt: 'an old prompt', text: 'an old held text' });
		// The post as Veil made it before: an embed and a View reply row, remembered without `card`.
		const { client, flags } = harness().bot.context;
		const legacy = (await client.rest.post(Routes.channelMessages(modlogId), {
			body: {
				embeds: [{ title: '#1 · Reply hidden by the safety filter', color: 0xe67e22 }],
				components: [{ type: 1, components: [{ type: 2, style: 2, label: 'View reply', custom_id: `flagged:view:${flag.id}` }] }],
			},
		})) as { id: string };
		const stored = await flags.find(guild.id, flag.id);
		await flags.notePost(stored!, { channelId: modlogId, messageId: legacy.id });

		const shown = await click(harness(), { ...moderator, channelId: modlogId }, `flagged:view:${flag.id}`);
		expect(harness().discord.message(legacy.id)).toBeDefined();
		expect(textOf(shown)).toContain('an old held text');
		await click(harness(), moderator, `flagged:review:${flag.id}`, 'Seen');
		const edited = harness().discord.message(legacy.id);
		expect((edited?.flags ?? 0) & (1 << 15)).toBe(0);
		expect(edited?.embeds[0]?.fields).toContainEqual({ name: 'Reason', value: 'Seen' });
		expect(JSON.stringify(edited?.embeds)).not.toContain('an old held text');
		expect(buttonIdsIn(edited)).toEqual([`flagged:view:${flag.id}`]);
	});

	it("counts each server on its own, and never opens another server's case", async () => {
		const a = freshServer(harness());
		const b = freshServer(harness());
		await makeFlag(harness(), a.member, { prompt: 'a', text: 'a' });
		const flagB = await makeFlag(harness(), b.member, { prompt: 'b', text: 'b' });
		expect((await harness().bot.context.flags.find(b.guild.id, flagB.id))?.caseNumber).toBe(1);
		expect(textOf(await viewFlag(harness(), a.moderator, '#2'))).toBe('No flag with that id in this server.');
	});
});

describe('reasons and dismissal notices', () => {
	it('keeps the reason given in the decision form and shows it in the view', async () => {
		const { member, moderator } = freshServer(harness());
		const flag = await makeFlag(harness(), member, { prompt: 'p', text: 't' });
		const form = await harness()
			.discord.button({
				customId: `flagged:review:${flag.id}`,
				user: moderator.user,
				guildId: moderator.guild.id,
				memberPermissions: moderator.permissions,
			})
			.waitForAnswer();
		expect(form.modal?.title).toBe('Mark this flag reviewed');
		const decided = await click(harness(), moderator, `flagged:review:${flag.id}`, '  Harmless: a quote from a novel. ');
		expect(textOf(decided)).toContain('> Harmless: a quote from a novel.');
		const stored = await harness().bot.context.flags.find(moderator.guild.id, flag.id);
		expect(stored?.decision).toMatchObject({ kind: 'reviewed', by: moderator.user.id, reason: 'Harmless: a quote from a novel.' });
		const view = await viewFlag(harness(), moderator, flag.id);
		expect(textOf(view)).toContain('> Harmless: a quote from a novel.');
	});

	it('tells the member of a dismissal by DM, with the reason, only where the server chose so', async () => {
		const { guild, member, moderator } = freshServer(harness());
		const admin = { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS };
		const untold = await makeFlag(harness(), member, { prompt: 'p1', text: 't1' });
		await click(harness(), moderator, `flagged:dismiss:${untold.id}`, 'not by default');
		expect(harness().discord.directMessages(member.user.id)).toEqual([]);

		expect(textOf(await runSubcommand(harness(), admin, 'settings', 'notify'))).toContain('are **not** told');
		await runSubcommand(harness(), admin, 'settings', 'notify', [{ type: ApplicationCommandOptionType.Boolean, name: 'dismissals', value: true }]);
		const told = await makeFlag(harness(), member, { prompt: 'p2', text: 't2' });
		const caseNumber = (await harness().bot.context.flags.find(guild.id, told.id))?.caseNumber;
		await click(harness(), moderator, `flagged:dismiss:${told.id}`, 'Off topic for this server');
		const [notice] = harness().discord.directMessages(member.user.id);
		expect(notice?.content).toContain(`(case #${caseNumber})`);
		expect(notice?.content).toContain('**Reason:** Off topic for this server');
		expect(notice?.content).not.toContain(moderator.user.id);
		expect(notice?.allowed_mentions).toEqual({ parse: [] });

		// A member whose DMs are closed: the moderator is told, and the dismissal stands.
		const closed = await makeFlag(harness(), member, { prompt: 'p3', text: 't3' });
		harness().discord.setDirectMessagesOpen(member.user.id, false);
		const dismissed = await click(harness(), moderator, `flagged:dismiss:${closed.id}`);
		expect(lastWords(dismissed)).toContain('does not accept direct messages from Veil');
		expect((await harness().bot.context.flags.find(guild.id, closed.id))?.decision?.kind).toBe('dismissed');
		harness().discord.setDirectMessagesOpen(member.user.id, true);
	});
});

describe('/flagged stats', () => {
	it('counts what the test held and decided: by reason, decisions, release rate and median time', async () => {
		const { guild, member, moderator } = freshServer(harness());
		const flags = [];
		for (const n of [1, 2, 3]) flags.push(await makeFlag(harness(), member, { prompt: `p${n}`, text: `t${n}` }));
		await click(harness(), moderator, `flagged:release:${flags[0]!.id}`);
		await click(harness(), moderator, `flagged:dismiss:${flags[1]!.id}`);
		const stats = await runSubcommand(harness(), moderator, 'flagged', 'stats', [
			{ type: ApplicationCommandOptionType.Integer, name: 'days', value: 3 },
		]);
		const embed = stats.original?.embeds[0];
		expect(embed?.title).toBe('Held answers · the last 3 days');
		expect(embed?.description?.split('\n')).toEqual([
			'**Held:** 3 (Harassment 3)',
			'**Decisions:** 1 released, 1 dismissed, 0 reviewed, 1 pending',
			'**Release rate:** 50% of decisions (how often the hold was too cautious)',
			'**Median time to a decision:** under 5 minutes',
		]);
		expect(stats.ephemeral).toBe(true);
		const empty = freshServer(harness());
		expect(textOf(await runSubcommand(harness(), empty.moderator, 'flagged', 'stats'))).toBe('No answers were held in the last 7 days.');
		expect(guild.id).not.toBe(empty.guild.id);
	});
});
