import { ApplicationCommandOptionType, OverwriteType, PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { makeUser, PLAIN_MEMBER_PERMISSIONS, type InteractionState } from '../../sandbox/discord/emulator.js';
import { useHarness, type Harness } from '../support/harness.js';
import {
	ADMIN_PERMISSIONS,
	click,
	customIdsOf,
	lastWords,
	listFlags,
	listLines,
	makeFlag,
	readable,
	runSubcommand,
	viewFlag,
	type Where,
	textOf,
} from '../support/moderation.js';

// A flag is moderated in the channel it was asked in: Manage Messages granted in one channel opens the flags of
// that channel only, whatever channel the command or button is used from.

const harness = useHarness();
const P = PermissionFlagsBits;
const NO_SUCH_FLAG = 'No flag with that id in this server.';

/**
 * #general, #mod-log, and #staff that only the Mods role (and Veil) can see. The moderator holds Mods; the
 * per-channel member holds Manage Messages in #general and #mod-log by overwrites on those channels, nothing else.
 */
function staffServer(bed: Harness) {
	const guild = bed.discord.addGuild({ channels: [{ name: 'general' }, { name: 'mod-log' }, { name: 'staff' }] });
	const [general, modlog, staff] = guild.channels.map((channel) => channel.id) as [string, string, string];
	const mods = bed.discord.addRole(guild.id, { name: 'Mods', permissions: PLAIN_MEMBER_PERMISSIONS | P.ManageMessages });
	bed.discord.setChannelOverwrites(staff, [
		{ id: guild.id, type: OverwriteType.Role, allow: 0n, deny: P.ViewChannel },
		{ id: mods.id, type: OverwriteType.Role, allow: P.ViewChannel, deny: 0n },
		{ id: guild.botRoleId, type: OverwriteType.Role, allow: P.ViewChannel, deny: 0n },
	]);
	const perChannel: Where = { user: makeUser('per-channel'), guild, channelId: general };
	for (const channelId of [general, modlog]) {
		bed.discord.setChannelOverwrites(channelId, [{ id: perChannel.user.id, type: OverwriteType.Member, allow: P.ManageMessages, deny: 0n }]);
	}
	const moderator: Where = { user: makeUser('moderator'), guild, channelId: general };
	const staffer: Where = { user: makeUser('staffer'), guild, channelId: staff };
	bed.discord.setMemberRoles(guild.id, moderator.user, [mods.id]);
	bed.discord.setMemberRoles(guild.id, staffer.user, [mods.id]);
	const member: Where = { user: makeUser('asker'), guild, channelId: general };
	return { guild, general, modlog, staff, perChannel, moderator, staffer, member };
}

const idsListed = (state: InteractionState) => listLines(state).map((line) => /`([a-z0-9]+)`/.exec(line)?.[1]);

describe('a flag is moderated in its own channel', () => {
	it('keeps a staff-channel flag from a member who holds Manage Messages only in #general, on every path', async () => {
		const bed = harness();
		const { guild, staff, perChannel, staffer, member } = staffServer(bed);
		const secret = await makeFlag(bed, staffer, { prompt: 'SECRET-STAFF-PROMPT', text: 'SECRET-STAFF-TEXT' });
		const open = await makeFlag(bed, member, { prompt: 'general prompt', text: 'general text' });

		const listed = await listFlags(bed, perChannel);
		expect(idsListed(listed)).toEqual([open.id]);
		expect(readable(listed)).not.toContain(secret.id);
		expect(listed.original?.embeds[0]?.footer?.text).toMatch(/^1 from channels you moderate/);

		// Exactly the answer an unknown id gets, so nothing can be learnt by probing.
		const unknown = await viewFlag(bed, perChannel, 'zzzzzzzzzz');
		const hidden = await viewFlag(bed, perChannel, secret.id);
		expect(textOf(hidden)).toBe(NO_SUCH_FLAG);
		expect(hidden.original?.embeds).toEqual(unknown.original?.embeds);
		for (const prefix of ['flagged:view', 'flagged:release', 'flagged:dismiss', 'flagged:review']) {
			const pressed = await click(bed, perChannel, `${prefix}:${secret.id}`);
			expect(lastWords(pressed)).toBe(NO_SUCH_FLAG);
			expect(readable(pressed)).not.toContain('SECRET');
		}
		expect(bed.discord.channelMessages(staff)).toEqual([]);
		const stored = await bed.bot.context.flags.find(guild.id, secret.id);
		expect(stored).toMatchObject({ text: 'SECRET-STAFF-TEXT' });
		expect(stored?.decision).toBeUndefined();

		// Where the overwrite does grant Manage Messages, it counts.
		expect(readable(await viewFlag(bed, perChannel, open.id))).toContain('general text');
	});

	it('lets a moderator who can see #staff read and release its flag there', async () => {
		const bed = harness();
		const { staff, moderator, staffer } = staffServer(bed);
		const flag = await makeFlag(bed, staffer, { prompt: 'staff prompt', text: 'staff answer' });
		const view = await viewFlag(bed, moderator, flag.id);
		expect(readable(view)).toContain('staff answer');
		expect(customIdsOf(view)).toContain(`flagged:release:${flag.id}`);
		const released = await click(bed, moderator, `flagged:release:${flag.id}`);
		expect(textOf(released)).toContain('Released');
		const [posted] = bed.discord.channelMessages(staff);
		expect(posted?.content).toContain('staff answer');
		expect(posted?.message_reference?.message_id).toBe(flag.answer.original?.id);
	});

	it('counts and pages only the flags of channels the moderator moderates', async () => {
		const bed = harness();
		const { perChannel, moderator, staffer, member } = staffServer(bed);
		const open = await makeFlag(bed, member, { prompt: 'general prompt', text: 'general text' });
		for (let n = 0; n < 11; n += 1) await makeFlag(bed, staffer, { prompt: `staff ${n}`, text: `staff text ${n}` });

		const narrow = await listFlags(bed, perChannel);
		expect(narrow.original?.embeds[0]?.title).toBe('Flagged replies · page 1 of 1');
		expect(idsListed(narrow)).toEqual([open.id]);
		expect(customIdsOf(narrow)).toEqual([]);
		const beyond = await listFlags(bed, perChannel, 2);
		expect(idsListed(beyond)).toEqual([open.id]);

		const wide = await listFlags(bed, moderator);
		expect(wide.original?.embeds[0]?.title).toBe('Flagged replies · page 1 of 2');
		expect(wide.original?.embeds[0]?.footer?.text).toMatch(/^12 from channels you moderate/);
		const second = await click(bed, moderator, `flagged:page:2:${moderator.user.id}`);
		expect(idsListed(second)).toEqual([expect.any(String), open.id]);
	});

	it('holds the mod-log View reply button to the same rule', async () => {
		const bed = harness();
		const { guild, modlog, perChannel, moderator, staffer, member } = staffServer(bed);
		const admin: Where = { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS };
		await runSubcommand(bed, admin, 'settings', 'modlog', [{ type: ApplicationCommandOptionType.Channel, name: 'channel', value: modlog }]);
		const secret = await makeFlag(bed, staffer, { prompt: 'SECRET-STAFF-PROMPT', text: 'SECRET-STAFF-TEXT' });
		const open = await makeFlag(bed, member, { prompt: 'general prompt', text: 'general text' });
		await bed.discord.waitUntil(() => bed.discord.channelMessages(modlog).length === 2, 'two mod-log posts');

		const inModlog = { ...perChannel, channelId: modlog };
		const refused = await click(bed, inModlog, `flagged:view:${secret.id}`);
		expect(lastWords(refused)).toBe(NO_SUCH_FLAG);
		expect(readable(refused)).not.toContain('SECRET');
		expect(readable(await click(bed, inModlog, `flagged:view:${open.id}`))).toContain('general text');
		expect(readable(await click(bed, { ...moderator, channelId: modlog }, `flagged:view:${secret.id}`))).toContain('SECRET-STAFF-TEXT');
	});

	it("says which of Veil's own permissions a release lacks, and leaves the flag pending", async () => {
		const bed = harness();
		const { guild, general, moderator, member } = staffServer(bed);
		const flag = await makeFlag(bed, member, { prompt: 'q', text: 'held answer' });
		bed.discord.setChannelOverwrites(general, [{ id: guild.botRoleId, type: OverwriteType.Role, allow: 0n, deny: P.ReadMessageHistory }]);
		const refused = await click(bed, moderator, `flagged:release:${flag.id}`);
		expect(lastWords(refused)).toBe(
			`Veil could not post the answer in <#${general}>: Veil lacks Read Message History there. Nothing was released; the flag is still pending.`,
		);
		expect(bed.discord.channelMessages(general)).toEqual([]);
		expect((await bed.bot.context.flags.find(guild.id, flag.id))?.decision).toBeUndefined();
	});

	it("decides a flag from a channel hidden from Veil by Discord's own word, given from inside that channel", async () => {
		const bed = harness();
		const { guild, general, moderator } = staffServer(bed);
		const hiddenFromVeil = guild.channels[2]!.id;
		// #staff, Veil shut out: Discord leaves it out of Veil's channel list, so its overwrites are unknown.
		bed.discord.setChannelOverwrites(hiddenFromVeil, [{ id: guild.botRoleId, type: OverwriteType.Role, allow: 0n, deny: P.ViewChannel }]);
		const inside: Where = { ...moderator, channelId: hiddenFromVeil };
		const flag = await makeFlag(bed, inside, { prompt: 'q', text: 'answer asked where Veil cannot look' });
		expect(lastWords(await viewFlag(bed, moderator, flag.id))).toBe(NO_SUCH_FLAG);
		expect(readable(await viewFlag(bed, inside, flag.id))).toContain('answer asked where Veil cannot look');
		const refused = await click(bed, inside, `flagged:release:${flag.id}`);
		expect(lastWords(refused)).toContain('Veil lacks View Channel there');
		expect(bed.discord.channelMessages(general)).toEqual([]);
	});
});
