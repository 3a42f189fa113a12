import { ApplicationCommandOptionType } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { ask, contentsOf, followUp, settled, turnsOf } from '../support/conversations.js';
import { buttonId, buttonMessage, current, disabled, press, versionsAt } from '../support/answerActions.js';
import { generationResponse, ratingsWith, safeResponse } from '../support/upstreamBodies.js';
import { ADMIN_PERMISSIONS, freshServer, runSubcommand } from '../support/moderation.js';
import type { UpstreamRequest } from '../support/upstreamStandIn.js';

const harness = useHarness();
const asker = makeUser('regenerating asker');
const bystander = makeUser('bystander');

let answers = 0;
beforeAll(async () => {
	await harness().linkMember(asker.id);
	await harness().linkMember(bystander.id);
	// Each answer is numbered, so a version names itself.
	harness().upstream.setDefaultGeneration((request) => ({ json: safeResponse(`Answer ${++answers} to: ${lastPrompt(request)}`) }));
});

const lastPrompt = (request: UpstreamRequest) => contentsOf(request).at(-1)?.parts[0]?.text ?? '';
const generations = () => harness().upstream.requests.filter((request) => request.endpoint === 'generate');

describe('Regenerate', () => {
	it('asks the same turn again, replaces the answer in place, keeps 3 versions with ◀ ▶, and Follow up continues the one shown', async () => {
		const asked = await ask(harness(), asker, 'name a colour');
		const message = buttonMessage(asked);
		const first = message.content;
		expect(first).toMatch(/^Answer \d+ to: name a colour$/);
		// No ◀ ▶ while there is one version.
		expect(message.components).toHaveLength(1);
		const before = generations().length;

		await press(harness(), message, buttonId(message, 'ask:regen:'), asker);
		const second = current(harness(), message);
		expect(second.content).toMatch(/^Answer \d+ to: name a colour$/);
		expect(second.content).not.toBe(first);
		expect(versionsAt(second)).toBe('2/2');
		// The same body went upstream again.
		expect(
			generations()
				.slice(before)
				.map((request) => request.rawBody),
		).toEqual([generations()[before - 1]?.rawBody]);

		await press(harness(), message, buttonId(second, 'ask:regen:'), asker);
		await press(harness(), message, buttonId(current(harness(), message), 'ask:regen:'), asker);
		const fourth = current(harness(), message);
		// Three versions kept: the first is dropped.
		expect(versionsAt(fourth)).toBe('3/3');
		expect(disabled(fourth, buttonId(fourth, 'ask:version:', 'last'))).toBe(true);

		// ◀ twice: the oldest kept, the second answer; ▶ is then enabled, ◀ not.
		await press(harness(), message, buttonId(fourth, 'ask:version:', 'first'), asker);
		const third = current(harness(), message);
		expect(versionsAt(third)).toBe('2/3');
		await press(harness(), message, buttonId(third, 'ask:version:', 'first'), asker);
		const oldest = current(harness(), message);
		expect(versionsAt(oldest)).toBe('1/3');
		expect(oldest.content).toBe(second.content);
		expect(disabled(oldest, buttonId(oldest, 'ask:version:', 'first'))).toBe(true);

		// Follow up continues from the version on screen.
		const next = await followUp(harness(), { ...asked, original: oldest, followUps: [] }, asker, 'and another?');
		expect(turnsOf(generations().at(-1)).slice(-3)).toEqual([`user:name a colour`, `model:${second.content}`, 'user:and another?']);
		expect(next.answer?.original?.content).toMatch(/^Answer \d+ to: and another\?$/);
	});

	it('is for the asker alone: anyone else is told why, privately, and nothing goes upstream', async () => {
		const asked = await ask(harness(), asker, 'mine to redo');
		const message = buttonMessage(asked);
		const before = generations().length;
		const refused = await press(harness(), message, buttonId(message, 'ask:regen:'), bystander);
		expect(refused.ephemeral).toBe(true);
		expect(refused.original?.content ?? refused.followUps[0]?.content).toBe('Only the member who asked this question can regenerate its answer.');
		expect(generations().length).toBe(before);
		expect(current(harness(), message).content).toBe(message.content);

		// ◀ ▶ too: a public answer flips for everyone who sees it.
		await press(harness(), message, buttonId(message, 'ask:regen:'), asker);
		const flipped = current(harness(), message);
		const refusedFlip = await press(harness(), message, buttonId(flipped, 'ask:version:', 'first'), bystander);
		expect(refusedFlip.original?.content ?? refusedFlip.followUps[0]?.content).toBe(
			'Only the member who asked this question can switch between its answers.',
		);
		expect(current(harness(), message).content).toBe(flipped.content);
	});

	it('leaves the shown answer when the new one is held, tells the asker privately, and flags it as usual', async () => {
		const asked = await ask(harness(), asker, 'something risky');
		const message = buttonMessage(asked);
		harness().upstream.scriptGeneration({
			json: generationResponse({ text: 'held words', candidateRatings: ratingsWith({ HARM_CATEGORY_HARASSMENT: 'MEDIUM' }) }),
		});
		const held = await press(harness(), message, buttonId(message, 'ask:regen:'), asker);
		const notice = held.followUps.at(-1);
		expect(notice?.flags ?? 0).toBe(64);
		expect(notice?.content).toMatch(/^The new answer was held back, so the answer shown stays as it was\.\n🛡️ \*\*This answer was hidden\.\*\*/);
		expect(notice?.content).not.toContain('held words');
		expect(buttonId(notice, 'ask:review:')).toBeTruthy();
		const after = current(harness(), message);
		expect(after.content).toBe(message.content);
		expect(versionsAt(after)).toBeUndefined();
		const reference = /`([a-z0-9]+)`[^`]*$/.exec(notice?.content ?? '')?.[1];
		expect(reference).toBeTruthy();
		expect(await harness().bot.context.flags.find(asked.original?.guild_id ?? '', reference ?? '')).toMatchObject({ prompt: 'something risky' });

		// The member may press again: the held one gave its claim back.
		await press(harness(), message, buttonId(after, 'ask:regen:'), asker);
		expect(versionsAt(current(harness(), message))).toBe('2/2');
	});

	it('makes one call of two presses at once', async () => {
		const asked = await ask(harness(), asker, 'only once');
		const message = buttonMessage(asked);
		const before = generations().length;
		const id = buttonId(message, 'ask:regen:');
		const live = current(harness(), message);
		const [a, b] = [
			harness().discord.button({ customId: id, message: live, user: asker }),
			harness().discord.button({ customId: id, message: live, user: asker }),
		];
		const [first, second] = await Promise.all([settled(harness(), a), settled(harness(), b)]);
		expect(generations().length).toBe(before + 1);
		const told = [first, second].flatMap((state) => state.followUps.map((m) => m.content).concat(state.original?.content ?? []));
		expect(told.some((content) => /already being regenerated|still answering/.test(content))).toBe(true);
		expect(versionsAt(current(harness(), message))).toBe('2/2');
	});

	it('works after a restart, and in a DM outside Veil servers', async () => {
		const asked = await ask(harness(), asker, 'before the restart');
		const message = buttonMessage(asked);
		await harness().restartBot();
		await press(harness(), message, buttonId(message, 'ask:regen:'), asker);
		expect(versionsAt(current(harness(), message))).toBe('2/2');
		await press(harness(), message, buttonId(current(harness(), message), 'ask:version:', 'first'), asker);
		expect(current(harness(), message).content).toBe(message.content);

		const inDm = await settled(
			harness(),
			harness().discord.slashCommand({
				name: 'ask',
				options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'in a DM' }],
				user: asker,
				guildId: null,
				installs: ['user'],
			}),
		);
		const dmMessage = buttonMessage(inDm);
		await press(harness(), dmMessage, buttonId(dmMessage, 'ask:regen:'), asker);
		const regenerated = current(harness(), dmMessage);
		expect(regenerated.content).toMatch(/^Answer \d+ to: in a DM$/);
		expect(regenerated.content).not.toBe(dmMessage.content);
		expect(versionsAt(regenerated)).toBe('2/2');
	});

	it("is refused by the server's daily limit: the member alone is told, the answer stays, and nothing goes upstream", async () => {
		const { guild, member } = freshServer(harness());
		await harness().linkMember(member.user.id);
		const admin = { user: makeUser('limits admin'), guild, permissions: ADMIN_PERMISSIONS };
		await runSubcommand(harness(), admin, 'settings', 'limits', [{ type: ApplicationCommandOptionType.Integer, name: 'asks_per_day', value: 1 }]);
		const asked = await settled(
			harness(),
			harness().discord.slashCommand({
				name: 'ask',
				options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'the one of today' }],
				user: member.user,
				guildId: guild.id,
			}),
		);
		const message = buttonMessage(asked);
		expect(message.content).toMatch(/^Answer \d+ to: the one of today$/);
		const before = generations().length;

		const refused = await press(harness(), message, buttonId(message, 'ask:regen:'), member.user);
		const told = refused.followUps.at(-1) ?? refused.original;
		expect(told?.flags ?? 0).toBe(64);
		const midnight = Math.floor(Date.now() / 86_400_000 + 1) * 86_400;
		expect(told?.content).toBe(`You've reached this server's limit of 1 question a day. It resets <t:${midnight}:R>.`);
		expect(generations().length).toBe(before);
		const after = current(harness(), message);
		expect(after.content).toBe(message.content);
		expect(after.components).toEqual(message.components);
	});
});
