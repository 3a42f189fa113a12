import { beforeAll, describe, expect, it } from 'vitest';
import { type APIApplicationCommandInteractionDataOption, ApplicationCommandOptionType, MessageFlags } from 'discord.js';
import { isAnswered, makeUser, type GuildModel, type InteractionHandle, type InteractionState } from '../../sandbox/discord/emulator.js';
import { MESSAGE_BLOCKED_BY_AUTOMOD } from '../../sandbox/discord/guestAutomod.js';
import { useHarness } from '../support/harness.js';
import { ADMIN_PERMISSIONS, click, freshServer, lastWords, makeFlag, runSubcommand } from '../support/moderation.js';
import { safeResponse } from '../support/upstreamBodies.js';
import { DISCORD_AUTOMOD_HOLD } from '../../src/replies/discordAutomodHold.js';
import { OUTSIDE_CHANNEL } from '../../src/moderation/storedFlag.js';
import { t } from '../../src/i18n/translate.js';

// Discord's own AutoMod refusing Veil's answer (issue 32, item 5): a member's own install of Veil answers in a server
// that did not add it, and that server's rules refuse the message (400, code 200000). Wherever it happens, the answer
// is held: the member alone is told, the operators' queue gets it, nothing is retried, and nothing is logged as a crash.
const harness = useHarness({ env: { ASK_MEMBER_PER_MINUTE: '0' } });
const member = makeUser('guest-asker');
let operators: GuildModel;
let elsewhere: GuildModel;
let modlogId: string;

beforeAll(async () => {
	operators = harness().discord.addGuild({ name: 'Veil operators', channels: [{ name: 'general' }, { name: 'mod-log' }] });
	modlogId = operators.channels[1]?.id as string;
	await harness().restartBot({ OPERATOR_GUILD_ID: operators.id });
	await harness().linkMember(member.id);
	const admin = { user: makeUser('admin'), guild: operators, permissions: ADMIN_PERMISSIONS };
	await runSubcommand(harness(), admin, 'settings', 'modlog', [{ type: ApplicationCommandOptionType.Channel, name: 'channel', value: modlogId }]);
	// A server that did not add Veil, whose AutoMod blocks a word: Veil cannot read its rules, only Discord applies them.
	elsewhere = harness().discord.addGuild({ name: 'Elsewhere', withoutBot: true });
	harness().discord.createAutomodRule(elsewhere.id, { name: 'No secrets', trigger_metadata: { keyword_filter: ['*forbidden*'] } });
});

/** The member's notice: the last message still there, once it is one only the member sees. */
function notice(handle: InteractionHandle): Promise<InteractionState> {
	return handle.waitFor((state) => {
		const last = visible(state).at(-1);
		return isAnswered(state) && last !== undefined && (last.flags & MessageFlags.Ephemeral) !== 0;
	}, 15_000);
}

const visible = (state: InteractionState) => [state.original, ...state.followUps].filter((message) => message !== undefined && !message.deleted);

/** An ask in the server without Veil, answered `text` with every rating clear, until the member's notice. */
async function askElsewhere(prompt: string, text: string): Promise<InteractionState> {
	harness().upstream.scriptGeneration({ json: safeResponse(text) });
	const options: APIApplicationCommandInteractionDataOption[] = [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: prompt }];
	return notice(harness().discord.slashCommand({ name: 'ask', options, user: member, guildId: elsewhere.id }));
}

/** Everything anyone in that server's channel can read of Veil there. */
function publicText(): string {
	return harness()
		.discord.channelMessages(elsewhere.channels[0]?.id as string, { all: true })
		.filter((message) => !message.deleted && (message.flags & MessageFlags.Ephemeral) === 0)
		.map((message) => message.content)
		.join('\n');
}

/** The flag the member's notice names, as the operators' server keeps it. */
async function heldFlag(state: InteractionState) {
	const notice = visible(state).at(-1);
	expect((notice?.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
	expect(notice?.content).toContain(t('en-US', 'members.ask.hidden.blockedForOperators'));
	const flagId = /`([a-z0-9]+)`[^`]*$/.exec(notice?.content ?? '')?.[1];
	if (!flagId) throw new Error(`no reference in ${notice?.content}`);
	return harness().bot.context.flags.find(operators.id, flagId);
}

/** The conversations kept outside Veil's servers: a held answer's is never among them. */
const outsideConversations = async () =>
	(await harness().bot.store.entries('conversations')).map(([key]) => key).filter((key) => key.startsWith('outside:'));

/** Log lines at error level or above (pino: 50), written since `from`. */
const crashesSince = (from: number) =>
	harness()
		.logs.slice(from)
		.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);

/** Requests that tried to put the answer's text in the channel. */
const attemptsWith = (marker: string) =>
	harness().discord.requests.filter((request) => request.method !== 'GET' && request.rawBody.toString('utf8').includes(marker));

describe("an answer the server's own AutoMod refuses, outside Veil's servers", () => {
	it("in the deferred answer's edit: held for the operators, the member told alone, nothing retried or logged as a crash", async () => {
		const logsFrom = harness().logs.length;
		const conversations = await outsideConversations();
		const state = await askElsewhere('tell me', 'The EDIT-MARK answer holds a forbidden word.');
		expect(await outsideConversations()).toEqual(conversations);
		expect(publicText()).not.toContain('EDIT-MARK');
		expect(await heldFlag(state)).toMatchObject({
			outside: 'server',
			channelId: OUTSIDE_CHANNEL,
			private: true,
			userId: member.id,
			text: 'The EDIT-MARK answer holds a forbidden word.',
			automod: DISCORD_AUTOMOD_HOLD,
		});
		expect(attemptsWith('EDIT-MARK')).toHaveLength(1);
		expect(attemptsWith('EDIT-MARK')[0]?.status).toBe(400);
		expect(crashesSince(logsFrom)).toEqual([]);
		// The operators' mod-log announces it, without its text.
		await harness().discord.waitUntil(() => harness().discord.channelMessages(modlogId).length > 0, 'a mod-log post');
		expect(JSON.stringify(harness().discord.channelMessages(modlogId))).not.toContain('EDIT-MARK');
	});

	it('in a follow-up (a long answer whose later part is refused): what was posted is taken down, and it is held', async () => {
		const logsFrom = harness().logs.length;
		const clean = `${'A clean paragraph of the answer. '.repeat(40)}\n\n`;
		const text = `FIRST-MARK ${clean.repeat(2)}${'More of it. '.repeat(100)} and then FOLLOW-MARK, a forbidden word.`;
		const conversations = await outsideConversations();
		const state = await askElsewhere('a long one', text);
		expect(await outsideConversations()).toEqual(conversations);
		expect(attemptsWith('FIRST-MARK').map((request) => request.status)).toContain(200);
		expect(attemptsWith('FOLLOW-MARK')).toHaveLength(1);
		expect(publicText()).not.toContain('FIRST-MARK');
		expect(publicText()).not.toContain('FOLLOW-MARK');
		expect(await heldFlag(state)).toMatchObject({ outside: 'server', text, automod: DISCORD_AUTOMOD_HOLD });
		expect(crashesSince(logsFrom)).toEqual([]);
	});
});

describe("a release Discord's AutoMod refuses in the channel", () => {
	it('tells the moderator the server rules blocked it, keeps the flag pending, and retries nothing', async () => {
		const { guild, member: asker, moderator } = freshServer(harness());
		const flag = await makeFlag(harness(), asker, { prompt: 'held question', text: 'RELEASE-MARK held answer' });
		const channelId = guild.channels[0]?.id as string;
		harness().discord.injectRestFailure({
			method: 'POST',
			pathIncludes: `/channels/${channelId}/messages`,
			status: 400,
			body: MESSAGE_BLOCKED_BY_AUTOMOD,
		});
		const logsFrom = harness().logs.length;
		const refused = await click(harness(), moderator, `flagged:release:${flag.id}`);
		expect(lastWords(refused)).toBe(
			t('en-US', 'moderators.releaseFailed', { channelId, reason: t('en-US', 'moderators.sendFailure.blockedByAutomod') }),
		);
		expect((await harness().bot.context.flags.find(guild.id, flag.id))?.decision).toBeUndefined();
		expect(attemptsWith('RELEASE-MARK').filter((request) => request.path.startsWith('/channels/'))).toHaveLength(1);
		expect(crashesSince(logsFrom)).toEqual([]);
	});
});
