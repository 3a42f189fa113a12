import { ApplicationCommandOptionType, OverwriteType, PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { generationResponse, ratingsWith } from '../support/upstreamBodies.js';
import {
	ADMIN_PERMISSIONS,
	click,
	expectPrivateAndQuiet,
	freshServer,
	makeFlag,
	readable,
	runSubcommand,
	viewFlag,
	type Where,
	textOf,
	buttonIdsIn,
	cardText,
	componentsIn,
	expectCard,
} from '../support/moderation.js';

const harness = useHarness();

describe('mod-log', () => {
	it('posts metadata and a View reply button, never the model text; the button shows it to moderators only', async () => {
		const { guild, member, moderator } = freshServer(harness());
		const admin: Where = { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS };
		const modlogId = guild.channels[1]!.id;
		const set = await runSubcommand(harness(), admin, 'settings', 'modlog', [
			{ type: ApplicationCommandOptionType.Channel, name: 'channel', value: modlogId },
		]);
		expectPrivateAndQuiet(set);
		expect(textOf(set)).toContain(`Mod-log: <#${modlogId}>`);

		const flag = await makeFlag(harness(), member, { prompt: 'SECRET-PROMPT-4', text: 'SECRET-TEXT-4' });
		await harness().discord.waitUntil(() => harness().discord.channelMessages(modlogId).length === 1, 'the mod-log post');
		const [post] = harness().discord.channelMessages(modlogId);
		expectCard(post);
		const posted = JSON.stringify({ content: post?.content, embeds: post?.embeds, components: post?.components, files: post?.attachments });
		expect(posted).not.toContain('SECRET');
		expect(posted).toContain(flag.id);
		expect(posted).toContain(`<@${member.user.id}>`);
		expect(posted).toContain(`<#${guild.channels[0]!.id}>`);
		expect(cardText(post)).toContain('**Harassment · MEDIUM**');
		expect(post?.allowed_mentions).toEqual({ parse: [] });
		expect(post?.mentions).toEqual([]);
		// View beside the heading, the decisions below, in the same card.
		const button = componentsIn(post?.components).find((component) => component.type === 9)?.accessory;
		expect(button).toMatchObject({ custom_id: `flagged:view:${flag.id}`, label: 'View reply' });
		expect(buttonIdsIn(post)).toEqual([
			`flagged:view:${flag.id}`,
			`flagged:release:${flag.id}`,
			`flagged:dismiss:${flag.id}`,
			`flagged:review:${flag.id}`,
		]);

		const shown = await click(harness(), { ...moderator, channelId: modlogId }, `flagged:view:${flag.id}`);
		expectPrivateAndQuiet(shown);
		expect(readable(shown)).toContain('SECRET-PROMPT-4');
		expect(readable(shown)).toContain('SECRET-TEXT-4');
		const refused = await click(harness(), { ...member, channelId: modlogId }, `flagged:view:${flag.id}`);
		expect(textOf(refused)).toBe('You need the Manage Messages permission in this server to do this.');
	});

	it('refuses a channel where Veil cannot post, saying what is missing, and turns off when run bare', async () => {
		const guild = harness().discord.addGuild({
			channels: [{ name: 'general' }, { name: 'locked', permissionOverwrites: [] }],
		});
		const locked = guild.channels[1]!.id;
		harness().discord.setChannelOverwrites(locked, [
			{ id: guild.botRoleId, type: OverwriteType.Role, allow: 0n, deny: PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks },
		]);
		const admin: Where = { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS };
		const refused = await runSubcommand(harness(), admin, 'settings', 'modlog', [
			{ type: ApplicationCommandOptionType.Channel, name: 'channel', value: locked },
		]);
		expect(textOf(refused)).toContain('it lacks Send Messages and Embed Links there');
		expect(textOf(refused)).toContain('Nothing was changed');
		expect(await harness().bot.context.settings.get(guild.id)).toEqual({});

		await runSubcommand(harness(), admin, 'settings', 'modlog', [
			{ type: ApplicationCommandOptionType.Channel, name: 'channel', value: guild.channels[0]!.id },
		]);
		const off = await runSubcommand(harness(), admin, 'settings', 'modlog');
		expect(textOf(off)).toContain(`Mod-log: **off** (it was <#${guild.channels[0]!.id}>)`);
		expect((await harness().bot.context.settings.get(guild.id)).modlogChannelId).toBeUndefined();
	});

	it("keeps the flag and the member's answer when the mod-log post fails, and reports it on the next /settings modlog", async () => {
		const { guild, member, moderator } = freshServer(harness());
		const admin: Where = { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS };
		const before = await makeFlag(harness(), member, { prompt: 'before', text: 'same text' });
		const modlogId = guild.channels[1]!.id;
		await runSubcommand(harness(), admin, 'settings', 'modlog', [{ type: ApplicationCommandOptionType.Channel, name: 'channel', value: modlogId }]);
		harness().discord.failChannel(modlogId, 'missing-access');

		const during = await makeFlag(harness(), member, { prompt: 'during', text: 'same text' });
		expect(textOf(during.answer).replace(during.id, 'ID')).toBe(textOf(before.answer).replace(before.id, 'ID'));
		expect(readable(await viewFlag(harness(), moderator, during.id))).toContain('during');
		// The failure is noted in the store first, then logged.
		await harness().discord.waitUntil(
			() => harness().logs.some((line) => line.includes('mod-log post failed') && line.includes(during.id)),
			'the failure in the log',
		);

		// The check of /settings modlog fetches the channel afresh: Veil must see it again before the setting saves.
		const refused = await runSubcommand(harness(), admin, 'settings', 'modlog', [
			{ type: ApplicationCommandOptionType.Channel, name: 'channel', value: modlogId },
		]);
		expect(textOf(refused)).toContain("can't see that channel");
		harness().discord.clearChannelFailure(modlogId);
		const report = await runSubcommand(harness(), admin, 'settings', 'modlog', [
			{ type: ApplicationCommandOptionType.Channel, name: 'channel', value: modlogId },
		]);
		expect(textOf(report)).toContain('The last mod-log report failed');
		expect(textOf(report)).toContain('lost access');
		const next = await runSubcommand(harness(), admin, 'settings', 'modlog', [
			{ type: ApplicationCommandOptionType.Channel, name: 'channel', value: modlogId },
		]);
		expect(textOf(next)).not.toContain('failed');
	});

	it("posts to the mod-log even when editing the member's hidden-reply notice fails", async () => {
		const { guild, member } = freshServer(harness());
		const admin: Where = { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS };
		const modlogId = guild.channels[1]!.id;
		await runSubcommand(harness(), admin, 'settings', 'modlog', [{ type: ApplicationCommandOptionType.Channel, name: 'channel', value: modlogId }]);
		await harness().linkMember(member.user.id);
		harness().upstream.scriptGeneration({
			json: generationResponse({ text: 'held back', candidateRatings: ratingsWith({ HARM_CATEGORY_HARASSMENT: 'MEDIUM' }) }),
		});
		// The notice edit is refused (as an expired interaction token would be); the error answer after it goes through.
		harness().discord.injectRestFailure({
			method: 'PATCH',
			pathIncludes: '/messages/@original',
			status: 404,
			body: { code: 10015, message: 'Unknown Webhook' },
			times: 1,
		});
		await harness()
			.discord.slashCommand({
				name: 'ask',
				options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'notice fails' }],
				user: member.user,
				guildId: guild.id,
				channelId: guild.channels[0]!.id,
			})
			.waitForAnswer();
		await harness().discord.waitUntil(() => harness().discord.channelMessages(modlogId).length === 1, 'the mod-log post');
		const flags = await harness().bot.context.flags.list(guild.id, 1, { pageSize: 10 });
		expect(flags.total).toBe(1);
		expect(JSON.stringify(harness().discord.channelMessages(modlogId)[0]?.components)).toContain(flags.flags[0]!.id);
	});
});
