import { ApplicationCommandOptionType } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { startHarness, type Harness } from '../support/harness.js';
import { lockSqliteFile } from '../support/sqliteLock.js';
import { ADMIN_PERMISSIONS, freshServer, makeFlag, runSubcommand } from '../support/moderation.js';
import { ask, submitLink, unlink } from '../support/memberCommands.js';

describe('a write while another process locks the SQLite file', () => {
	let harness: Harness;
	const member = makeUser('locked-out');

	beforeAll(async () => {
		harness = await startHarness();
	});
	afterAll(async () => {
		await harness?.stop();
	});

	it('fails plainly, and an /unlink told it failed is not applied once the lock clears', async () => {
		await harness.linkMember(member.id);
		const lock = await lockSqliteFile(harness.sqliteFile);
		let unlinked;
		try {
			unlinked = await unlink(harness, member);
		} finally {
			await lock.release();
		}
		expect(unlinked.original?.content).toMatch(/storage isn't answering/);
		expect(unlinked.original?.content).not.toMatch(/may not have been saved/);

		// A delete still waiting for the lock would go through now: SQLite retries a busy lock at least every 100 ms,
		// so several reads spread over half a second see it if it happens.
		for (let round = 0; round < 10; round++) {
			await new Promise((resolve) => setTimeout(resolve, 50));
			expect(await harness.bot.context.accounts.find(member.id)).toBeDefined();
		}
		expect((await ask(harness, member, 'still linked?')).original?.content).toBe('Answer to: still linked?');
	});

	it('works again as soon as the lock clears: a link, a settings change and a hidden answer after writes that failed under it', async () => {
		const { guild, member: asker } = freshServer(harness);
		const admin = { user: makeUser('locked-admin'), guild, permissions: ADMIN_PERMISSIONS };
		const leaving = makeUser('locked-leaver');
		await harness.linkMember(leaving.id);
		await harness.linkMember(asker.user.id);
		harness.upstream.addAccount('after-lock@example.com', 'pw');
		const limits = (asksPerDay: number) =>
			runSubcommand(harness, admin, 'settings', 'limits', [{ type: ApplicationCommandOptionType.Integer, name: 'asks_per_day', value: asksPerDay }]);

		const lock = await lockSqliteFile(harness.sqliteFile);
		let during;
		try {
			// A delete, a settings change and a hidden answer (its counter, its flag and the flag's index) meet the lock.
			during = await Promise.all([
				unlink(harness, leaving),
				limits(7),
				makeFlag(harness, asker, { prompt: 'under the lock', text: 'hidden under the lock' }).then(
					({ answer }) => answer,
					() => undefined,
				),
			]);
		} finally {
			await lock.release();
		}
		expect(during[0].original?.content).toMatch(/storage isn't answering/);
		expect(during[1].original?.content).toMatch(/storage isn't answering/);

		// At once, with no wait: each kind of write the lock made fail (a record, a claim-free update, a counter, an
		// index, a batch) is accepted again.
		const newcomer = makeUser('after-lock');
		const linked = await submitLink(harness, newcomer, 'after-lock@example.com');
		expect(linked.original?.content).not.toMatch(/storage/);
		expect(await harness.bot.context.accounts.find(newcomer.id)).toBeDefined();
		expect((await limits(5)).original?.content).toMatch(/Daily limit: \*\*5 questions\*\*/);
		const flag = await makeFlag(harness, asker, { prompt: 'after the lock', text: 'hidden after the lock' });
		expect(await harness.bot.context.flags.find(guild.id, flag.id)).toMatchObject({ text: 'hidden after the lock' });
		expect((await ask(harness, newcomer, 'and a plain one')).original?.content).toBe('Answer to: and a plain one');
	});
});
