import { ApplicationCommandOptionType, MessageFlags, PermissionFlagsBits } from 'discord.js';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_BOT_PERMISSIONS, makeUser, type GuildModel } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { echoLastPrompt, generationRequestsSince, settled } from '../support/conversations.js';
import { ADMIN_PERMISSIONS, runSubcommand } from '../support/moderation.js';
import { safeResponse } from '../support/upstreamStandIn.js';

const harness = useHarness();
const member = makeUser('long-filer');
const neighbour = makeUser('neighbour');
let costly: GuildModel;
let modlog: string;
let calm: GuildModel;

// Ten regexes that each take the better part of a second over a long text on RE2: Discord allows them all.
const REGEXES = Array.from({ length: 10 }, (_, n) => `(?i)[a-z]{1,250}[0-9]${n}`);

beforeAll(async () => {
	await harness().linkMember(member.id);
	await harness().linkMember(neighbour.id);
	costly = harness().discord.addGuild({
		channels: [{ name: 'general' }, { name: 'mod-log' }],
		botPermissions: DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageGuild,
	});
	modlog = costly.channels[1]?.id as string;
	const admin = { user: makeUser('owner'), guild: costly, permissions: ADMIN_PERMISSIONS };
	await runSubcommand(harness(), admin, 'settings', 'modlog', [{ type: ApplicationCommandOptionType.Channel, name: 'channel', value: modlog }]);
	harness().discord.createAutomodRule(costly.id, { name: 'Codes', trigger_metadata: { regex_patterns: REGEXES } });
	calm = harness().discord.addGuild({ channels: [{ name: 'general' }] });
});
beforeEach(() => {
	harness().upstream.setDefaultGeneration((request) => ({ json: safeResponse(echoLastPrompt(request)) }));
});

function askWithLongFile(guild: GuildModel) {
	const file = harness().discord.attach({ filename: 'notes.txt', contentType: 'text/plain', bytes: 'a'.repeat(99_000) });
	const options = [
		{ type: ApplicationCommandOptionType.String as const, name: 'prompt', value: 'Summarise this' },
		{ type: ApplicationCommandOptionType.Attachment as const, name: 'file', value: file.id },
	];
	return harness().discord.slashCommand({ name: 'ask', options, user: member, guildId: guild.id });
}

describe("a server's AutoMod rules too costly to read", () => {
	it('refuse the ask to the member alone, nothing upstream, while another server is answered; the mod-log hears once', async () => {
		const before = harness().upstream.requests.length;
		const refused = askWithLongFile(costly);
		const other = harness().discord.slashCommand({
			name: 'ask',
			options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'Meanwhile, hello?' }],
			user: neighbour,
			guildId: calm.id,
		});
		const answered = await settled(harness(), other);
		expect(answered.original?.content).toBe('Answer to: Meanwhile, hello?');
		const state = await settled(harness(), refused);
		const told = [state.original, ...state.followUps].filter((message) => message && !message.deleted).at(-1);
		expect(told?.content).toBe(
			"🛡️ This server's AutoMod rules take too long to check on a text this long, so Veil did not send it. Try a shorter question or a smaller file.",
		);
		expect(state.ephemeral || ((told?.flags ?? 0) & MessageFlags.Ephemeral) !== 0).toBe(true);
		// Only the neighbour's question went upstream.
		expect(generationRequestsSince(harness(), before)).toHaveLength(1);
		await harness().discord.waitUntil(() => harness().discord.channelMessages(modlog).length > 0, 'the mod-log to hear of the rule', 10_000);
		const heard = harness().discord.channelMessages(modlog);
		expect(heard.map((message) => message.content)).toEqual([expect.stringContaining('AutoMod rule **Codes** takes Veil too long')]);

		// A second long ask is refused at once, and the moderators are not told again.
		const again = await settled(harness(), askWithLongFile(costly));
		expect([again.original, ...again.followUps].at(-1)?.content).toContain('take too long to check');
		expect(harness().discord.channelMessages(modlog)).toHaveLength(1);
	});
});
