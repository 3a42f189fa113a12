import { ApplicationCommandOptionType, type APIApplicationCommandInteractionDataOption, type APIUser } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, PLAIN_MEMBER_PERMISSIONS, type EmulatorMessage, type GuildModel, type InteractionState } from '../../sandbox/discord/emulator.js';
import { useHarness, type Harness } from '../support/harness.js';
import { t } from '../../src/i18n/translate.js';
import { echoLastPrompt, settled } from '../support/conversations.js';
import { ADMIN_PERMISSIONS, runSubcommand } from '../support/moderation.js';
import { sample } from '../support/operators.js';
import { generationResponse, ratingsWith, safeResponse } from '../support/upstreamStandIn.js';

// /usage (SPEC §18): what a member and a server's managers see, for asks whose every outcome the test knows.
const harness = useHarness({ env: { ASK_USER_PER_DAY: '5', ASK_MEMBER_PER_MINUTE: '0' } });

const today = () => new Date().toISOString().slice(0, 10);
const midnight = () => Math.floor(Date.now() / 86_400_000 + 1) * 86_400;

interface Place {
	readonly guildId?: string | null;
	readonly channelId?: string;
	readonly installs?: readonly ('guild' | 'user')[];
	readonly memberPermissions?: bigint;
}

function ask(h: Harness, user: APIUser, prompt: string, where: Place): Promise<InteractionState> {
	return settled(
		h,
		h.discord.slashCommand({ name: 'ask', options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: prompt }], user, ...where }),
	);
}

function usage(h: Harness, user: APIUser, where: Place, options: APIApplicationCommandInteractionDataOption[] = []): Promise<InteractionState> {
	return h.discord.slashCommand({ name: 'usage', options, user, ...where }).waitForAnswer();
}

const serverOption = (days?: number): APIApplicationCommandInteractionDataOption[] => [
	{ type: ApplicationCommandOptionType.Boolean, name: 'server', value: true },
	...(days === undefined ? [] : [{ type: ApplicationCommandOptionType.Integer as const, name: 'days', value: days }]),
];

/** The first button of an answer's first row. */
function buttonOf(state: InteractionState): { custom_id?: string; label?: string } | undefined {
	const row = state.original?.components?.[0] as { components?: Array<{ custom_id?: string; label?: string }> } | undefined;
	return row?.components?.[0];
}

const held = (text: string) => ({ json: generationResponse({ text, candidateRatings: ratingsWith({ HARM_CATEGORY_HARASSMENT: 'MEDIUM' }) }) });
const rejected = { status: 400, json: { error: { code: 400, message: 'bad request', status: 'INVALID_ARGUMENT' } } };

describe('/usage for a member', () => {
	beforeAll(() => {
		harness().upstream.setDefaultGeneration((request) => ({ json: safeResponse(echoLastPrompt(request)) }));
	});

	it("in a Veil server: today's asks against the server's limit and its reset, 7 days, the linked account masked", async () => {
		const guild = harness().discord.addGuild({ channels: [{ name: 'general' }] });
		const member = makeUser('counted-member');
		await harness().linkMember(member.id, undefined, 'alice@example.com');
		await runSubcommand(harness(), { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS }, 'settings', 'limits', [
			{ type: ApplicationCommandOptionType.Integer, name: 'asks_per_day', value: 3 },
		]);
		for (const prompt of ['one', 'two'])
			expect((await ask(harness(), member, prompt, { guildId: guild.id })).original?.content).toBe(`Answer to: ${prompt}`);

		const shown = await usage(harness(), member, { guildId: guild.id });
		expect(shown.ephemeral).toBe(true);
		const lines = (shown.original?.content ?? '').split('\n');
		expect(lines[0]).toBe('**Your questions to Veil**');
		expect(lines[1]).toBe('Questions today in this server: **2**');
		expect(lines[2]).toBe(`Your daily limit here: **3**; it starts again <t:${midnight()}:R>`);
		expect(lines[3]).toBe('The last 7 days (UTC days):');
		expect(lines[4]).toBe(`\`${today()}\` 2`);
		expect(lines.slice(5, 11)).toEqual(
			Array.from({ length: 6 }, (_, n) => `\`${new Date(Date.now() - (n + 1) * 86_400_000).toISOString().slice(0, 10)}\` 0`),
		);
		expect(lines[11]).toBe('Account: your questions are answered with your linked account `a***@example.com`. Run /unlink to remove the link.');
		expect(shown.original?.allowed_mentions).toEqual({ parse: [] });

		// The third ask is the last the limit lets through; the fourth is refused and is not one of the day's asks.
		await ask(harness(), member, 'three', { guildId: guild.id });
		expect((await ask(harness(), member, 'four', { guildId: guild.id })).original?.content).toMatch(/limit of 3 questions a day/);
		expect((await usage(harness(), member, { guildId: guild.id })).original?.content).toContain('Questions today in this server: **3**');
	});

	it('counts an ask the moment its answer shows, though its conversation is still being saved, wherever it is asked', async () => {
		const member = makeUser('quick-usage-member');
		await harness().linkMember(member.id);
		const places: Array<{ where: Place; line: 'todayServer' | 'todayOutside'; locale: 'en-US' | 'fr' }> = [
			{ where: { guildId: harness().discord.addGuild({ channels: [{ name: 'general' }] }).id }, line: 'todayServer', locale: 'en-US' },
			{ where: { guildId: harness().discord.addGuild({ name: 'No Veil here', withoutBot: true }).id }, line: 'todayOutside', locale: 'fr' },
			{ where: { guildId: null, installs: ['user'] }, line: 'todayOutside', locale: 'en-US' },
		];
		let outside = 0;
		for (const { where, line, locale } of places) {
			const asked = harness().discord.slashCommand({
				name: 'ask',
				options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'quick' }],
				user: member,
				locale,
				...where,
			});
			// The answer, and nothing after it: the save waits out its batch's window (up to 100 ms) behind it.
			expect((await asked.waitForAnswer()).original?.content).toBe('Answer to: quick');
			if (line === 'todayOutside') outside += 1;
			const shown = await harness()
				.discord.slashCommand({ name: 'usage', options: [], user: member, locale, ...where })
				.waitForAnswer();
			const lines = (shown.original?.content ?? '').split('\n');
			expect(lines[1], `${locale} ${JSON.stringify(where)}`).toBe(t(locale, `usage.mine.${line}`, { asks: line === 'todayServer' ? 1 : outside }));
		}
	});

	it('outside Veil servers (a DM, a server without Veil): one count against ASK_USER_PER_DAY, and no account', async () => {
		const traveller = makeUser('usage-traveller');
		const elsewhere = harness().discord.addGuild({ name: 'No Veil here', withoutBot: true });
		const dm: Place = { guildId: null, installs: ['user'] };
		const guest: Place = { guildId: elsewhere.id };
		await harness().linkMember(traveller.id);
		await ask(harness(), traveller, 'in a DM', dm);
		await ask(harness(), traveller, 'in a guest server', guest);
		await harness().bot.context.accounts.remove(traveller.id);
		for (const where of [dm, guest]) {
			const shown = await usage(harness(), traveller, where);
			expect(shown.ephemeral).toBe(true);
			const lines = (shown.original?.content ?? '').split('\n');
			expect(lines[1]).toBe('Questions today outside servers that added Veil: **2**');
			expect(lines[2]).toBe(`Your daily limit here: **5**; it starts again <t:${midnight()}:R>`);
			expect(lines[4]).toBe(`\`${today()}\` 2`);
			expect(lines.at(-1)).toBe('Account: none linked, so Veil answers with its own. /link links yours; /unlink removes a link.');
		}
		// /usage server outside Veil's servers counts nothing per server: it says so.
		const refused = await usage(harness(), traveller, { ...guest, memberPermissions: ADMIN_PERMISSIONS }, serverOption());
		expect(refused.ephemeral).toBe(true);
		expect(refused.original?.content).toBe('Usage by server is kept only in servers that added Veil. Here, /usage shows your own.');
	});
});

/**
 * Veil's reply to a member's message (a mention, a reply to Veil, a DM), once the bot has finished with the message
 * (answered and counted), as its log says.
 */
async function replyTo(h: Harness, message: EmulatorMessage): Promise<EmulatorMessage> {
	const finished = (line: string) => line.includes(`"messageId":"${message.id}"`) && line.includes('"msg":"message handled"');
	await h.discord.waitUntil(() => h.logs.some(finished), `the bot to finish with "${message.content}"`);
	const reply = h.discord
		.channelMessages(message.channel_id)
		.find((sent) => sent.author.id === h.discord.bot.id && sent.message_reference?.message_id === message.id);
	expect(reply, `Veil's reply to "${message.content}"`).toBeDefined();
	return reply as EmulatorMessage;
}

describe('turns by message (a mention, a reply to Veil, a DM)', () => {
	beforeAll(() => {
		harness().upstream.setDefaultGeneration((request) => ({ json: safeResponse(echoLastPrompt(request)) }));
	});

	it("count in the member's and the server's usage as /ask does, under the same daily limit", async () => {
		const h = harness();
		const guild = h.discord.addGuild({ channels: [{ name: 'general' }] });
		const channelId = guild.channels[0]?.id as string;
		const member = makeUser('talking-member');
		await h.linkMember(member.id);
		await runSubcommand(h, { user: makeUser('talk-admin'), guild, permissions: ADMIN_PERMISSIONS }, 'settings', 'limits', [
			{ type: ApplicationCommandOptionType.Integer, name: 'asks_per_day', value: 3 },
		]);
		const where: Place = { guildId: guild.id, channelId, memberPermissions: PLAIN_MEMBER_PERMISSIONS };
		const mention = (content: string) => h.discord.postAsMember({ user: member, channelId, content: `<@${h.discord.bot.id}> ${content}` });

		expect((await ask(h, member, 'by slash', where)).original?.content).toBe('Answer to: by slash');
		const answer = await replyTo(h, mention('by mention'));
		expect(answer.content).toBe('Answer to: by mention');
		const today1 = (await usage(h, member, where)).original?.content.split('\n') ?? [];
		expect(today1[1]).toBe('Questions today in this server: **2**');
		expect(today1[4]).toBe(`\`${today()}\` 2`);

		// A reply to Veil's answer, held by the model's ratings: the third the limit lets through.
		h.upstream.scriptGeneration(held('unkind'));
		const notice = await replyTo(h, h.discord.postAsMember({ user: member, channelId, content: 'and held?', replyTo: answer }));
		expect(notice.content).not.toContain('unkind');
		// The fourth, by mention, is refused by the limit, as a fourth /ask would be, and is not one of the day's asks.
		expect((await replyTo(h, mention('one too many'))).content).toMatch(/limit of 3 questions a day/);
		expect((await usage(h, member, where)).original?.content).toContain('Questions today in this server: **3**');

		const lines = (
			await usage(h, makeUser('talk-admin'), { guildId: guild.id, channelId, memberPermissions: ADMIN_PERMISSIONS }, serverOption(1))
		).original?.content.split('\n');
		expect(lines?.slice(1, 5)).toEqual([
			'Questions: **4** · members who asked: **1**',
			'Shown: **2** · held: **1** · refused: **1** · failed: **0**',
			"Held, by reason: the model's ratings 1 · AutoMod 0 · other 0",
			'Refused, by reason: limits 1 · busy 0 · link first 0 · files 0 · other 0',
		]);
		expect(lines).toContain(`Busiest channels: <#${channelId}> 4`);
	});

	it("meet a role's limit, and none for Manage Server, as /ask does: from the roles the message carries", async () => {
		const h = harness();
		const guild = h.discord.addGuild({ channels: [{ name: 'general' }] });
		const channelId = guild.channels[0]?.id as string;
		const admin = { user: makeUser('talk-roles-admin'), guild, permissions: ADMIN_PERMISSIONS };
		const regular = h.discord.addRole(guild.id, { name: 'regular', permissions: PLAIN_MEMBER_PERMISSIONS });
		const managers = h.discord.addRole(guild.id, { name: 'managers', permissions: ADMIN_PERMISSIONS });
		await runSubcommand(h, admin, 'settings', 'limits', [{ type: ApplicationCommandOptionType.Integer, name: 'asks_per_day', value: 1 }]);
		await runSubcommand(h, admin, 'settings', 'limits', [
			{ type: ApplicationCommandOptionType.Integer, name: 'asks_per_day', value: 2 },
			{ type: ApplicationCommandOptionType.Role, name: 'role', value: regular.id },
		]);
		const answered = async (user: APIUser, times: number) => {
			const contents: string[] = [];
			for (let n = 0; n < times; n++) {
				const message = h.discord.postAsMember({ user, channelId, content: `<@${h.discord.bot.id}> q${n}` });
				contents.push((await replyTo(h, message)).content);
			}
			return contents.map((content) => (content.startsWith('Answer to:') ? 'answered' : /limit of (\d+) question/.exec(content)?.[1]));
		};
		const member = makeUser('talk-regular');
		const manager = makeUser('talk-manager');
		h.discord.setMemberRoles(guild.id, member, [regular.id]);
		h.discord.setMemberRoles(guild.id, manager, [managers.id]);
		for (const user of [member, manager]) await h.linkMember(user.id);

		expect(await answered(member, 3)).toEqual(['answered', 'answered', '2']);
		expect(await answered(manager, 3)).toEqual(['answered', 'answered', 'answered']);
		// Not limited, and still counted: the manager's three are their day's asks.
		const mine = await usage(h, manager, { guildId: guild.id, channelId, memberPermissions: ADMIN_PERMISSIONS });
		expect(mine.original?.content).toContain('Questions today in this server: **3**');
	});

	it('count in a DM outside Veil servers against ASK_USER_PER_DAY, with the /ask made there', async () => {
		const h = harness();
		const member = makeUser('dm-talker');
		await h.linkMember(member.id);
		const dm: Place = { guildId: null, installs: ['user'] };
		await ask(h, member, 'by slash in a DM', dm);
		expect(
			(await replyTo(h, h.discord.postAsMember({ user: member, channelId: h.discord.dmChannelId(member), content: 'by message' }))).content,
		).toBe('Answer to: by message');
		const lines = (await usage(h, member, dm)).original?.content.split('\n') ?? [];
		expect(lines[1]).toBe('Questions today outside servers that added Veil: **2**');
		expect(lines[2]).toBe(`Your daily limit here: **5**; it starts again <t:${midnight()}:R>`);
	});
});

describe('/usage server and its export, for a known mix of asks', () => {
	let guild: GuildModel;
	const admin = makeUser('usage-admin');
	const alice = makeUser('usage-alice');
	const bob = makeUser('usage-bob');
	const carol = makeUser('usage-carol');
	const dave = makeUser('usage-dave');

	beforeAll(async () => {
		const h = harness();
		h.upstream.setDefaultGeneration((request) => ({ json: safeResponse(echoLastPrompt(request)) }));
		guild = h.discord.addGuild({ channels: [{ name: 'general' }, { name: 'help' }, { name: '=HYPERLINK("x")' }] });
		const [general, help, formula] = guild.channels.map((channel) => channel.id) as [string, string, string];
		await h.linkMember(alice.id);
		await h.linkMember(bob.id);
		await h.linkMember(dave.id);
		await runSubcommand(h, { user: admin, guild, permissions: ADMIN_PERMISSIONS }, 'settings', 'limits', [
			{ type: ApplicationCommandOptionType.Integer, name: 'asks_per_day', value: 2 },
		]);
		const at = (channelId: string): Place => ({ guildId: guild.id, channelId, memberPermissions: PLAIN_MEMBER_PERMISSIONS });
		// #general: alice shown, shown, then refused by the limit; carol (not linked) refused: link first.
		await ask(h, alice, 'a1', at(general));
		await ask(h, alice, 'a2', at(general));
		await ask(h, alice, 'a3', at(general));
		await ask(h, carol, 'c1', at(general));
		// #help: bob held (the model's ratings), then failed (the service refused the request).
		h.upstream.scriptGeneration(held('unsafe'));
		await ask(h, bob, 'b1', at(help));
		h.upstream.scriptGeneration(rejected);
		await ask(h, bob, 'b2', at(help));
		// The channel named like a formula: dave shown.
		await ask(h, dave, 'd1', at(formula));
	});

	it('counts every figure as it happened, for Manage Server only', async () => {
		const h = harness();
		const [general, help, formula] = guild.channels.map((channel) => channel.id);
		const shown = await usage(h, admin, { guildId: guild.id, memberPermissions: ADMIN_PERMISSIONS }, serverOption(3));
		expect(shown.ephemeral).toBe(true);
		const lines = (shown.original?.content ?? '').split('\n');
		const from = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
		expect(lines).toEqual([
			`**Veil in this server**, \`${from}\` to \`${today()}\` (UTC days)`,
			'Questions: **7** · members who asked: **4**',
			'Shown: **3** · held: **1** · refused: **2** · failed: **1**',
			"Held, by reason: the model's ratings 1 · AutoMod 0 · other 0",
			'Refused, by reason: limits 1 · busy 0 · link first 1 · files 0 · other 0',
			'Share of answers held: **25%**',
			`Busiest channels: <#${general}> 4 · <#${help}> 2 · <#${formula}> 1`,
			'Per day (questions · members who asked):',
			`\`${from}\` 0 · 0`,
			`\`${new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)}\` 0 · 0`,
			`\`${today()}\` 7 · 4`,
		]);
		const exportButton = buttonOf(shown);
		expect(exportButton?.label).toBe('Export CSV');

		const refused = await usage(h, alice, { guildId: guild.id, memberPermissions: PLAIN_MEMBER_PERMISSIONS }, serverOption());
		expect(refused.ephemeral).toBe(true);
		expect(refused.original?.content).toMatch(/Manage Server/);
		expect(refused.original?.content).not.toMatch(/Questions/);
	});

	it("adds the same counts to the operators' metrics, with no server or member label", async () => {
		const { body } = await harness().bot.context.metrics.text();
		// Other tests' asks in servers count too: at least this mix, each kind labelled only by outcome and reason.
		expect(sample(body, 'veil_usage_asks_total{outcome="held",reason="ratings"}')).toBeGreaterThanOrEqual(1);
		expect(sample(body, 'veil_usage_asks_total{outcome="refused",reason="link"}')).toBeGreaterThanOrEqual(1);
		expect(sample(body, 'veil_usage_asks_total{outcome="failed",reason=""}')).toBeGreaterThanOrEqual(1);
		expect(sample(body, 'veil_ask_line_wait_seconds_count')).toBeGreaterThanOrEqual(5);
		expect(body).not.toContain(guild.id);
		for (const user of [alice, bob, carol, dave]) expect(body).not.toContain(user.id);
	});

	it('exports the same as CSV, one row per day and channel, no member ids, and a formula-like name neutralised', async () => {
		const h = harness();
		const [general, help, formula] = guild.channels.map((channel) => channel.id);
		const shown = await usage(h, admin, { guildId: guild.id, memberPermissions: ADMIN_PERMISSIONS }, serverOption(3));
		const customId = buttonOf(shown)?.custom_id ?? '';

		const pressedByMember = await h.discord
			.button({ customId, user: alice, guildId: guild.id, memberPermissions: PLAIN_MEMBER_PERMISSIONS, message: shown.original })
			.waitForAnswer();
		expect(pressedByMember.ephemeral).toBe(true);
		expect(pressedByMember.original?.content).toMatch(/Manage Server/);
		expect(pressedByMember.original?.files ?? []).toEqual([]);

		const pressed = await h.discord
			.button({ customId, user: admin, guildId: guild.id, memberPermissions: ADMIN_PERMISSIONS, message: shown.original })
			.waitForAnswer();
		expect(pressed.ephemeral).toBe(true);
		const file = pressed.original?.files[0];
		expect(file?.filename).toMatch(/^veil-usage-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
		const csv = file?.data.toString('utf8') ?? '';
		expect(csv.split('\r\n')).toEqual([
			'day,channel_id,channel_name,asks,shown,held,held_ratings,held_automod,held_other,refused,refused_limits,refused_busy,refused_link,refused_files,refused_other,failed,day_members_who_asked',
			...[
				[general, 'general', 4, 2, 0, 0, 0, 0, 2, 1, 0, 1, 0, 0, 0],
				[help, 'help', 2, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1],
				[formula, `"'=HYPERLINK(""x"")"`, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
			]
				.sort(([a], [b]) => (String(a) < String(b) ? -1 : 1))
				.map((cells) => [today(), ...cells, 4].join(',')),
			'',
		]);
		for (const user of [admin, alice, bob, carol, dave]) expect(csv).not.toContain(user.id);
		for (const prompt of ['a1', 'b1', 'd1', 'unsafe']) expect(csv).not.toContain(prompt);
	});
});

describe('limits by role', () => {
	it("replace the server's for their members, the highest of two applying, 0 none, from the interaction's roles", async () => {
		const h = harness();
		h.upstream.setDefaultGeneration((request) => ({ json: safeResponse(echoLastPrompt(request)) }));
		const guild = h.discord.addGuild({ channels: [{ name: 'general' }] });
		const admin = { user: makeUser('roles-admin'), guild, permissions: ADMIN_PERMISSIONS };
		const trial = h.discord.addRole(guild.id, { name: 'trial', permissions: PLAIN_MEMBER_PERMISSIONS });
		const regular = h.discord.addRole(guild.id, { name: 'regular', permissions: PLAIN_MEMBER_PERMISSIONS });
		const staff = h.discord.addRole(guild.id, { name: 'staff', permissions: PLAIN_MEMBER_PERMISSIONS });
		const limit = (value?: number, roleId?: string) =>
			runSubcommand(h, admin, 'settings', 'limits', [
				...(value === undefined ? [] : [{ type: ApplicationCommandOptionType.Integer as const, name: 'asks_per_day', value }]),
				...(roleId === undefined ? [] : [{ type: ApplicationCommandOptionType.Role as const, name: 'role', value: roleId }]),
			]);
		await limit(2);
		expect((await limit(1, trial.id)).original?.content).toBe(
			`✅ Daily limit for members with <@&${trial.id}>: **1**. It replaces the server's limit for them; with several such roles, the highest applies.`,
		);
		await limit(3, regular.id);
		expect((await limit(0, staff.id)).original?.content).toMatch(/^✅ Members with <@&\d+> now have no daily limit/);
		const listed = (await limit()).original?.content ?? '';
		expect(listed).toContain('Daily limit: **2 questions**');
		expect(listed).toContain(
			`Limits by role, each replacing the server's for its members (with several, the highest applies):\n<@&${trial.id}>: **1**\n<@&${regular.id}>: **3**\n<@&${staff.id}>: **no limit**`,
		);

		const members = {
			newcomer: [trial.id],
			both: [trial.id, regular.id],
			plain: [],
			staffer: [trial.id, staff.id],
		};
		const limitShown = async (user: APIUser) => (await usage(h, user, { guildId: guild.id })).original?.content.split('\n')[2];
		const answered = async (user: APIUser, times: number) => {
			const contents: string[] = [];
			for (let n = 0; n < times; n++) contents.push((await ask(h, user, `q${n}`, { guildId: guild.id })).original?.content ?? '');
			return contents.map((content) => (content.startsWith('Answer to:') ? 'answered' : /limit of (\d+) question/.exec(content)?.[1]));
		};
		const users = Object.fromEntries(
			await Promise.all(
				Object.entries(members).map(async ([name, roles]) => {
					const user = makeUser(`role-${name}`);
					h.discord.setMemberRoles(guild.id, user, roles);
					await h.linkMember(user.id);
					return [name, user] as const;
				}),
			),
		) as Record<keyof typeof members, APIUser>;

		expect(await limitShown(users.newcomer)).toMatch(/^Your daily limit here: \*\*1\*\*;/);
		expect(await limitShown(users.both)).toMatch(/^Your daily limit here: \*\*3\*\*;/);
		expect(await limitShown(users.plain)).toMatch(/^Your daily limit here: \*\*2\*\*;/);
		expect(await limitShown(users.staffer)).toBe('No daily limit applies to you here.');
		expect(await answered(users.newcomer, 2)).toEqual(['answered', '1']);
		expect(await answered(users.both, 4)).toEqual(['answered', 'answered', 'answered', '3']);
		expect(await answered(users.plain, 3)).toEqual(['answered', 'answered', '2']);
		expect(await answered(users.staffer, 4)).toEqual(['answered', 'answered', 'answered', 'answered']);

		// A role given back the server's limit: its members meet the server's again.
		expect((await limit(undefined, regular.id)).original?.content).toBe(
			`✅ <@&${regular.id}> has no limit of its own any more: the server's applies to its members.`,
		);
		expect(await limitShown(users.both)).toMatch(/^Your daily limit here: \*\*1\*\*;/);
	});
});
