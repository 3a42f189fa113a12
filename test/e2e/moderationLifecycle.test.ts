import { ApplicationCommandOptionType } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { startHarness, type Harness } from '../support/harness.js';
import {
	ADMIN_PERMISSIONS,
	click,
	lastWords,
	listFlags,
	listLines,
	makeFlag,
	MODERATOR_PERMISSIONS,
	pollUntil,
	readable,
	runSubcommand,
	viewFlag,
	type Where,
	textOf,
} from '../support/moderation.js';

// Each test starts its own bed: one with a retention of seconds, one restarted between a post and its clicks.

let harness: Harness | undefined;
afterEach(async () => {
	await harness?.stop();
	harness = undefined;
});

describe('retention', () => {
	it('forgets a flag after FLAG_RETENTION_DAYS: gone from view, list and buttons alike', async () => {
		// 0.00003 days is about 2.6 s.
		const bed = (harness = await startHarness({ env: { FLAG_RETENTION_DAYS: '0.00003' } }));
		const guild = bed.discord.defaultGuild;
		const member: Where = { user: makeUser('asker'), guild };
		const moderator: Where = { user: makeUser('moderator'), guild, permissions: MODERATOR_PERMISSIONS };
		const flag = await makeFlag(bed, member, { prompt: 'SECRET-PROMPT', text: 'SECRET-TEXT' });
		expect(readable(await viewFlag(bed, moderator, flag.id))).toContain('SECRET-TEXT');

		await pollUntil(
			async () => (await viewFlag(bed, moderator, flag.id)).original?.content === 'No flag with that id in this server.',
			'the flag to expire',
		);
		const listed = await listFlags(bed, moderator);
		expect(textOf(listed)).toContain('No flagged replies');
		expect(listLines(listed)).toEqual([]);
		const released = await click(bed, moderator, `flagged:release:${flag.id}`);
		expect(lastWords(released)).toBe('No flag with that id in this server.');
		expect(bed.discord.channelMessages(guild.channels[0]!.id)).toEqual([]);
	});
});

describe('restart', () => {
	it('keeps the mod-log View reply, the decision buttons and Previous/Next working after the bot restarts', async () => {
		const bed = (harness = await startHarness());
		const guild = bed.discord.addGuild({ channels: [{ name: 'general' }, { name: 'mod-log' }] });
		const member: Where = { user: makeUser('asker'), guild };
		const moderator: Where = { user: makeUser('moderator'), guild, permissions: MODERATOR_PERMISSIONS };
		const admin: Where = { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS };
		const modlogId = guild.channels[1]!.id;
		await runSubcommand(bed, admin, 'settings', 'modlog', [{ type: ApplicationCommandOptionType.Channel, name: 'channel', value: modlogId }]);
		const flags = [];
		for (let n = 0; n < 12; n += 1) flags.push(await makeFlag(bed, member, { prompt: `prompt ${n}`, text: `text ${n}` }));
		const newest = flags[flags.length - 1]!;
		await bed.discord.waitUntil(() => bed.discord.channelMessages(modlogId).length === 12, 'twelve mod-log posts');
		const list = await listFlags(bed, moderator);
		const view = await viewFlag(bed, moderator, newest.id);

		await bed.restartBot();

		const shown = await click(bed, { ...moderator, channelId: modlogId }, `flagged:view:${newest.id}`);
		expect(readable(shown)).toContain('text 11');
		const next = await click(bed, moderator, `flagged:page:2:${moderator.user.id}`);
		expect(next.original?.id).toBe(list.original?.id);
		expect(listLines(next)).toHaveLength(2);
		const reviewed = await click(bed, moderator, `flagged:review:${newest.id}`);
		expect(reviewed.original?.id).toBe(view.original?.id);
		expect(textOf(reviewed)).toContain('Marked reviewed');
	});
});
