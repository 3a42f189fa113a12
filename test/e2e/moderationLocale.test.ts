import { describe, expect, it } from 'vitest';
import { makeUser } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import {
	ADMIN_PERMISSIONS,
	click,
	freshServer,
	listFlags,
	listLines,
	makeFlag,
	MODERATOR_PERMISSIONS,
	runSubcommand,
	viewFlag,
	type Where,
	textOf,
	cardText,
	componentsIn,
	expectCard,
} from '../support/moderation.js';

// Issue 23: a moderator reads their views in their own language, a server's mod-log follows the server's language
// (Discord's guild_locale, or /settings language), and what reaches the member alone follows the member's.
const harness = useHarness();

describe("a moderator's views in the moderator's language", () => {
	it('shows a Japanese moderator /flagged list, the view and its buttons in Japanese', async () => {
		const { guild, member } = freshServer(harness());
		const moderator: Where = { user: makeUser('mod-ja'), guild, permissions: MODERATOR_PERMISSIONS, locale: 'ja' };
		const flag = await makeFlag(harness(), member, { prompt: 'p', text: 't' });

		const list = await listFlags(harness(), moderator);
		expect(list.original?.embeds[0]?.title).toBe('フラグ付き回答 · 1/1ページ');
		expect(listLines(list)[0]).toMatch(new RegExp(`^\\*\\*#1\\*\\* · \`${flag.id}\` · .* · \\*\\*未処理\\*\\*$`));
		expect(list.original?.embeds[0]?.footer?.text).toMatch(/チャンネルから1件/);

		const view = await viewFlag(harness(), moderator, flag.id);
		expectCard(view.original);
		expect(textOf(view)).toMatch(/^## ケース#1 · 未処理\n\*\*メンバー\*\* <@\d+> · \*\*場所\*\* <#\d+> · \*\*日時\*\* /);
		expect(textOf(view)).toContain('**理由**');
		const buttons = componentsIn(view.original?.components).flatMap((component) => (component.type === 2 ? [component.label] : []));
		expect(buttons).toEqual(['保留解除', '却下', '確認済みにする']);

		// The reason form and /flagged stats too.
		const form = await harness()
			.discord.button({
				customId: `flagged:release:${flag.id}`,
				user: moderator.user,
				guildId: guild.id,
				memberPermissions: moderator.permissions,
				locale: 'ja',
			})
			.waitForAnswer();
		expect(form.modal?.title).toBe('この回答の保留を解除');
		expect((await runSubcommand(harness(), moderator, 'flagged', 'stats')).original?.embeds[0]?.title).toBe('保留された回答 · 過去7日間');

		// The same flag, for a moderator whose client is in English, is in English.
		const english = await viewFlag(harness(), { ...moderator, user: makeUser('mod-en'), locale: 'en-US' }, flag.id);
		expect(textOf(english)).toMatch(/^## Case #1 · Pending\n/);
	});
});

describe("the mod-log in the server's language", () => {
	it("posts in a French server's language, and in German once /settings language says so", async () => {
		const guild = harness().discord.addGuild({ channels: [{ name: 'général' }, { name: 'mod-log' }], preferredLocale: 'fr' });
		const modlogId = guild.channels[1]!.id;
		const member: Where = { user: makeUser('membre'), guild };
		// The admin reads their own answers in English, whatever the server's language.
		const admin: Where = { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS };
		await runSubcommand(harness(), admin, 'settings', 'modlog', [{ type: 7, name: 'channel', value: modlogId }]);
		expect((await runSubcommand(harness(), admin, 'settings', 'language')).original?.content).toMatch(
			/^Server language: \*\*French · Français\*\*, the server's own/,
		);

		const flag = await makeFlag(harness(), member, { prompt: 'p1', text: 'La réponse' });
		await harness().discord.waitUntil(() => harness().discord.channelMessages(modlogId).length === 1, 'the first mod-log post');
		const [first] = harness().discord.channelMessages(modlogId);
		expectCard(first);
		expect(cardText(first)).toMatch(/^## Cas n°1 · En attente\n\*\*Membre\*\* <@\d+> · \*\*Où\*\* <#\d+> · \*\*Quand\*\* /);

		// A release is posted in the channel in the server's language; the moderator reads the outcome in theirs.
		const moderator: Where = { user: makeUser('mod'), guild, permissions: MODERATOR_PERMISSIONS };
		const released = await click(harness(), moderator, `flagged:release:${flag.id}`);
		expect(textOf(released)).toMatch(/^🔓 Released/);
		const [posted] = harness().discord.channelMessages(guild.channels[0]!.id);
		expect(posted?.content).toMatch(/^🔓 \*\*Débloquée par un modérateur après examen\*\*/);
		expect(posted?.content).toContain('La réponse');

		const changed = await runSubcommand(harness(), admin, 'settings', 'language', [{ type: 3, name: 'locale', value: 'de' }]);
		expect(textOf(changed)).toMatch(/^✅ Server language: \*\*German · Deutsch\*\*/);
		await makeFlag(harness(), member, { prompt: 'p2', text: 't2' });
		await harness().discord.waitUntil(() => harness().discord.channelMessages(modlogId).length === 2, 'the second mod-log post');
		const second = harness().discord.channelMessages(modlogId)[1];
		expect(cardText(second)).toMatch(/^## Fall #2 · Offen\n/);
		expect(JSON.stringify(second?.components)).toContain('"label":"Antwort ansehen"');

		// A German admin reads the setting in German, the languages named in German.
		const german = await runSubcommand(harness(), { ...admin, locale: 'de' }, 'settings', 'language');
		expect(textOf(german)).toMatch(/^Serversprache: \*\*Deutsch\*\*/);
		expect(textOf(german)).toContain('**Französisch · Français**');
		// The command is named as the German command picker shows it.
		expect(textOf(german)).toContain('gewählt mit /einstellungen sprache (');

		// Back to the server's own: French again, and a value Discord would not offer is refused.
		await runSubcommand(harness(), admin, 'settings', 'language', [{ type: 3, name: 'locale', value: 'server' }]);
		expect((await harness().bot.context.settings.get(guild.id)).locale).toBeUndefined();
		const own = await runSubcommand(harness(), { ...admin, locale: 'de' }, 'settings', 'language');
		expect(textOf(own)).toContain('`/einstellungen sprache wahl:` wählt eine andere.');
		const refused = await runSubcommand(harness(), admin, 'settings', 'language', [{ type: 3, name: 'locale', value: 'xx' }]);
		expect(textOf(refused)).toBe('Veil does not speak `xx`. Choose a language from the list. Nothing was changed.');
	});
});

describe("a failed mod-log post, reported in the admin's language", () => {
	it('tells a Japanese admin why the last report failed in Japanese, in an English server', async () => {
		const { guild, member } = freshServer(harness());
		const modlogId = guild.channels[1]!.id;
		const admin: Where = { user: makeUser('admin-ja'), guild, permissions: ADMIN_PERMISSIONS, locale: 'ja' };
		await runSubcommand(harness(), admin, 'settings', 'modlog', [{ type: 7, name: 'channel', value: modlogId }]);
		harness().discord.failChannel(modlogId, 'missing-access');
		const flag = await makeFlag(harness(), member, { prompt: 'p', text: 't' });
		await harness().discord.waitUntil(
			() => harness().logs.some((line) => line.includes('mod-log post failed') && line.includes(flag.id)),
			'the failure in the log',
		);
		harness().discord.clearChannelFailure(modlogId);
		const report = await runSubcommand(harness(), admin, 'settings', 'modlog', [{ type: 7, name: 'channel', value: modlogId }]);
		expect(textOf(report)).toContain('前回のモデレーションログへの報告は');
		expect(textOf(report)).toContain('Veilがチャンネルにアクセスできなくなりました');
	});
});

describe("what reaches the member alone, in the member's language", () => {
	it('tells a German member of a dismissal in German, and the English moderator in English', async () => {
		const { guild, moderator } = freshServer(harness());
		const member: Where = { user: makeUser('mitglied'), guild, locale: 'de' };
		const admin: Where = { user: makeUser('admin'), guild, permissions: ADMIN_PERMISSIONS };
		await runSubcommand(harness(), admin, 'settings', 'notify', [{ type: 5, name: 'dismissals', value: true }]);
		const flag = await makeFlag(harness(), member, { prompt: 'p', text: 't' });

		const dismissed = await click(harness(), moderator, `flagged:dismiss:${flag.id}`, 'Nicht hier');
		expect(textOf(dismissed)).toMatch(/^🗑️ Dismissed/);
		const [notice] = harness().discord.directMessages(member.user.id);
		expect(notice?.content).toMatch(/^🛡️ Ein Moderator hat die Antwort geprüft, die Veil dir vorenthalten hat \(Fall #1\)/);
		expect(notice?.content).toContain('Nicht hier');
	});

	it('sends a private release to a German member with a German header', async () => {
		const { guild, moderator } = freshServer(harness());
		const member: Where = { user: makeUser('privat'), guild, locale: 'de' };
		const flag = await makeFlag(harness(), member, { prompt: 'p', text: 'Die Antwort', private: true });
		await click(harness(), moderator, `flagged:release:${flag.id}`);
		const [released] = harness().discord.directMessages(member.user.id);
		expect(released?.content).toMatch(/^🔓 \*\*[^*]*freigegeben\*\*: Die Antwort auf deine private Frage/);
		// The model's words are never translated.
		expect(released?.content).toContain('Die Antwort');
	});
});
