import { ApplicationCommandOptionType } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type EmulatorMessage } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { answerMessages, buttonsOf, echoLastPrompt, settled } from '../support/conversations.js';
import { freshServer, runSubcommand } from '../support/moderation.js';
import { safeResponse } from '../support/upstreamStandIn.js';

const harness = useHarness();

beforeAll(() => {
	harness().upstream.setDefaultGeneration((request) => ({ json: safeResponse(echoLastPrompt(request)) }));
});

/** The rate button of one vote on a message. */
function rateId(message: EmulatorMessage | undefined, vote: 'up' | 'down'): string {
	const id = buttonsOf(message).find((customId) => customId.startsWith(`ask:rate:${vote}:`));
	if (!id) throw new Error(`no ${vote} button: ${JSON.stringify(message?.components)}`);
	return id;
}

describe('👍 / 👎 on a shown answer', () => {
	it('takes one vote per member, changeable, tells only the voter, and counts rated answers in /flagged stats', async () => {
		const { guild, member, moderator } = freshServer(harness());
		const bystander = makeUser('bystander');
		await harness().linkMember(member.user.id);
		const asked = await settled(
			harness(),
			harness().discord.slashCommand({
				name: 'ask',
				options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'rate me' }],
				user: member.user,
				guildId: guild.id,
			}),
		);
		const message = answerMessages(asked).at(-1);
		expect(message?.components).toHaveLength(1);
		const press = (user = member.user, vote: 'up' | 'down' = 'up') =>
			harness()
				.discord.button({ customId: rateId(message, vote), message, user })
				.waitForAnswer();

		const first = await press(member.user, 'up');
		expect(first.ephemeral).toBe(true);
		expect(first.original?.content).toBe('You rated this answer 👍. Press the other one to change your vote.');
		// The same vote again changes nothing; the other replaces it; another member's vote is their own.
		await press(member.user, 'up');
		await press(member.user, 'down');
		await press(bystander, 'down');
		// The answer itself is as it was: a vote is the voter's alone.
		expect(answerMessages(asked).at(-1)?.content).toBe('Answer to: rate me');

		const stats = await runSubcommand(harness(), moderator, 'flagged', 'stats');
		// One answer rated; its votes as they stand: two 👎.
		expect(stats.original?.content.split('\n')).toEqual(['No answers were held in the last 7 days.', 'Rated answers: 1, 100% of the votes 👎']);

		const metrics = (await harness().bot.context.metrics.text()).body;
		expect(metrics).toMatch(/veil_answer_votes_total\{vote="up",change="new"\} 1/);
		expect(metrics).toMatch(/veil_answer_votes_total\{vote="down",change="changed"\} 1/);
		expect(metrics).toMatch(/veil_answer_votes_total\{vote="down",change="new"\} 1/);
		expect(metrics).not.toContain(member.user.id);
	});

	it('keeps a vote given before a restart: 👎 after it changes that vote, and the answer is counted once', async () => {
		const { guild, member, moderator } = freshServer(harness());
		await harness().linkMember(member.user.id);
		const asked = await settled(
			harness(),
			harness().discord.slashCommand({
				name: 'ask',
				options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'rate me across a restart' }],
				user: member.user,
				guildId: guild.id,
			}),
		);
		const message = answerMessages(asked).at(-1);
		const press = (vote: 'up' | 'down') =>
			harness()
				.discord.button({ customId: rateId(message, vote), message, user: member.user })
				.waitForAnswer();
		expect((await press('up')).original?.content).toBe('You rated this answer 👍. Press the other one to change your vote.');

		// The button carries all it needs, and the vote is in the store: a new bot on the same SQLite file knows it.
		await harness().restartBot();
		const after = await press('down');
		expect(after.ephemeral).toBe(true);
		expect(after.original?.content).toBe('You rated this answer 👎. Press the other one to change your vote.');
		const metrics = (await harness().bot.context.metrics.text()).body;
		expect(metrics).toMatch(/veil_answer_votes_total\{vote="down",change="changed"\} 1/);
		expect(metrics).toMatch(/veil_answer_votes_total\{vote="down",change="new"\} 0/);
		// One answer, one vote as it stands: 👎.
		const stats = await runSubcommand(harness(), moderator, 'flagged', 'stats');
		expect(stats.original?.content.split('\n')).toEqual(['No answers were held in the last 7 days.', 'Rated answers: 1, 100% of the votes 👎']);
	});
});
