import {
	type APIApplicationCommandInteractionDataOption,
	type APIUser,
	ApplicationCommandOptionType,
	AutoModerationActionType,
	AutoModerationRuleEventType,
	AutoModerationRuleKeywordPresetType,
	AutoModerationRuleTriggerType,
	GatewayIntentBits,
	MessageFlags,
	PermissionFlagsBits,
	Routes,
} from 'discord.js';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_BOT_PERMISSIONS, makeUser, type AutomodRuleOptions, type GuildModel } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { echoLastPrompt, generationRequestsSince, settled } from '../support/conversations.js';
import { safeResponse } from '../support/upstreamStandIn.js';
import { ADMIN_PERMISSIONS, MODERATOR_PERMISSIONS, runSubcommand, textOf, viewFlag } from '../support/moderation.js';

const harness = useHarness();
const member = makeUser('asker');
const RULES_PATH = /^\/guilds\/\d+\/auto-moderation\/rules$/;

beforeAll(async () => {
	await harness().linkMember(member.id);
});
beforeEach(() => {
	harness().upstream.setDefaultGeneration((request) => ({ json: safeResponse(echoLastPrompt(request)) }));
});

/** A server of its own where Veil has Manage Server (unless `manages` is false), with #general, #alerts and #quiet. */
function server(manages = true): { guild: GuildModel; general: string; alerts: string; quiet: string } {
	const guild = harness().discord.addGuild({
		channels: [{ name: 'general' }, { name: 'alerts' }, { name: 'quiet' }],
		botPermissions: manages ? DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageGuild : DEFAULT_BOT_PERMISSIONS,
	});
	const [general, alerts, quiet] = guild.channels.map((channel) => channel.id) as [string, string, string];
	return { guild, general, alerts, quiet };
}

const keywordRule = (keywords: string[], more: AutomodRuleOptions = {}): AutomodRuleOptions => ({
	name: 'No fruit',
	trigger_metadata: { keyword_filter: keywords },
	...more,
});

interface Asked {
	/** What the member was told last: the answer, or the refusal meant for them alone. */
	readonly told: string;
	/** Whether it was told to the member alone. */
	readonly privately: boolean;
	readonly upstreamCalls: number;
}

/** `/ask prompt` in `channelId` of `guild`, as `user`; returns what the member saw and whether the model was asked. */
async function ask(guild: GuildModel, prompt: string, where: { channelId?: string; user?: APIUser } = {}): Promise<Asked> {
	const before = harness().upstream.requests.length;
	const options: APIApplicationCommandInteractionDataOption[] = [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: prompt }];
	const handle = harness().discord.slashCommand({ name: 'ask', options, user: where.user ?? member, guildId: guild.id, channelId: where.channelId });
	const state = await settled(harness(), handle);
	const upstreamCalls = generationRequestsSince(harness(), before).length;
	const last = state.followUps.at(-1);
	if (last && (last.flags & MessageFlags.Ephemeral) !== 0) return { told: last.content, privately: true, upstreamCalls };
	return { told: state.original?.content ?? '', privately: state.ephemeral, upstreamCalls };
}

const rulesReads = () => harness().discord.requests.filter((request) => request.method === 'GET' && RULES_PATH.test(request.path));

describe('a keyword rule on the prompt', () => {
	it('refuses privately with the rule’s own message, sends nothing upstream, and alerts without the prompt', async () => {
		const { guild, alerts } = server();
		harness().discord.createAutomodRule(
			guild.id,
			keywordRule(['banana'], {
				actions: [
					{ type: AutoModerationActionType.BlockMessage, metadata: { custom_message: 'Fruit talk is not allowed here.' } },
					{ type: AutoModerationActionType.SendAlertMessage, metadata: { channel_id: alerts } },
				],
			}),
		);
		const refused = await ask(guild, 'tell me about the Banana republic');
		expect(refused).toEqual({ told: 'Fruit talk is not allowed here.', privately: true, upstreamCalls: 0 });
		// No public "thinking…" is left behind.
		const left = harness()
			.discord.channelMessages(guild.channels[0]!.id)
			.filter((message) => (message.flags & MessageFlags.Ephemeral) === 0);
		expect(left).toEqual([]);
		await harness().discord.waitUntil(() => harness().discord.channelMessages(alerts).length === 1, 'the alert');
		const [alert] = harness().discord.channelMessages(alerts);
		expect(alert?.content).toContain(`<@${member.id}>`);
		expect(alert?.content).toContain('No fruit');
		expect(alert?.content).toContain('`banana`');
		expect(alert?.content).not.toContain('republic');
		expect(alert?.allowed_mentions).toEqual({ parse: [] });
	});

	it('refuses with Veil’s own sentence naming the rule when the rule has no message', async () => {
		const { guild } = server();
		harness().discord.createAutomodRule(guild.id, keywordRule(['banana']));
		const refused = await ask(guild, 'banana');
		expect(refused.told).toBe("🛡️ This server's AutoMod rule “No fruit” does not allow this question, so Veil did not send it.");
		expect(refused.upstreamCalls).toBe(0);
	});

	it('answers when the rule only alerts, and still posts the alert', async () => {
		const { guild, alerts } = server();
		harness().discord.createAutomodRule(
			guild.id,
			keywordRule(['kiwi'], {
				name: 'Watch kiwis',
				actions: [{ type: AutoModerationActionType.SendAlertMessage, metadata: { channel_id: alerts } }],
			}),
		);
		const asked = await ask(guild, 'is a kiwi a bird?');
		expect(asked.upstreamCalls).toBe(1);
		await harness().discord.waitUntil(() => harness().discord.channelMessages(alerts).length === 1, 'the alert');
		expect(harness().discord.channelMessages(alerts)[0]?.content).toContain('Watch kiwis');
		// The answer echoes the prompt: the rule matches it too, and an answer a rule matches is held.
		expect(asked.told).toContain('This answer was hidden');
	});

	it.each([
		['cat', 'a cat!', 'concatenate'],
		['cat*', 'Catapult', 'wildcat'],
		['*cat', 'wildcat', 'catapult'],
		['*cat*', 'location', 'dog'],
	])('applies %s by Discord’s strategy: "%s" blocked, "%s" answered', async (keyword, blocked, answered) => {
		const { guild } = server();
		harness().discord.createAutomodRule(guild.id, keywordRule([keyword], { name: 'Cats' }));
		expect((await ask(guild, blocked)).upstreamCalls).toBe(0);
		const shown = await ask(guild, answered);
		expect(shown).toEqual({ told: `Answer to: ${answered}`, privately: false, upstreamCalls: 1 });
	});

	it('lets through what the allow list names', async () => {
		const { guild } = server();
		harness().discord.createAutomodRule(
			guild.id,
			keywordRule(['*cat*'], { trigger_metadata: { keyword_filter: ['*cat*'], allow_list: ['catalog'] } }),
		);
		expect((await ask(guild, 'the catalog')).told).toBe('Answer to: the catalog');
		expect((await ask(guild, 'the catalog of cats')).upstreamCalls).toBe(0);
	});

	it('applies regex patterns on a linear-time engine, a catastrophic one included', async () => {
		const { guild } = server();
		harness().discord.createAutomodRule(guild.id, {
			name: 'Patterns',
			trigger_metadata: { regex_patterns: ['(a+)+$', 'b[0-9]{3}x'] },
		});
		expect((await ask(guild, 'code b123x please')).upstreamCalls).toBe(0);
		// A backtracking engine takes exponential time on this text; RE2 reads it once, and the pattern does not match.
		const evil = `${'a'.repeat(1800)}!`;
		expect((await ask(guild, evil)).told).toBe(`Answer to: ${evil}`);
	});

	it('exempts the roles and channels the rule names', async () => {
		const { guild, quiet } = server();
		const trusted = harness().discord.addRole(guild.id, { name: 'trusted', permissions: 0n });
		const insider = makeUser('insider');
		await harness().linkMember(insider.id);
		harness().discord.setMemberRoles(guild.id, insider, [trusted.id]);
		harness().discord.createAutomodRule(guild.id, keywordRule(['mango'], { exempt_roles: [trusted.id], exempt_channels: [quiet] }));
		expect((await ask(guild, 'mango')).upstreamCalls).toBe(0);
		expect((await ask(guild, 'mango', { user: insider })).told).toBe('Answer to: mango');
		expect((await ask(guild, 'mango', { channelId: quiet })).told).toBe('Answer to: mango');
	});

	it('leaves out rules Veil does not apply: disabled, another trigger or event', async () => {
		const { guild } = server();
		harness().discord.createAutomodRule(guild.id, keywordRule(['plum'], { enabled: false }));
		harness().discord.createAutomodRule(guild.id, {
			name: 'Presets',
			trigger_type: AutoModerationRuleTriggerType.KeywordPreset,
			trigger_metadata: { presets: [AutoModerationRuleKeywordPresetType.Profanity] },
		});
		harness().discord.createAutomodRule(guild.id, keywordRule(['plum'], { event_type: AutoModerationRuleEventType.MemberUpdate }));
		expect((await ask(guild, 'plum')).told).toBe('Answer to: plum');
	});
});

describe('a keyword rule on the answer', () => {
	it('hides the answer, tells the member which rule (not the word), and flags it with the rule and the keyword', async () => {
		const { guild } = server();
		harness().discord.createAutomodRule(guild.id, keywordRule(['durian'], { name: 'Smelly fruit' }));
		harness().upstream.scriptGeneration({ json: safeResponse('You should try a durian.') });
		const asked = await ask(guild, 'what should I eat?');
		expect(asked.upstreamCalls).toBe(1);
		expect(asked.told).toContain("It matched one of this server's AutoMod rules");
		expect(asked.told).toContain('“Smelly fruit”');
		expect(asked.told).not.toContain('durian');
		const flagId = /Reference for moderators: `([a-z0-9]+)`/.exec(asked.told)?.[1] ?? '';
		const stored = await harness().bot.context.flags.find(guild.id, flagId);
		expect(stored?.automod).toMatchObject({ ruleName: 'Smelly fruit', keyword: 'durian' });
		const moderator = { user: makeUser('mod'), guild, permissions: MODERATOR_PERMISSIONS };
		const view = await viewFlag(harness(), moderator, flagId);
		expect(textOf(view)).toContain('AutoMod rule “Smelly fruit” (keyword `durian`)');
		expect(textOf(view)).toContain('You should try a durian.');
	});
});

describe('keeping the rules fresh', () => {
	it('applies a rule created over the gateway at once, and drops one deleted, without reading the rules again', async () => {
		const { guild } = server();
		expect((await ask(guild, 'guava')).told).toBe('Answer to: guava');
		const reads = rulesReads().length;
		const rule = harness().discord.createAutomodRule(guild.id, keywordRule(['guava']));
		expect((await ask(guild, 'guava')).upstreamCalls).toBe(0);
		harness().discord.updateAutomodRule(guild.id, rule.id, { trigger_metadata: { keyword_filter: ['papaya'] } });
		expect((await ask(guild, 'guava')).told).toBe('Answer to: guava');
		expect((await ask(guild, 'papaya')).upstreamCalls).toBe(0);
		harness().discord.deleteAutomodRule(guild.id, rule.id);
		expect((await ask(guild, 'papaya')).told).toBe('Answer to: papaya');
		expect(rulesReads().length).toBe(reads);
	});

	it('identifies with the Auto Moderation Configuration intent, and never Message Content', () => {
		const intents = harness().discord.identifies.at(-1)?.intents ?? 0;
		expect(intents & GatewayIntentBits.AutoModerationConfiguration).toBe(GatewayIntentBits.AutoModerationConfiguration);
		expect(intents & GatewayIntentBits.MessageContent).toBe(0);
	});
});

describe('without Manage Server', () => {
	it('applies nothing, reads nothing, fails nothing, and /settings says so', async () => {
		const { guild } = server(false);
		harness().discord.createAutomodRule(guild.id, keywordRule(['lychee']));
		const before = rulesReads().length;
		expect((await ask(guild, 'lychee')).told).toBe('Answer to: lychee');
		expect(rulesReads().length).toBe(before);
		const admin = { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS };
		const settings = await runSubcommand(harness(), admin, 'settings', 'limits');
		expect(settings.original?.content).toContain('AutoMod: **not applied**');
		// As on Discord, the read itself is refused without Manage Server.
		await expect(harness().bot.client.rest.get(Routes.guildAutoModerationRules(guild.id))).rejects.toMatchObject({ status: 403, code: 50013 });
	});

	it('says on /settings limits how many rules apply where Veil has it', async () => {
		const { guild } = server();
		harness().discord.createAutomodRule(guild.id, keywordRule(['fig']));
		harness().discord.createAutomodRule(guild.id, keywordRule(['date']));
		await ask(guild, 'hello');
		const admin = { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS };
		const settings = await runSubcommand(harness(), admin, 'settings', 'limits');
		expect(settings.original?.content).toContain("AutoMod: Veil applies this server's **2** AutoMod keyword rules");
	});

	it('answers when the read is refused although app_permissions said yes, and does not ask again at once', async () => {
		const { guild } = server();
		harness().discord.createAutomodRule(guild.id, keywordRule(['olive']));
		harness().discord.injectRestFailure({
			method: 'GET',
			pathIncludes: `/guilds/${guild.id}/auto-moderation/rules`,
			status: 403,
			body: { message: 'Missing Permissions', code: 50013 },
		});
		expect((await ask(guild, 'olive')).told).toBe('Answer to: olive');
		const reads = rulesReads().length;
		expect((await ask(guild, 'olive')).told).toBe('Answer to: olive');
		expect(rulesReads().length).toBe(reads);
	});
});
