import { ApplicationCommandOptionType, InteractionResponseType, MessageFlags } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import {
	click,
	customIdsOf,
	expectPrivateAndQuiet,
	freshServer,
	lastWords,
	listFlags,
	listLines,
	makeFlag,
	MODERATOR_PERMISSIONS,
	readable,
	runSubcommand,
	viewFlag,
	type Where,
	textOf,
} from '../support/moderation.js';

const harness = useHarness();

const NO_SUCH_FLAG = 'No flag with that id in this server.';

describe('permissions', () => {
	it('refuses a member without Manage Messages on every moderator path, with no flag data in the answer', async () => {
		const { guild, member, moderator } = freshServer(harness());
		const flag = await makeFlag(harness(), member, { prompt: 'SECRET-PROMPT-1', text: 'SECRET-TEXT-1' });
		// A moderator's own list, so the member's Next press has a real message to press on.
		await listFlags(harness(), moderator);
		const attempts = [
			() => listFlags(harness(), member),
			() => listFlags(harness(), member, 2),
			() => viewFlag(harness(), member, flag.id),
			() => click(harness(), member, `flagged:view:${flag.id}`),
			() => click(harness(), member, `flagged:release:${flag.id}`),
			() => click(harness(), member, `flagged:dismiss:${flag.id}`),
			() => click(harness(), member, `flagged:review:${flag.id}`),
			() => click(harness(), member, `flagged:page:2:${member.user.id}`),
			() => click(harness(), member, `flagged:page:2:${moderator.user.id}`),
		];
		for (const attempt of attempts) {
			const state = await attempt();
			expectPrivateAndQuiet(state);
			expect(textOf(state)).toBe('You need the Manage Messages permission in this server to do this.');
			const seen = readable(state);
			for (const secret of ['SECRET-PROMPT-1', 'SECRET-TEXT-1', flag.id]) expect(seen).not.toContain(secret);
		}
		// /settings needs Manage Server, which Manage Messages does not give.
		const settings = await runSubcommand(harness(), moderator, 'settings', 'modlog', [
			{ type: ApplicationCommandOptionType.Channel, name: 'channel', value: guild.channels[1]!.id },
		]);
		expect(textOf(settings)).toBe('You need the Manage Server permission in this server to do this.');
		expect(await harness().bot.context.settings.get(guild.id)).toEqual({});
		// Nothing was acted on: no release posted, the flag still pending with its text.
		expect(harness().discord.channelMessages(guild.channels[0]!.id)).toEqual([]);
		const stored = await harness().bot.context.flags.find(guild.id, flag.id);
		expect(stored).toMatchObject({ text: 'SECRET-TEXT-1' });
		expect(stored?.decision).toBeUndefined();
	});

	it('refuses outside a server', async () => {
		const state = await harness()
			.discord.slashCommand({
				name: 'flagged',
				options: [{ type: ApplicationCommandOptionType.Subcommand, name: 'list', options: [] }],
				guildId: null,
				memberPermissions: MODERATOR_PERMISSIONS,
			})
			.waitForAnswer();
		expect(textOf(state)).toBe('This works in servers only.');
	});
});

describe('cross-server isolation', () => {
	it("answers another server's id exactly like an unknown one, and lists nothing of it", async () => {
		const a = freshServer(harness());
		const b = freshServer(harness());
		const flag = await makeFlag(harness(), a.member, { prompt: 'SECRET-PROMPT-2', text: 'SECRET-TEXT-2' });
		const unknown = await viewFlag(harness(), b.moderator, 'zzzzzzzzzz');
		const foreign = await viewFlag(harness(), b.moderator, flag.id);
		expect(textOf(unknown)).toBe(NO_SUCH_FLAG);
		expect(textOf(foreign)).toBe(NO_SUCH_FLAG);
		expect(foreign.original?.embeds).toEqual(unknown.original?.embeds);
		for (const prefix of ['flagged:view', 'flagged:release', 'flagged:dismiss', 'flagged:review']) {
			const pressed = await click(harness(), b.moderator, `${prefix}:${flag.id}`);
			expect(lastWords(pressed)).toBe(NO_SUCH_FLAG);
			expect(readable(pressed)).not.toContain('SECRET');
		}
		const listed = await listFlags(harness(), b.moderator);
		expect(readable(listed)).not.toContain(flag.id);
		expect(textOf(listed)).toContain('No flagged replies');
		// Still pending at home.
		expect(listLines(await listFlags(harness(), a.moderator))).toEqual([expect.stringContaining('**pending**')]);
	});
});

describe('/flagged list', () => {
	it('pages 25 flags ten at a time, newest first, with Previous and Next for the moderator who ran it', async () => {
		const { member, moderator, guild } = freshServer(harness());
		const ids: string[] = [];
		for (let n = 0; n < 25; n += 1) ids.push((await makeFlag(harness(), member, { prompt: `prompt ${n}`, text: `text ${n}` })).id);
		const newestFirst = [...ids].reverse();

		const first = await listFlags(harness(), moderator);
		expectPrivateAndQuiet(first);
		expect(first.original?.embeds[0]?.title).toBe('Flagged replies · page 1 of 3');
		const firstLines = listLines(first);
		expect(firstLines.map((line) => /`([a-z0-9]+)`/.exec(line)?.[1])).toEqual(newestFirst.slice(0, 10));
		for (const line of firstLines) {
			expect(line).toContain(`<@${member.user.id}>`);
			expect(line).toMatch(/<t:\d+:f>/);
			expect(line).toContain('Harassment MEDIUM');
			expect(line).toContain('**pending**');
		}
		const mod = moderator.user.id;
		expect(customIdsOf(first)).toEqual([`flagged:page:0:${mod}`, `flagged:page:2:${mod}`]);
		const listMessageId = first.original?.id;

		// Another moderator's press on this list is refused and changes nothing.
		const other: Where = { user: makeUser('other-mod'), guild, permissions: MODERATOR_PERMISSIONS };
		const refused = await click(harness(), other, `flagged:page:2:${mod}`);
		expect(textOf(refused)).toContain('Only the moderator who ran this /flagged list');
		expect(refused.original?.id).not.toBe(listMessageId);
		expect(readable(refused)).not.toContain(ids[0]);

		const second = await click(harness(), moderator, `flagged:page:2:${mod}`);
		expect(second.callbacks[0]?.type).toBe(InteractionResponseType.DeferredMessageUpdate);
		expect(second.original?.id).toBe(listMessageId);
		expect(listLines(second).map((line) => /`([a-z0-9]+)`/.exec(line)?.[1])).toEqual(newestFirst.slice(10, 20));

		const third = await click(harness(), moderator, `flagged:page:3:${mod}`);
		expect(third.original?.id).toBe(listMessageId);
		expect(third.original?.embeds[0]?.title).toBe('Flagged replies · page 3 of 3');
		expect(listLines(third).map((line) => /`([a-z0-9]+)`/.exec(line)?.[1])).toEqual(newestFirst.slice(20));
		const nextButton = (third.original?.components[0] as { components: Array<{ disabled?: boolean }> }).components[1];
		expect(nextButton?.disabled).toBe(true);

		const back = await click(harness(), moderator, `flagged:page:2:${mod}`);
		expect(back.original?.embeds[0]?.title).toBe('Flagged replies · page 2 of 3');

		expect(listLines(await listFlags(harness(), moderator, 3))).toHaveLength(5);
	});
});

describe('Release, Dismiss and Mark reviewed', () => {
	it('releases a false positive as a reply to the member notice, once', async () => {
		const { guild, member, moderator } = freshServer(harness());
		const flag = await makeFlag(harness(), member, { prompt: 'a fine question', text: 'A fine answer, hi @everyone <@123456789012345678>.' });
		const noticeId = flag.answer.original?.id;
		const view = await viewFlag(harness(), moderator, flag.id);
		expectPrivateAndQuiet(view);
		const seen = readable(view);
		expect(seen).toContain('a fine question');
		expect(seen).toContain('A fine answer');
		expect(seen).toContain(`https://discord.com/channels/${guild.id}/${guild.channels[0]!.id}/${noticeId}`);
		expect(customIdsOf(view)).toEqual([`flagged:release:${flag.id}`, `flagged:dismiss:${flag.id}`, `flagged:review:${flag.id}`]);

		const released = await click(harness(), moderator, `flagged:release:${flag.id}`);
		expect(released.original?.id).toBe(view.original?.id);
		expect(textOf(released)).toContain('Released');
		expect(customIdsOf(released)).toEqual([]);
		expect(readable(released)).toContain(`released by <@${moderator.user.id}>`);

		const posted = harness().discord.channelMessages(guild.channels[0]!.id);
		expect(posted).toHaveLength(1);
		const [message] = posted;
		expect(message?.content).toMatch(/^🔓 \*\*Released by a moderator after review\*\*/);
		expect(message?.content).toContain('A fine answer');
		expect(message?.message_reference?.message_id).toBe(noticeId);
		expect(message?.allowed_mentions).toEqual({ parse: [] });
		expect(message?.mentions).toEqual([]);
		expect(message?.mention_everyone).toBe(false);

		// A second press, even on a stale view with its buttons, says who released it and posts nothing.
		const again = await click(harness(), { ...moderator, user: makeUser('late-mod') }, `flagged:release:${flag.id}`);
		expect(textOf(again)).toContain(`already released by <@${moderator.user.id}>`);
		const dismissLate = await click(harness(), moderator, `flagged:dismiss:${flag.id}`);
		expect(textOf(dismissLate)).toContain('already released');
		expect(harness().discord.channelMessages(guild.channels[0]!.id)).toHaveLength(1);
		expect(listLines(await listFlags(harness(), moderator))[0]).toContain(`**released by <@${moderator.user.id}>`);
	});

	it('posts once when two moderators press Release together', async () => {
		const { guild, member, moderator } = freshServer(harness());
		const flag = await makeFlag(harness(), member, { prompt: 'q', text: 'held answer' });
		const other = { ...moderator, user: makeUser('second-mod') };
		const [a, b] = await Promise.all([
			click(harness(), moderator, `flagged:release:${flag.id}`),
			click(harness(), other, `flagged:release:${flag.id}`),
		]);
		expect([a, b].filter((state) => textOf(state).includes('already released'))).toHaveLength(1);
		expect(harness().discord.channelMessages(guild.channels[0]!.id)).toHaveLength(1);
	});

	it('leaves the flag pending when the release cannot be posted, and releases it later', async () => {
		const { guild, member, moderator } = freshServer(harness());
		const flag = await makeFlag(harness(), member, { prompt: 'q', text: 'held answer' });
		const channelId = guild.channels[0]!.id;
		harness().discord.failChannel(channelId, 'missing-access');
		const failed = await click(harness(), moderator, `flagged:release:${flag.id}`);
		const error = failed.followUps.at(-1);
		expect(error?.content).toContain('Veil could not post the answer');
		expect(error?.content).toContain('lost access');
		expect((error?.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
		// The view the moderator pressed on keeps its buttons, so Release can be pressed again.
		expect(JSON.stringify(failed.original?.components)).toContain(`flagged:release:${flag.id}`);
		expect((await harness().bot.context.flags.find(guild.id, flag.id))?.decision).toBeUndefined();
		harness().discord.clearChannelFailure(channelId);
		const released = await click(harness(), moderator, `flagged:release:${flag.id}`);
		expect(textOf(released)).toContain('Released');
		expect(harness().discord.channelMessages(channelId)).toHaveLength(1);
	});

	it('releases a private ask to the member alone, in a direct message, long text attached; nothing in the channel', async () => {
		const { guild, member, moderator } = freshServer(harness());
		const text = `${'A long held answer. '.repeat(600)}THE END`;
		const flag = await makeFlag(harness(), member, { prompt: 'private question', text, private: true });
		expect(flag.answer.ephemeral).toBe(true);
		const view = await viewFlag(harness(), moderator, flag.id);
		expect(readable(view)).toContain('Asked privately');
		expect(view.original?.attachments.map((attachment) => attachment.filename)).toEqual(['reply.md']);
		expect(view.original?.files[0]?.data.toString('utf8')).toBe(text);

		const released = await click(harness(), moderator, `flagged:release:${flag.id}`);
		expect(textOf(released)).toContain(`to <@${member.user.id}> alone, in a direct message`);
		expect(harness().discord.channelMessages(guild.channels[0]!.id)).toEqual([]);
		const [message, ...more] = harness().discord.directMessages(member.user.id);
		expect(more).toEqual([]);
		expect(message?.content).toMatch(/^🔓 \*\*Released by a moderator after review\*\*: the answer to your private \/ask/);
		expect(message?.content).toContain(`<#${guild.channels[0]!.id}>`);
		expect(message?.message_reference).toBeUndefined();
		expect(message?.mentions).toEqual([]);
		expect(message?.mention_everyone).toBe(false);
		expect(message?.content.length).toBeLessThanOrEqual(2000);
		expect(message?.files[0]?.data.toString('utf8')).toBe(text);
		expect((await harness().bot.context.flags.find(guild.id, flag.id))?.decision?.kind).toBe('released');
	});

	it('tells the moderator when the member of a private ask does not take direct messages, and keeps the flag pending', async () => {
		const { guild, member, moderator } = freshServer(harness());
		const flag = await makeFlag(harness(), member, { prompt: 'private question', text: 'SECRET-PRIVATE-TEXT', private: true });
		harness().discord.setDirectMessagesOpen(member.user.id, false);
		const refused = await click(harness(), moderator, `flagged:release:${flag.id}`);
		const said = lastWords(refused);
		expect(said).toContain(`Veil could not send the answer to <@${member.user.id}>`);
		expect(said).toContain("they don't accept direct messages from Veil");
		expect(said).toContain('the flag is still pending');
		expect(JSON.stringify(refused.original?.components)).toContain(`flagged:release:${flag.id}`);
		expect(harness().discord.directMessages(member.user.id)).toEqual([]);
		expect(said).not.toContain('SECRET');
		expect(harness().discord.channelMessages(guild.channels[0]!.id)).toEqual([]);
		expect((await harness().bot.context.flags.find(guild.id, flag.id))?.decision).toBeUndefined();

		harness().discord.setDirectMessagesOpen(member.user.id, true);
		const released = await click(harness(), moderator, `flagged:release:${flag.id}`);
		expect(textOf(released)).toContain('Released');
		expect(
			harness()
				.discord.directMessages(member.user.id)
				.map((m) => m.content)
				.join(''),
		).toContain('SECRET-PRIVATE-TEXT');
		expect(harness().discord.channelMessages(guild.channels[0]!.id)).toEqual([]);
	});

	it('dismisses: prompt and text erased, metadata kept, listed as dismissed; marks reviewed', async () => {
		const { guild, member, moderator } = freshServer(harness());
		const dismissed = await makeFlag(harness(), member, { prompt: 'SECRET-PROMPT-3', text: `SECRET-TEXT-3 ${'x'.repeat(5000)}` });
		const reviewed = await makeFlag(harness(), member, { prompt: 'another', text: 'another text' });

		await viewFlag(harness(), moderator, dismissed.id);
		const afterDismiss = await click(harness(), moderator, `flagged:dismiss:${dismissed.id}`);
		expect(textOf(afterDismiss)).toContain('Dismissed');
		expect(readable(afterDismiss)).not.toContain('SECRET');
		expect(afterDismiss.original?.attachments).toEqual([]);
		expect(customIdsOf(afterDismiss)).toEqual([]);
		const stored = await harness().bot.context.flags.find(guild.id, dismissed.id);
		expect(stored).toMatchObject({ prompt: null, text: null, userId: member.user.id, decision: { kind: 'dismissed', by: moderator.user.id } });
		const viewAgain = await viewFlag(harness(), moderator, dismissed.id);
		expect(readable(viewAgain)).toContain('erased');
		expect(readable(viewAgain)).toContain(`dismissed by <@${moderator.user.id}>`);
		const release = await click(harness(), moderator, `flagged:release:${dismissed.id}`);
		expect(textOf(release)).toContain('already dismissed');

		const afterReview = await click(harness(), moderator, `flagged:review:${reviewed.id}`);
		expect(textOf(afterReview)).toContain('Marked reviewed');
		expect(readable(afterReview)).toContain(`reviewed by <@${moderator.user.id}>`);
		const again = await click(harness(), moderator, `flagged:review:${reviewed.id}`);
		expect(textOf(again)).toContain('already reviewed');

		expect(listLines(await listFlags(harness(), moderator))).toEqual([
			expect.stringContaining(`**reviewed by <@${moderator.user.id}>`),
			expect.stringContaining(`**dismissed by <@${moderator.user.id}>`),
		]);
		expect(harness().discord.channelMessages(guild.channels[0]!.id)).toEqual([]);
	});
});
