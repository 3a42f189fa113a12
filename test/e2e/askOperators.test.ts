import { beforeAll, describe, expect, it } from 'vitest';
import {
	type APIApplicationCommandInteractionDataOption,
	ApplicationCommandOptionType,
	MessageFlags,
	OverwriteType,
	PermissionFlagsBits,
} from 'discord.js';
import {
	isAnswered,
	makeUser,
	type GuildModel,
	type InteractionHandle,
	type InteractionOptions,
	type InteractionState,
} from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import {
	ADMIN_PERMISSIONS,
	click,
	lastWords,
	listLines,
	MODERATOR_PERMISSIONS,
	readable,
	runSubcommand,
	viewFlag,
	type Where,
	cardText,
	textOf,
} from '../support/moderation.js';
import { generationResponse, ratingsWith } from '../support/upstreamStandIn.js';
import { OUTSIDE_CHANNEL } from '../../src/moderation/storedFlag.js';

// Answers hidden outside Veil's servers, reviewed in the operators' own server (OPERATOR_GUILD_ID, SPEC §11).
const harness = useHarness({ env: { ASK_MEMBER_PER_MINUTE: '0' } });
const member = makeUser('traveller');
let operators: GuildModel;
let moderator: Where;
let modlogId: string;

beforeAll(async () => {
	operators = harness().discord.addGuild({ name: 'Veil operators', channels: [{ name: 'general' }, { name: 'mod-log' }] });
	modlogId = operators.channels[1]?.id as string;
	await harness().restartBot({ OPERATOR_GUILD_ID: operators.id });
	await harness().linkMember(member.id);
	const admin = { user: makeUser('admin'), guild: operators, permissions: ADMIN_PERMISSIONS };
	await runSubcommand(harness(), admin, 'settings', 'modlog', [{ type: ApplicationCommandOptionType.Channel, name: 'channel', value: modlogId }]);
	moderator = { user: makeUser('operator'), guild: operators, permissions: MODERATOR_PERMISSIONS };
});

const unsafe = (text: string) => ({ json: generationResponse({ text, candidateRatings: ratingsWith({ HARM_CATEGORY_HARASSMENT: 'MEDIUM' }) }) });

function finalAnswer(handle: InteractionHandle): Promise<InteractionState> {
	return handle.waitFor((state) => {
		const last = [state.original, ...state.followUps].filter((message) => message && !message.deleted).at(-1);
		return isAnswered(state) && last !== undefined && !last.deferred && last.content !== '…';
	}, 10_000);
}

/** The mod-log post of this flag, once Veil has made it (after the member's notice). */
async function modlogPostOf(flagId: string) {
	const find = () =>
		harness()
			.discord.channelMessages(modlogId)
			.find((message) => cardText(message).includes(flagId));
	await harness().discord.waitUntil(() => find() !== undefined, `the mod-log post of ${flagId}`);
	return find();
}

/** A hidden answer asked `where`, and the id of the flag its notice names. */
async function hiddenAsk(prompt: string, text: string, where: InteractionOptions): Promise<{ state: InteractionState; flagId: string }> {
	harness().upstream.scriptGeneration(unsafe(text));
	const options: APIApplicationCommandInteractionDataOption[] = [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: prompt }];
	const state = await finalAnswer(harness().discord.slashCommand({ name: 'ask', options, user: member, ...where }));
	const notice = [state.original, ...state.followUps].filter((message) => message && !message.deleted).at(-1);
	expect((notice?.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
	expect(notice?.content).toContain("for Veil's operators to review");
	const flagId = /Reference for moderators: `([a-z0-9]+)`/.exec(notice?.content ?? '')?.[1];
	if (!flagId) throw new Error(`no reference in ${notice?.content}`);
	return { state, flagId };
}

describe("held answers from outside Veil's servers, in the operators' server", () => {
	it('become a flag there, announced in its mod-log and listed by /flagged as from outside servers; Release goes by DM', async () => {
		const { flagId } = await hiddenAsk('a DM question', 'HELD-IN-DM', { guildId: null, installs: ['user'] });
		expect(await harness().bot.context.flags.find(operators.id, flagId)).toMatchObject({
			outside: 'dm',
			channelId: OUTSIDE_CHANNEL,
			private: true,
			userId: member.id,
		});

		const post = await modlogPostOf(flagId);
		expect(cardText(post)).toContain('Outside servers · a DM with Veil');
		expect(JSON.stringify(post)).not.toContain('HELD-IN-DM');

		const list = await runSubcommand(harness(), moderator, 'flagged', 'list');
		expect(listLines(list).find((line) => line.includes(flagId))).toContain('Outside servers · a DM with Veil');
		const view = await viewFlag(harness(), moderator, flagId);
		expect(readable(view)).toContain('HELD-IN-DM');

		const released = await click(harness(), moderator, `flagged:release:${flagId}`);
		expect(textOf(released)).toContain(`to <@${member.id}> alone, in a direct message, as they asked outside Veil's servers`);
		const [message] = harness().discord.directMessages(member.id);
		expect(message?.content).toMatch(/^🔓 \*\*Released by Veil's operators after review\*\*/);
		expect(message?.content).toContain('HELD-IN-DM');
		expect(harness().discord.channelMessages(operators.channels[0]?.id as string)).toEqual([]);
	});

	it('names a server without Veil only as such, never by name, and a forced-ephemeral ask is recorded as private', async () => {
		// External apps off for its members: Discord makes the answer ephemeral though Veil asked in public.
		// Its language is French: the operators' mod-log is in theirs (English here), not the foreign server's.
		const strict = harness().discord.addGuild({ name: 'SECRET-SERVER-NAME', withoutBot: true, everyonePermissions: 0n, preferredLocale: 'fr' });
		const { state, flagId } = await hiddenAsk('asked in public', 'HELD-IN-STRICT', { guildId: strict.id });
		expect(state.ephemeral).toBe(true);
		expect(await harness().bot.context.flags.find(operators.id, flagId)).toMatchObject({ outside: 'server', private: true });
		const post = await modlogPostOf(flagId);
		expect(cardText(post)).toContain('Outside servers · a server without Veil');
		const view = await viewFlag(harness(), moderator, flagId);
		expect(readable(view)).not.toContain('SECRET-SERVER-NAME');
		expect(readable(view)).not.toContain(strict.id);

		const released = await click(harness(), moderator, `flagged:release:${flagId}`);
		expect(textOf(released)).toContain('Released');
		expect(
			harness()
				.discord.directMessages(member.id)
				.map((m) => m.content)
				.join('\n'),
		).toContain('HELD-IN-STRICT');
		expect(
			harness()
				.discord.channelMessages(strict.channels[0]?.id as string, { all: true })
				.filter((m) => !m.deleted && (m.flags & MessageFlags.Ephemeral) === 0),
		).toEqual([]);
	});

	it('tells the moderator when the member takes no direct messages (50007), and keeps the flag pending', async () => {
		const groupDm = harness().discord.addGroupDm([member, makeUser('friend')]);
		const { flagId } = await hiddenAsk('group question', 'HELD-IN-GROUP', { channelId: groupDm.id });
		harness().discord.setDirectMessagesOpen(member.id, false);
		try {
			const refused = await click(harness(), moderator, `flagged:release:${flagId}`);
			expect(lastWords(refused)).toContain("they don't accept direct messages from Veil");
			expect((await harness().bot.context.flags.find(operators.id, flagId))?.decision).toBeUndefined();
		} finally {
			harness().discord.setDirectMessagesOpen(member.id, true);
		}
	});

	it("refuses a moderator without View Channel and Manage Messages in the operators' mod-log channel", async () => {
		const { flagId } = await hiddenAsk('another DM question', 'HELD-AGAIN', { guildId: null, installs: ['user'] });
		const outsider = { user: makeUser('channel-moderator'), guild: operators, permissions: MODERATOR_PERMISSIONS };
		// Manage Messages server-wide, but the mod-log channel is closed to them.
		await runSubcommand(harness(), outsider, 'flagged', 'list');
		harness().discord.setChannelOverwrites(modlogId, [
			{ id: outsider.user.id, type: OverwriteType.Member, allow: 0n, deny: PermissionFlagsBits.ViewChannel },
		]);
		const view = await viewFlag(harness(), outsider, flagId);
		expect(readable(view)).toContain('No flag with that id');
		expect(readable(view)).not.toContain('HELD-AGAIN');
		const list = await runSubcommand(harness(), outsider, 'flagged', 'list');
		expect(listLines(list).some((line) => line.includes(flagId))).toBe(false);
		const release = await click(harness(), outsider, `flagged:release:${flagId}`);
		expect(lastWords(release)).toContain('No flag with that id');
		expect((await harness().bot.context.flags.find(operators.id, flagId))?.decision).toBeUndefined();
	});
});
