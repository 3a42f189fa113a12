import { type APIApplicationCommandInteractionDataOption, ApplicationCommandOptionType, MessageFlags } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type GuildModel, type InteractionState } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import {
	ADMIN_PERMISSIONS,
	buttonIdsIn,
	cardText,
	click,
	customIdsOf,
	expectCard,
	freshServer,
	listLines,
	listFlags,
	makeFlag,
	MODERATOR_PERMISSIONS,
	runSubcommand,
	textOf,
	viewFlag,
	type Where,
} from '../support/moderation.js';
import { generationResponse, ratingsWith } from '../support/upstreamStandIn.js';

// Ask for a review (issue 36, SPEC §16): on a held notice, for its asker alone, once, with an optional note; the case
// shows it and lists first while pending; the member is told of the decision where /settings notify allows.
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

/** Presses Ask for a review as `who`; when the form opens, submits it with `note`. */
async function askReview(who: Where, customId: string, note = ''): Promise<{ pressed: InteractionState; sent?: InteractionState }> {
	const where = { user: who.user, guildId: who.guild.id, channelId: who.channelId ?? who.guild.channels[0]!.id, locale: who.locale };
	const pressed = await harness()
		.discord.button({ customId, ...where })
		.waitForAnswer();
	if (!pressed.modal) return { pressed };
	// The notice loses its button (an update), then the member is told in a message of their own.
	const sent = await harness()
		.discord.modalSubmit({ customId: pressed.modal.custom_id, fields: { note }, ...where })
		.waitFor((state) => state.followUps.length > 0 || (state.callbacks.length > 0 && state.callbacks[0]?.type !== 7));
	return { pressed, sent };
}

describe('Ask for a review, in a Veil server', () => {
	it("is the asker's alone, once; the case shows the note, lists first and is counted; a restart between answer and press changes nothing", async () => {
		const { guild, member, moderator } = freshServer(harness());
		const modlogId = guild.channels[1]!.id;
		const admin = { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS };
		await runSubcommand(harness(), admin, 'settings', 'modlog', [{ type: ApplicationCommandOptionType.Channel, name: 'channel', value: modlogId }]);
		const flag = await makeFlag(harness(), member, { prompt: 'a fair question', text: 'a careful answer' });
		const reviewId = `ask:review:${guild.id}:${flag.id}`;
		expect(customIdsOf(flag.answer)).toEqual([reviewId]);
		expect(flag.answer.original?.components).toEqual([
			{ type: 1, components: [{ type: 2, style: 2, label: 'Ask for a review', custom_id: reviewId }] },
		]);
		// A later flag, so the first would list second but for its request.
		const later = await makeFlag(harness(), member, { prompt: 'another', text: 'another held' });

		// The button carries all it needs: a restart between the answer and the press changes nothing.
		await harness().restartBot();

		const someoneElse = { user: makeUser('bystander'), guild };
		const refused = await askReview(someoneElse, reviewId);
		expect(refused.pressed.modal).toBeUndefined();
		expect(textOf(refused.pressed)).toBe('Only the member who asked can ask for a review of this answer.');
		expect(refused.pressed.ephemeral).toBe(true);

		const { pressed, sent } = await askReview(member, reviewId, 'It was a **quote** from a book.');
		expect(pressed.modal?.title).toBe('Ask for a review');
		// The notice keeps its words and loses the button; the member alone reads that it was sent.
		expect(sent?.original?.id).toBe(flag.answer.original?.id);
		expect(sent?.original?.components).toEqual([]);
		expect(sent?.original?.content).toContain('This answer was hidden');
		const told = sent?.followUps.at(-1);
		expect(told?.content).toBe('📨 Your request was sent: the moderators will take another look at case #1.');
		expect((told?.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);

		// Once: a second press (the stub of a button no longer shown, or another process's) finds the first.
		expect(textOf((await askReview(member, reviewId)).pressed)).toBe('You already asked for a review of this answer.');

		// The mod-log card and the view show the request and its note; the list puts it first, marked.
		await harness().discord.waitUntil(() => cardText(harness().discord.channelMessages(modlogId)[0]).includes('review asked'), 'the card redrawn');
		const [post] = harness().discord.channelMessages(modlogId);
		expectCard(post);
		expect(cardText(post)).toMatch(/^## Case #1 · Pending · review asked\n/);
		expect(cardText(post)).toContain('**Review asked** by the member <t:');
		expect(cardText(post)).toContain('> It was a \\*\\*quote\\*\\* from a book.');
		expect(cardText(post)).not.toContain('a careful answer');
		const view = await viewFlag(harness(), moderator, '#1');
		expect(textOf(view)).toContain('> It was a \\*\\*quote\\*\\* from a book.');
		const lines = listLines(await listFlags(harness(), moderator));
		expect(lines[0]).toMatch(new RegExp(`^\\*\\*#1\\*\\* · 📨 \\*\\*review asked\\*\\* · \`${flag.id}\``));
		expect(lines[1]).toContain(later.id);
		const stats = await runSubcommand(harness(), moderator, 'flagged', 'stats');
		expect(JSON.stringify(stats.original?.embeds)).toContain('**Review requests:** 1');

		// Decided, it no longer waits: the list is newest first again, and no one can ask again.
		await click(harness(), moderator, `flagged:review:${flag.id}`, 'Checked: it stays hidden');
		const after = listLines(await listFlags(harness(), moderator));
		expect(after[0]).toContain(later.id);
		expect(after[1]).not.toContain('review asked');
		expect(cardText(harness().discord.channelMessages(modlogId)[0])).toMatch(/^## Case #1 · Reviewed\n/);
		expect(textOf((await askReview(member, reviewId)).pressed)).toBe('This answer was already decided, so there is nothing left to review.');
		const laterReview = await askReview(member, `ask:review:${guild.id}:${later.id}`);
		expect(laterReview.pressed.modal?.title).toBe('Ask for a review');
	});

	it('tells the member of the decision by DM where /settings notify allows, and refuses a decided case', async () => {
		const { guild, member, moderator } = freshServer(harness());
		const admin = { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS };
		await runSubcommand(harness(), admin, 'settings', 'notify', [{ type: ApplicationCommandOptionType.Boolean, name: 'dismissals', value: true }]);
		const reviewed = await makeFlag(harness(), member, { prompt: 'q1', text: 'held one' });
		await askReview(member, `ask:review:${guild.id}:${reviewed.id}`, 'please look again');
		await click(harness(), moderator, `flagged:review:${reviewed.id}`, 'It is against our rules');
		const [notice] = harness().discord.directMessages(member.user.id);
		expect(notice?.content).toContain('took another look at the answer Veil held back from you (case #1), as you asked, and kept it hidden');
		expect(notice?.content).toContain('**Reason:** It is against our rules');
		expect(notice?.content).not.toContain(moderator.user.id);

		// A case decided before the member asks: nothing left to review.
		const dismissed = await makeFlag(harness(), member, { prompt: 'q2', text: 'held two' });
		await click(harness(), moderator, `flagged:dismiss:${dismissed.id}`);
		expect(textOf((await askReview(member, `ask:review:${guild.id}:${dismissed.id}`)).pressed)).toBe(
			'This answer was already decided, so there is nothing left to review.',
		);
		// A case Veil does not keep (another server's id in the button) answers as gone.
		expect(textOf((await askReview(member, `ask:review:${operators.id}:${reviewed.id}`)).pressed)).toBe(
			'This held answer is no longer kept, so it cannot be reviewed.',
		);
	});
});

describe("Ask for a review of an answer held outside Veil's servers", () => {
	it("goes to the operators' case, asked from the DM where the notice is", async () => {
		const member = makeUser('dm-asker');
		await harness().linkMember(member.id);
		harness().upstream.scriptGeneration({
			json: generationResponse({ text: 'HELD-IN-DM-REVIEW', candidateRatings: ratingsWith({ HARM_CATEGORY_HARASSMENT: 'HIGH' }) }),
		});
		const options: APIApplicationCommandInteractionDataOption[] = [
			{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'a DM question' },
		];
		const answer = await harness()
			.discord.slashCommand({ name: 'ask', options, user: member, guildId: null, installs: ['user'] })
			.waitFor((state) => [state.original, ...state.followUps].some((message) => message?.content.includes('Reference for moderators')));
		const notice = [answer.original, ...answer.followUps].find((message) => message?.content.includes('Reference for moderators'));
		const flagId = /Reference for moderators: `([a-z0-9]+)`/.exec(notice?.content ?? '')?.[1] ?? '';
		const reviewId = `ask:review:${operators.id}:${flagId}`;
		expect(buttonIdsIn(notice)).toEqual([reviewId]);

		const dm = harness().discord.dmChannelId(member);
		const pressed = await harness()
			.discord.button({ customId: reviewId, user: member, guildId: null, channelId: dm, message: notice })
			.waitForAnswer();
		expect(pressed.modal?.title).toBe('Ask for a review');
		const sent = await harness()
			.discord.modalSubmit({ customId: pressed.modal!.custom_id, fields: { note: 'from a DM' }, user: member, guildId: null, channelId: dm })
			.waitFor((state) => state.followUps.length > 0);
		expect(sent.followUps.at(-1)?.content).toMatch(/^📨 Your request was sent/);

		const operator = { user: makeUser('operator'), guild: operators, permissions: MODERATOR_PERMISSIONS, channelId: operators.channels[1]!.id };
		const view = await viewFlag(harness(), operator, flagId);
		expect(textOf(view)).toContain('Pending · review asked');
		expect(textOf(view)).toContain('> from a DM');
		expect(textOf(view)).toContain('Outside servers · a DM with Veil');
	});
});
