import { ApplicationCommandOptionType, ComponentType, type APIActionRowComponent, type APIButtonComponentWithCustomId } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type EmulatorMessage, type GuildModel } from '../../sandbox/discord/emulator.js';
import { OUTSIDE_CHANNEL } from '../../src/moderation/storedFlag.js';
import { useHarness } from '../support/harness.js';
import { ADMIN_PERMISSIONS, runSubcommand } from '../support/moderation.js';
import { generationResponse, ratingsWith, safeResponse } from '../support/upstreamStandIn.js';

// Turns by message decide where they are as an /ask does (app/place.ts): the link a member must make first, each
// place's daily limit, and who reviews an answer held there. Members must link (REQUIRE_LINK's default); outside
// Veil's servers a member has one ask a day; the operators' server reviews what is held in a DM.
const harness = useHarness({ env: { ASK_MEMBER_PER_MINUTE: '0', ASK_USER_PER_DAY: '1' } });
let operators: GuildModel;

beforeAll(async () => {
	operators = harness().discord.addGuild({ name: 'Veil operators', channels: [{ name: 'general' }, { name: 'mod-log' }] });
	await harness().restartBot({ OPERATOR_GUILD_ID: operators.id });
	harness().upstream.setDefaultGeneration((request) => {
		const prompt = (request.json as { contents?: Array<{ parts?: Array<{ text?: string }> }> }).contents?.at(-1)?.parts?.[0]?.text;
		return { json: safeResponse(`Answer to: ${prompt}`) };
	});
});

/** Veil's replies to one message, once `count` have come. */
async function repliesTo(message: EmulatorMessage, count = 1): Promise<EmulatorMessage[]> {
	const { discord } = harness();
	const replies = () =>
		discord
			.channelMessages(message.channel_id)
			.filter((sent) => sent.author.id === discord.bot.id && sent.message_reference?.message_id === message.id);
	await discord.waitUntil(() => replies().length >= count, `Veil's reply to "${message.content}"`);
	return replies();
}

const generateCalls = () => harness().upstream.requests.filter((request) => request.endpoint === 'generate').length;

function buttonsOf(message: EmulatorMessage | undefined): APIButtonComponentWithCustomId[] {
	const rows = (message?.components ?? []) as APIActionRowComponent<APIButtonComponentWithCustomId>[];
	return rows.flatMap((row) => row.components).filter((component) => component.type === ComponentType.Button);
}

describe('a turn by message, wherever it is', () => {
	it("tells an unlinked member to link first, in the server's language there and in English in a DM, asking nothing upstream", async () => {
		const { discord } = harness();
		const guild = discord.addGuild();
		const admin = { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS };
		await runSubcommand(harness(), admin, 'settings', 'language', [{ type: ApplicationCommandOptionType.String, name: 'locale', value: 'de' }]);
		const before = generateCalls();

		const inServer = discord.postAsMember({ user: makeUser('newcomer'), channelId: guild.channels[0]?.id, content: `<@${discord.bot.id}> hallo` });
		const [german] = await repliesTo(inServer);
		expect(german?.content).toContain('Verknüpfe zuerst dein Konto');
		expect(buttonsOf(german).map((button) => [button.label, button.custom_id.startsWith('link:')])).toEqual([['Konto verknüpfen', true]]);

		const stranger = makeUser('stranger');
		const inDm = discord.postAsMember({ user: stranger, channelId: discord.dmChannelId(stranger), content: 'hello' });
		const [english] = await repliesTo(inDm);
		expect(english?.content).toContain('Link your account first');
		expect(buttonsOf(english).map((button) => button.label)).toEqual(['Link account']);
		expect(generateCalls()).toBe(before);
	});

	it("counts a DM's turns against ASK_USER_PER_DAY, and a server's against that server's own limit", async () => {
		const { discord } = harness();
		const member = makeUser('counted');
		await harness().linkMember(member.id);
		const dm = discord.dmChannelId(member);
		const [first] = await repliesTo(discord.postAsMember({ user: member, channelId: dm, content: 'one' }));
		expect(first?.content).toBe('Answer to: one');
		const [second] = await repliesTo(discord.postAsMember({ user: member, channelId: dm, content: 'two' }));
		expect(second?.content).toMatch(/limit of 1 question a day outside servers that added Veil/);

		// In a server, ASK_USER_PER_DAY does not count: its own asks_per_day does.
		const guild = discord.addGuild();
		const admin = { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS };
		await runSubcommand(harness(), admin, 'settings', 'limits', [{ type: ApplicationCommandOptionType.Integer, name: 'asks_per_day', value: 2 }]);
		const channelId = guild.channels[0]?.id;
		const answers = [];
		for (const prompt of ['three', 'four', 'five']) {
			const [reply] = await repliesTo(discord.postAsMember({ user: member, channelId, content: `<@${discord.bot.id}> ${prompt}` }));
			answers.push(reply?.content);
		}
		expect(answers.slice(0, 2)).toEqual(['Answer to: three', 'Answer to: four']);
		expect(answers[2]).toMatch(/this server's limit of 2 questions a day/);
	});

	it("keeps a DM's held answer for the operators, as a private case from a DM, and says so", async () => {
		const { discord, upstream, bot } = harness();
		const member = makeUser('confides');
		await harness().linkMember(member.id);
		upstream.scriptGeneration({
			json: generationResponse({ text: 'harsh words', candidateRatings: ratingsWith({ HARM_CATEGORY_HARASSMENT: 'MEDIUM' }) }),
		});
		const [notice] = await repliesTo(discord.postAsMember({ user: member, channelId: discord.dmChannelId(member), content: 'be harsh' }));
		expect(notice?.content).toContain("kept it back for Veil's operators to review");
		expect(notice?.content).not.toContain('harsh words');
		const page = await bot.context.flags.list(operators.id, 1);
		const flag = page.flags.find((kept) => kept.userId === member.id);
		expect(flag).toMatchObject({ channelId: OUTSIDE_CHANNEL, outside: 'dm', private: true, prompt: 'be harsh' });
		expect(notice?.content).toContain(flag?.id);
	});
});
