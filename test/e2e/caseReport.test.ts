import { ApplicationCommandOptionType, MessageFlags } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type EmulatorMessage, type GuildModel, type InteractionState } from '../../sandbox/discord/emulator.js';
import { answerMessages, buttonsOf } from '../support/conversations.js';
import { useHarness } from '../support/harness.js';
import {
	ADMIN_PERMISSIONS,
	buttonIdsIn,
	cardText,
	click,
	expectCard,
	freshServer,
	listFlags,
	listLines,
	MODERATOR_PERMISSIONS,
	runSubcommand,
	textOf,
	viewFlag,
	type Where,
} from '../support/moderation.js';
import { safeResponse } from '../support/upstreamStandIn.js';

// Report a shown answer (issue 36, SPEC §16): anyone who sees it, once each, with an optional note; one case per
// answer, marked "reported by a member", its reporters shown to moderators alone; Remove deletes the answer and its
// conversation, Keep leaves it, each with a reason, and two Removes at once delete once.
const harness = useHarness({ env: { ASK_MEMBER_PER_MINUTE: '0' } });
let operators: GuildModel;

beforeAll(async () => {
	operators = harness().discord.addGuild({ name: 'Veil operators', channels: [{ name: 'general' }, { name: 'mod-log' }] });
	await harness().restartBot({ OPERATOR_GUILD_ID: operators.id });
	const admin = { user: makeUser('op-admin'), guild: operators, permissions: ADMIN_PERMISSIONS };
	await runSubcommand(harness(), admin, 'settings', 'modlog', [
		{ type: ApplicationCommandOptionType.Channel, name: 'channel', value: operators.channels[1]!.id },
	]);
});

/** A shown answer in `guild`'s first channel, asked by `asker`: its last message, which carries the buttons. */
async function shownAnswer(where: Where, text: string): Promise<EmulatorMessage> {
	await harness().linkMember(where.user.id);
	harness().upstream.scriptGeneration({ json: safeResponse(text) });
	const answered = await harness()
		.discord.slashCommand({
			name: 'ask',
			options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: `please say ${text}` }],
			user: where.user,
			guildId: where.guild.id,
		})
		.waitForAnswer();
	const last = answerMessages(answered).at(-1);
	if (!last) throw new Error('no answer');
	return last;
}

/** Presses Report on `message` as `who` and, when the form opens, sends it with `note`. */
async function report(who: Where, message: EmulatorMessage, note = ''): Promise<{ pressed: InteractionState; sent?: InteractionState }> {
	const customId = buttonsOf(message).find((id) => id.startsWith('ask:report:')) ?? '';
	const where = { user: who.user, guildId: message.guild_id ?? null, channelId: message.channel_id, message, locale: who.locale };
	const pressed = await harness()
		.discord.button({ customId, ...where })
		.waitForAnswer();
	if (!pressed.modal) return { pressed };
	const sent = await harness()
		.discord.modalSubmit({ customId: pressed.modal.custom_id, fields: { note }, ...where })
		.waitForAnswer();
	return { pressed, sent };
}

describe('Report, in a Veil server', () => {
	it('makes one case of an answer, reported by several members, each once; a moderator removes it, once', async () => {
		const { guild, member, moderator } = freshServer(harness());
		const modlogId = guild.channels[1]!.id;
		const admin = { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS };
		await runSubcommand(harness(), admin, 'settings', 'modlog', [{ type: ApplicationCommandOptionType.Channel, name: 'channel', value: modlogId }]);
		const answer = await shownAnswer(member, 'SHOWN-ANSWER-TEXT');
		const reportId = buttonsOf(answer).at(-1) ?? '';
		expect(reportId).toMatch(/^ask:report:[a-z0-9]{12}$/);

		// The button carries all it needs: a restart between the answer and the press changes nothing.
		await harness().restartBot();

		const first = { user: makeUser('reporter-one'), guild };
		const { pressed, sent } = await report(first, answer, 'This is *rude*');
		expect(pressed.modal?.title).toBe('Report this answer');
		expect(sent?.ephemeral).toBe(true);
		expect(textOf(sent!)).toBe('🚩 Thank you: the moderators will look at this answer (case #1).');
		// Once per member: the form does not even open again.
		const again = await report(first, answer);
		expect(again.pressed.modal).toBeUndefined();
		expect(textOf(again.pressed)).toBe('You already reported this answer; the moderators have it.');
		// Another member's report adds to the same case.
		const second = { user: makeUser('reporter-two'), guild };
		expect(textOf((await report(second, answer)).sent!)).toContain('(case #1)');

		// The card: reported by a member, the answer shown (it was public), who reported (for moderators), Remove and Keep.
		await harness().discord.waitUntil(() => cardText(harness().discord.channelMessages(modlogId)[0]).includes('(2)'), 'the card with both reports');
		const [post] = harness().discord.channelMessages(modlogId);
		expectCard(post);
		const text = cardText(post);
		expect(text).toMatch(/^## Case #1 · Pending\n\*\*Answer to\*\* <@\d+> · \*\*Where\*\* <#\d+>/);
		expect(text).toContain('Reported by a member');
		expect(text).toContain('**Reports** (2)');
		expect(text).toContain(`- <@${first.user.id}> <t:`);
		expect(text).toContain('> This is \\*rude\\*');
		expect(text).toContain('SHOWN-ANSWER-TEXT');
		expect(text).not.toContain('please say');
		const flagId = /`([a-z0-9]{10})` · model/.exec(text)?.[1] ?? '';
		expect(buttonIdsIn(post)).toEqual([`flagged:view:${flagId}`, `flagged:remove:${flagId}`, `flagged:keep:${flagId}`]);
		expect(listLines(await listFlags(harness(), moderator))[0]).toContain('reported by a member');
		const stats = await runSubcommand(harness(), moderator, 'flagged', 'stats');
		expect(textOf(stats)).toContain('**Reported answers:** 2');

		// A member without Manage Messages cannot remove it.
		const refused = await click(harness(), { ...first, channelId: modlogId }, `flagged:remove:${flagId}`);
		expect(refused.modal).toBeUndefined();
		expect(textOf(refused)).toBe('You need the Manage Messages permission in this server to do this.');

		// Two moderators press Remove on the card at once: one deletion.
		const other = { ...moderator, user: makeUser('moderator-two') };
		const onCard = (who: Where) => ({ ...who, channelId: modlogId });
		const [a, b] = await Promise.all([
			click(harness(), onCard(moderator), `flagged:remove:${flagId}`, 'Insulting'),
			click(harness(), onCard(other), `flagged:remove:${flagId}`, 'Also insulting'),
		]);
		const deletes = harness().discord.requests.filter((request) => request.method === 'DELETE' && request.path.endsWith(`/messages/${answer.id}`));
		expect(deletes).toHaveLength(1);
		expect(harness().discord.message(answer.id)?.deleted).toBe(true);
		const said = [textOf(a), textOf(b)];
		expect(said.filter((words) => words.includes('🗑️ Removed: the answer is deleted'))).toHaveLength(1);
		expect(said.filter((words) => words.includes('already removed'))).toHaveLength(1);
		expect(a.ephemeral && b.ephemeral).toBe(true);
		// Its conversation can no longer be followed up.
		const followUp = await harness()
			.discord.button({ customId: buttonsOf(answer)[0] ?? '', user: member.user, guildId: guild.id, message: answer })
			.waitForAnswer();
		expect(textOf(followUp)).toMatch(/expired/i);
		// The card says so, with who and the reason, and no more decisions.
		const redrawn = cardText(harness().discord.channelMessages(modlogId)[0]);
		expect(redrawn).toMatch(/^## Case #1 · Removed\n/);
		expect(redrawn).toMatch(/- removed by <@\d+> <t:\d+:R>\n> (Also )?[Ii]nsulting/);
		expect(buttonIdsIn(harness().discord.channelMessages(modlogId)[0])).toEqual([`flagged:view:${flagId}`]);
	});

	it('Keep leaves the answer where it is, with the reason; Release and Remove do not fit each other', async () => {
		const { guild, member, moderator } = freshServer(harness());
		const answer = await shownAnswer(member, 'A-KEPT-ANSWER');
		await report({ user: makeUser('reporter'), guild }, answer);
		const flagId = listLines(await listFlags(harness(), moderator))[0]?.match(/`([a-z0-9]{10})`/)?.[1] ?? '';
		const view = await viewFlag(harness(), moderator, flagId);
		expect(textOf(view)).toContain('A-KEPT-ANSWER');
		// Release is a held answer's; pressed on a report (a crafted id), it does nothing.
		const wrong = await click(harness(), moderator, `flagged:release:${flagId}`);
		expect(lastOf(wrong)).toBe('That decision does not fit this case, so nothing was done.');
		const kept = await click(harness(), moderator, `flagged:keep:${flagId}`, 'Blunt, not rude');
		expect(textOf(kept)).toContain('✅ Kept: the answer stays as it is.');
		expect(textOf(kept)).toContain('> Blunt, not rude');
		expect(harness().discord.message(answer.id)?.deleted).toBeFalsy();
		expect((await harness().bot.context.flags.find(guild.id, flagId))?.decision).toMatchObject({ kind: 'kept', reason: 'Blunt, not rude' });
	});
});

describe("Report outside Veil's servers", () => {
	it("goes to the operators' queue; Remove deletes an answer in a DM with Veil", async () => {
		const member = makeUser('dm-member');
		await harness().linkMember(member.id);
		harness().upstream.scriptGeneration({ json: safeResponse('DM-ANSWER-TEXT') });
		const answered = await harness()
			.discord.slashCommand({
				name: 'ask',
				options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'a DM question' }],
				user: member,
				guildId: null,
				installs: ['user'],
			})
			.waitForAnswer();
		const answer = answerMessages(answered).at(-1)!;
		const where = { user: member, guild: operators };
		const { sent } = await report(where, answer, 'wrong facts');
		expect(textOf(sent!)).toMatch(/^🚩 Thank you/);

		const operator = { user: makeUser('operator'), guild: operators, permissions: MODERATOR_PERMISSIONS, channelId: operators.channels[1]!.id };
		const post = harness()
			.discord.channelMessages(operators.channels[1]!.id)
			.find((message) => cardText(message).includes('DM-ANSWER-TEXT'));
		expectCard(post);
		expect(cardText(post)).toContain('Outside servers · a DM with Veil');
		const flagId = /`([a-z0-9]{10})` · model/.exec(cardText(post))?.[1] ?? '';
		const removed = await click(harness(), operator, `flagged:remove:${flagId}`, 'Wrong');
		expect(textOf(removed)).toContain('🗑️ Removed: the answer is deleted');
		expect(harness().discord.message(answer.id)?.deleted).toBe(true);
		expect((await harness().bot.context.flags.find(operators.id, flagId))?.outside).toBe('dm');
		expect(MessageFlags.Ephemeral & (removed.original?.flags ?? 0)).toBe(MessageFlags.Ephemeral);
	});
});

describe('Report in a server without Veil', () => {
	it("goes to the operators' queue, never naming that server; Remove erases the conversation and says why the message stays", async () => {
		const foreign = harness().discord.addGuild({ name: 'SECRET-FOREIGN-SERVER', withoutBot: true });
		const member = makeUser('traveller');
		await harness().linkMember(member.id);
		harness().upstream.scriptGeneration({ json: safeResponse('FOREIGN-ANSWER') });
		const answered = await harness()
			.discord.slashCommand({
				name: 'ask',
				options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'a question abroad' }],
				user: member,
				guildId: foreign.id,
			})
			.waitForAnswer();
		const answer = answerMessages(answered).at(-1)!;
		const bystander = { user: makeUser('bystander-abroad'), guild: foreign };
		expect(textOf((await report(bystander, answer, 'odd')).sent!)).toMatch(/^🚩 Thank you/);

		const post = harness()
			.discord.channelMessages(operators.channels[1]!.id)
			.find((message) => cardText(message).includes('FOREIGN-ANSWER'));
		expect(cardText(post)).toContain('Outside servers · a server without Veil');
		expect(JSON.stringify(post)).not.toContain('SECRET-FOREIGN-SERVER');
		expect(JSON.stringify(post)).not.toContain(foreign.id);
		const flagId = /`([a-z0-9]{10})` · model/.exec(cardText(post))?.[1] ?? '';
		const operator = { user: makeUser('operator-two'), guild: operators, permissions: MODERATOR_PERMISSIONS, channelId: operators.channels[1]!.id };
		const removed = await click(harness(), operator, `flagged:remove:${flagId}`);
		expect(textOf(removed)).toContain(
			'🗑️ Removed: its conversation can no longer be followed up, but Veil could not delete the message: Veil is not a member where it was posted.',
		);
		expect(harness().discord.message(answer.id)?.deleted).toBeFalsy();
		const followUp = await harness()
			.discord.button({ customId: buttonsOf(answer)[0] ?? '', user: member, guildId: foreign.id, message: answer })
			.waitForAnswer();
		expect(textOf(followUp)).toMatch(/expired/i);
	});
});

describe('Report in a group DM', () => {
	it("lets a friend there report it to the operators' queue, as from a group DM", async () => {
		const member = makeUser('group-asker');
		const friend = makeUser('group-friend');
		await harness().linkMember(member.id);
		const group = harness().discord.addGroupDm([member, friend]);
		harness().upstream.scriptGeneration({ json: safeResponse('GROUP-ANSWER') });
		const answered = await harness()
			.discord.slashCommand({
				name: 'ask',
				options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'a group question' }],
				user: member,
				channelId: group.id,
			})
			.waitForAnswer();
		const answer = answerMessages(answered).at(-1)!;
		const customId = buttonsOf(answer).find((id) => id.startsWith('ask:report:')) ?? '';
		const pressed = await harness().discord.button({ customId, user: friend, channelId: group.id, message: answer }).waitForAnswer();
		expect(pressed.modal?.title).toBe('Report this answer');
		const sent = await harness()
			.discord.modalSubmit({ customId: pressed.modal!.custom_id, fields: { note: '' }, user: friend, channelId: group.id, message: answer })
			.waitForAnswer();
		expect(textOf(sent)).toMatch(/^🚩 Thank you/);
		const post = harness()
			.discord.channelMessages(operators.channels[1]!.id)
			.find((message) => cardText(message).includes('GROUP-ANSWER'));
		expect(cardText(post)).toContain('Outside servers · a group DM');
		expect(cardText(post)).toContain(`<@${friend.id}>`);
	});
});

function lastOf(state: InteractionState): string {
	return state.followUps.at(-1)?.content ?? textOf(state);
}
