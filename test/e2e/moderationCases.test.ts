import { describe, expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { ADMIN_PERMISSIONS, freshServer, listFlags, listLines, makeFlag, runSubcommand, viewFlag } from '../support/moderation.js';

const harness = useHarness();

describe('case numbers', () => {
	it('numbers each flag of a server in turn, on its mod-log post, in /flagged list, and opens it by #N', async () => {
		const { guild, member, moderator } = freshServer(harness());
		const modlogId = guild.channels[1]!.id;
		const admin = { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS };
		await runSubcommand(harness(), admin, 'settings', 'modlog', [{ type: 7, name: 'channel', value: modlogId }]);
		const first = await makeFlag(harness(), member, { prompt: 'first prompt', text: 'first text' });
		const second = await makeFlag(harness(), member, { prompt: 'second prompt', text: 'second text' });

		await harness().discord.waitUntil(() => harness().discord.channelMessages(modlogId).length === 2, 'two mod-log posts');
		expect(harness().discord.channelMessages(modlogId).map((post) => post.embeds[0]?.title)).toEqual([
			'#1 · Reply hidden by the safety filter',
			'#2 · Reply hidden by the safety filter',
		]);
		const lines = listLines(await listFlags(harness(), moderator));
		expect(lines[0]).toMatch(new RegExp(`^\\*\\*#2\\*\\* · \`${second.id}\``));
		expect(lines[1]).toMatch(new RegExp(`^\\*\\*#1\\*\\* · \`${first.id}\``));

		for (const reference of ['#1', '1', ' #1 ']) {
			const view = await viewFlag(harness(), moderator, reference);
			expect(view.original?.embeds[0]?.title).toBe(`Case #1 · flag ${first.id}`);
		}
		expect((await viewFlag(harness(), moderator, second.id)).original?.embeds[0]?.title).toBe(`Case #2 · flag ${second.id}`);
		expect((await viewFlag(harness(), moderator, '#3')).original?.content).toBe('No flag with that id in this server.');
	});

	it("counts each server on its own, and never opens another server's case", async () => {
		const a = freshServer(harness());
		const b = freshServer(harness());
		await makeFlag(harness(), a.member, { prompt: 'a', text: 'a' });
		const flagB = await makeFlag(harness(), b.member, { prompt: 'b', text: 'b' });
		expect((await harness().bot.context.flags.find(b.guild.id, flagB.id))?.caseNumber).toBe(1);
		expect((await viewFlag(harness(), a.moderator, '#2')).original?.content).toBe('No flag with that id in this server.');
	});
});
