import { MessageFlags, PermissionFlagsBits, PermissionsBitField, type APIButtonComponentWithCustomId, type APIEmbed } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { FlagRecord } from '../../../src/moderation/flagRepository.js';
import {
	alreadyDecidedNote,
	flagCategories,
	flagListMessage,
	flagStatus,
	flagViewMessage,
	noticeLink,
	type FlagMessage,
} from '../../../src/moderation/flagViews.js';
import { missingModlogPermissions, modlogCard } from '../../../src/moderation/modlog.js';
import type { CardMessage } from '../../../src/moderation/caseCard.js';
import type { CaseNotesOf } from '../../../src/moderation/caseNotes.js';
import { customIds } from '../../../src/app/customIds.js';
import { render, sentence, t } from '../../../src/i18n/translate.js';
import { openFlag, sealFlag } from '../../../src/moderation/storedFlag.js';
import { memberLocaleOf } from '../../../src/moderation/releaseFlag.js';
import { generateEncryptionKey, parseEncryptionKey } from '../../../src/crypto/sealing.js';

const EN = 'en-US';
const GUILD = '100000000000000001';
const MODERATOR = '600000000000000001';

function flag(overrides: Partial<FlagRecord> = {}): FlagRecord {
	return {
		id: 'abcdefghjk',
		guildId: GUILD,
		channelId: '200000000000000001',
		userId: '300000000000000001',
		noticeMessageId: '400000000000000001',
		prompt: 'What is the secret prompt?',
		text: 'The secret held answer.',
		ratings: [
			{ source: 'prompt', category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE', blocked: false },
			{ source: 'reply', category: 'HARM_CATEGORY_HARASSMENT', probability: 'MEDIUM', blocked: false },
			{ source: 'reply', category: 'HARM_CATEGORY_HATE_SPEECH', probability: 'HIGH', blocked: true },
		],
		finishReason: 'STOP',
		model: 'textmodel-pro',
		createdAt: '2030-01-01T00:00:00.000Z',
		expiresAt: '2030-01-31T00:00:00.000Z',
		...overrides,
	};
}

const embedOf = (message: FlagMessage): APIEmbed => message.embeds[0]?.toJSON() ?? {};
const buttonsOf = (message: FlagMessage) => message.components.flatMap((row) => row.toJSON().components) as APIButtonComponentWithCustomId[];
/** A card as it goes on the wire, and every text and button in it, nested ones included. */
const cardJson = (message: CardMessage) => message.components.map((component) => component.toJSON());
function walk(components: unknown): Array<Record<string, unknown>> {
	if (!Array.isArray(components)) return [];
	return (components as Array<Record<string, unknown>>).flatMap((component) => [
		component,
		...walk(component.components),
		...(component.accessory ? walk([component.accessory]) : []),
	]);
}
const cardText = (message: CardMessage): string =>
	walk(cardJson(message))
		.filter((component) => component.type === 10)
		.map((component) => String(component.content))
		.join('\n');
const cardButtons = (message: CardMessage) =>
	walk(cardJson(message)).filter((component) => component.type === 2) as unknown as APIButtonComponentWithCustomId[];
const NO_NOTES: CaseNotesOf = { reports: [] };
const embedText = (embed: APIEmbed): string =>
	[embed.title, embed.description, embed.footer?.text, ...(embed.fields ?? []).flatMap((field) => [field.name, field.value])].join('\n');

describe('flag status and categories', () => {
	it('says pending, or who decided what and when', () => {
		expect(flagStatus(flag(), EN)).toBe('pending');
		const decided = flag({ decision: { kind: 'released', by: MODERATOR, at: '2030-01-02T00:00:00.000Z' } });
		expect(flagStatus(decided, EN)).toBe(`released by <@${MODERATOR}> <t:1893542400:R>`);
		expect(alreadyDecidedNote(decided, EN)).toContain(`already released by <@${MODERATOR}>`);
	});

	it('names the flagged categories with their probabilities, and other reasons when no rating flagged it', () => {
		expect(flagCategories(flag(), EN)).toBe('Harassment MEDIUM, Hate speech HIGH (blocked)');
		expect(flagCategories(flag({ ratings: [], finishReason: 'SAFETY' }), EN)).toBe('Finish reason: SAFETY');
		expect(flagCategories(flag({ ratings: [], blockReason: 'OTHER' }), EN)).toBe('Prompt blocked: OTHER');
	});
});

describe('flagListMessage', () => {
	const page = (flags: FlagRecord[], pageNumber = 1, pageCount = 1, reviewAsked: ReadonlySet<string> = new Set()) => ({
		flags,
		page: pageNumber,
		pageCount,
		total: flags.length,
		reviewAsked,
	});

	it('shows one line per flag with id, member mention, time, categories and status, and no model text', () => {
		const message = flagListMessage(
			page([flag(), flag({ id: 'mnpqrstuvw', decision: { kind: 'dismissed', by: MODERATOR, at: '2030-01-02T00:00:00.000Z' } })]),
			MODERATOR,
			30,
			customIds.flagged,
			EN,
		);
		const description = embedOf(message).description ?? '';
		const lines = description.split('\n');
		expect(lines).toHaveLength(2);
		expect(lines[0]).toContain('`abcdefghjk`');
		expect(lines[0]).toContain('<@300000000000000001>');
		expect(lines[0]).toContain('<t:1893456000:f>');
		expect(lines[0]).toContain('Harassment MEDIUM');
		expect(lines[0]).toContain('**pending**');
		expect(lines[1]).toContain(`**dismissed by <@${MODERATOR}>`);
		expect(embedText(embedOf(message))).not.toMatch(/secret/);
		expect(message.components).toEqual([]);
	});

	it('marks a flag whose review was asked, and a reported answer', () => {
		const reported = flag({ id: 'reportedxx', prompt: null, ratings: [], report: { messageIds: ['1'] } });
		const lines = (
			embedOf(flagListMessage(page([flag(), reported], 1, 1, new Set(['abcdefghjk'])), MODERATOR, 30, customIds.flagged, EN)).description ?? ''
		).split('\n');
		expect(lines[0]).toContain('**review asked**');
		expect(lines[1]).toContain('reported by a member');
		expect(lines[1]).not.toContain('review asked');
	});

	it('has Previous and Next buttons for the moderator who ran it, disabled at the ends', () => {
		const first = buttonsOf(flagListMessage(page([flag()], 1, 3), MODERATOR, 30, customIds.flagged, EN));
		expect(first.map((button) => [button.label, button.custom_id, button.disabled])).toEqual([
			['Previous', `flagged:page:0:${MODERATOR}`, true],
			['Next', `flagged:page:2:${MODERATOR}`, false],
		]);
		const last = buttonsOf(flagListMessage(page([flag()], 3, 3), MODERATOR, 30, customIds.flagged, EN));
		expect(last.map((button) => button.disabled)).toEqual([false, true]);
		expect(last[0]?.custom_id).toBe(`flagged:page:2:${MODERATOR}`);
	});

	it('says when there is nothing to list, and how long flags are kept', () => {
		const message = flagListMessage(
			{ flags: [], page: 1, pageCount: 1, total: 0, reviewAsked: new Set<string>() },
			MODERATOR,
			0.5,
			customIds.flagged,
			EN,
		);
		expect(message.content).toContain('No flagged replies');
		expect(message.content).toContain('kept 12 hours');
		expect(
			flagListMessage({ flags: [], page: 1, pageCount: 1, total: 0, reviewAsked: new Set<string>() }, MODERATOR, 30, customIds.flagged, EN).content,
		).toContain('kept 30 days');
		expect(
			flagListMessage({ flags: [], page: 1, pageCount: 1, total: 0, reviewAsked: new Set<string>() }, MODERATOR, 0.00003, customIds.flagged, EN)
				.content,
		).toContain('kept 2.6 seconds');
		expect(message.embeds).toEqual([]);
	});

	it('stays within the embed description limit with ten long lines', () => {
		const long = flag({
			ratings: Array.from({ length: 30 }, (_, n) => ({
				source: 'reply' as const,
				category: `X_${n}_${'y'.repeat(60)}`,
				probability: 'HIGH',
				blocked: false,
			})),
		});
		const message = flagListMessage(page(Array.from({ length: 10 }, () => long)), MODERATOR, 30, customIds.flagged, EN);
		expect((embedOf(message).description ?? '').length).toBeLessThanOrEqual(4096);
	});
});

describe('flagViewMessage: the case card', () => {
	it('is a Components V2 message: one container coloured by status, no content, no embeds', () => {
		const message = flagViewMessage(flag(), NO_NOTES, customIds.flagged, EN);
		expect(message.flags).toBe(MessageFlags.IsComponentsV2);
		expect(message).not.toHaveProperty('content');
		expect(message).not.toHaveProperty('embeds');
		const [container] = cardJson(message);
		expect(container).toMatchObject({ type: 17, accent_color: 0xe67e22 });
		const decided = flagViewMessage(
			flag({ decision: { kind: 'released', by: MODERATOR, at: '2030-01-02T00:00:00.000Z' } }),
			NO_NOTES,
			customIds.flagged,
			EN,
		);
		expect(cardJson(decided)[0]).toMatchObject({ accent_color: 0x2ecc71 });
	});

	it('heads with the case and its status; shows who, where, when, every category with its probability, the words and the three decisions', () => {
		const message = flagViewMessage(flag({ caseNumber: 12 }), NO_NOTES, customIds.flagged, EN);
		const text = cardText(message);
		expect(text).toContain('## Case #12 · Pending');
		expect(text).toContain('**Member** <@300000000000000001> · **Where** <#200000000000000001> · **When** <t:1893456000:f>');
		expect(text).toContain('Harassment · NEGLIGIBLE (prompt)');
		expect(text).toContain('**Harassment · MEDIUM**');
		expect(text).toContain('**Hate speech · HIGH · blocked**');
		expect(text).toContain('What is the secret prompt?');
		expect(text).toContain('The secret held answer.');
		expect(text).toContain(`https://discord.com/channels/${GUILD}/200000000000000001/400000000000000001`);
		expect(cardButtons(message).map((button) => [button.label, button.custom_id])).toEqual([
			['Release', 'flagged:release:abcdefghjk'],
			['Dismiss', 'flagged:dismiss:abcdefghjk'],
			['Mark reviewed', 'flagged:review:abcdefghjk'],
		]);
		expect(message.files).toEqual([]);
	});

	it('shows the review request with its note, and the history with the decision and its reason', () => {
		const asked = { reviewRequest: { at: '2030-01-01T01:00:00.000Z', note: 'It was **a quote**' }, reports: [] };
		const pending = cardText(flagViewMessage(flag({ caseNumber: 3 }), asked, customIds.flagged, EN));
		expect(pending).toContain('## Case #3 · Pending · review asked');
		expect(pending).toContain('**Review asked** by the member <t:1893459600:R>');
		expect(pending).toContain('> It was \\*\\*a quote\\*\\*');
		const at = '2030-01-02T00:00:00.000Z';
		const decided = cardText(
			flagViewMessage(flag({ caseNumber: 3, decision: { kind: 'reviewed', by: MODERATOR, at, reason: 'Checked' } }), asked, customIds.flagged, EN),
		);
		expect(decided).toContain('## Case #3 · Reviewed');
		expect(decided).toContain(`- reviewed by <@${MODERATOR}> <t:1893542400:R>\n> Checked`);
	});

	it('shows a reported answer with its reports (who, when, note), and Remove and Keep', () => {
		const reported = flag({ prompt: null, text: 'The shown answer.', ratings: [], report: { messageIds: ['900000000000000001'] }, caseNumber: 4 });
		const notes = {
			reports: [
				{ by: '800000000000000001', at: '2030-01-01T00:10:00.000Z', note: 'rude' },
				{ by: '800000000000000002', at: '2030-01-01T00:20:00.000Z' },
			],
		};
		const message = flagViewMessage(reported, notes, customIds.flagged, EN);
		const text = cardText(message);
		expect(text).toContain('Reported by a member');
		expect(text).toContain('**Reports** (2)');
		expect(text).toContain('- <@800000000000000001> <t:1893456600:R>\n> rude');
		expect(text).toContain('The shown answer.');
		expect(text).toContain(`https://discord.com/channels/${GUILD}/200000000000000001/900000000000000001`);
		expect(cardButtons(message).map((button) => button.custom_id)).toEqual(['flagged:remove:abcdefghjk', 'flagged:keep:abcdefghjk']);
	});

	it('says a private ask has no notice to jump to', () => {
		expect(noticeLink(flag({ noticeMessageId: undefined }))).toBeUndefined();
		expect(cardText(flagViewMessage(flag({ noticeMessageId: undefined }), NO_NOTES, customIds.flagged, EN))).toContain('Asked privately');
	});

	it('previews long words within 4000 characters of text and 40 components, attaching them in full as File components', () => {
		const text = `${'word '.repeat(3000)}THE END`;
		const prompt = 'p'.repeat(4000);
		const many = {
			reports: Array.from({ length: 50 }, (_, n) => ({ by: `8000000000000000${n + 10}`, at: '2030-01-01T00:10:00.000Z', note: 'x'.repeat(300) })),
		};
		const message = flagViewMessage(
			flag({ text, prompt, ratings: Array.from({ length: 40 }, () => flag().ratings[1]!) }),
			many,
			customIds.flagged,
			EN,
		);
		expect(cardText(message).length).toBeLessThanOrEqual(4000);
		expect(walk(cardJson(message)).length).toBeLessThanOrEqual(40);
		expect(cardText(message)).not.toContain('THE END');
		expect(cardText(message)).toContain('…and 47 more');
		expect(message.files.map((file) => file.name)).toEqual(['prompt.md', 'reply.md']);
		expect(String(message.files[1]?.attachment)).toBe(text);
		expect(String(message.files[0]?.attachment)).toBe(prompt);
		expect(walk(cardJson(message)).filter((component) => component.type === 13)).toEqual([
			expect.objectContaining({ file: { url: 'attachment://prompt.md' } }),
			expect.objectContaining({ file: { url: 'attachment://reply.md' } }),
		]);
	});

	it('keeps model text inside its code block', () => {
		const text = cardText(
			flagViewMessage(flag({ text: 'before ```\n@everyone <@1> [x](https://evil)\n``` after' }), NO_NOTES, customIds.flagged, EN),
		);
		expect(text.match(/```/g)).toHaveLength(4);
	});

	it('says when the prompt and the reply were sealed with a key Veil no longer has', () => {
		const unreadable = cardText(flagViewMessage(flag({ prompt: null, text: null, unopened: 'v1.a.b.c' }), NO_NOTES, customIds.flagged, EN));
		expect(unreadable).toContain('cannot be read');
		expect(unreadable).not.toContain('erased');
		expect(unreadable).not.toContain('v1.a.b.c');
	});

	it('shows a decided flag with its decision and without buttons, the note first; a dismissed one without its text', () => {
		const at = '2030-01-02T00:00:00.000Z';
		const reviewed = flagViewMessage(flag({ decision: { kind: 'reviewed', by: MODERATOR, at } }), NO_NOTES, customIds.flagged, EN, 'note');
		expect(cardButtons(reviewed)).toEqual([]);
		expect(cardJson(reviewed)[0]).toEqual({ type: 10, content: 'note' });
		expect(cardText(reviewed)).toContain(`reviewed by <@${MODERATOR}>`);
		const dismissed = flagViewMessage(
			flag({ prompt: null, text: null, decision: { kind: 'dismissed', by: MODERATOR, at } }),
			NO_NOTES,
			customIds.flagged,
			EN,
		);
		expect(cardText(dismissed)).not.toMatch(/secret/);
		expect(cardText(dismissed)).toContain('erased');
		expect(cardButtons(dismissed)).toEqual([]);
		expect(dismissed.files).toEqual([]);
	});
});

describe('release header', () => {
	it('marks the answer as released by a moderator, naming the member only without a notice', () => {
		expect(t('en-US', 'moderators.releasedHeader')).toContain('Released by a moderator');
		expect(t('en-US', 'moderators.releasedHeader')).not.toContain('<@');
		expect(t('en-US', 'moderators.releasedHeaderFor', { userId: '300000000000000001' })).toContain('<@300000000000000001>');
	});
});

describe('mod-log post', () => {
	it('is a card with the metadata, View beside the heading and the decisions, never the prompt or the text', () => {
		const card = modlogCard(flag({ caseNumber: 7 }), NO_NOTES, customIds.flagged, EN);
		const text = cardText(card);
		expect(text).not.toMatch(/secret/);
		expect(text).toContain('## Case #7 · Pending');
		expect(text).toContain('<@300000000000000001>');
		expect(text).toContain('<#200000000000000001>');
		expect(text).toContain('abcdefghjk');
		expect(text).toContain('**Harassment · MEDIUM**');
		const section = walk(cardJson(card)).find((component) => component.type === 9);
		expect(section?.accessory).toMatchObject({ custom_id: 'flagged:view:abcdefghjk', label: 'View reply' });
		expect(cardButtons(card).map((button) => button.custom_id)).toEqual([
			'flagged:view:abcdefghjk',
			'flagged:release:abcdefghjk',
			'flagged:dismiss:abcdefghjk',
			'flagged:review:abcdefghjk',
		]);
		expect(card.files).toEqual([]);
	});

	it("shows a reported answer's text, which members saw already", () => {
		const reported = flag({ prompt: null, text: 'The shown answer.', ratings: [], report: { messageIds: ['1'] } });
		expect(
			cardText(modlogCard(reported, { reports: [{ by: '800000000000000001', at: '2030-01-01T00:10:00.000Z' }] }, customIds.flagged, EN)),
		).toContain('The shown answer.');
	});

	it('names the permissions Veil lacks in a mod-log channel', () => {
		const names = (permissions: PermissionsBitField | null, locale: 'en-US' | 'de' = EN) =>
			missingModlogPermissions(permissions).map((name) => render(locale, name));
		expect(names(null)).toEqual(['View Channel', 'Send Messages', 'Embed Links']);
		expect(names(new PermissionsBitField([PermissionFlagsBits.ViewChannel]))).toEqual(['Send Messages', 'Embed Links']);
		expect(names(new PermissionsBitField([PermissionFlagsBits.Administrator]))).toEqual([]);
		// In the reader's language, as Discord's client names them there.
		expect(names(new PermissionsBitField([PermissionFlagsBits.ViewChannel, PermissionFlagsBits.SendMessages]), 'de')).toEqual([
			t('de', 'members.permissions.EmbedLinks'),
		]);
		expect(t('de', 'members.permissions.EmbedLinks')).not.toBe('Embed Links');
		// A list of names inside a sentence is read in the sentence's language, joined as that language joins lists.
		const lacks = sentence('moderators.veilLacks', { missing: missingModlogPermissions(null) });
		expect(render(EN, lacks)).toBe('Veil lacks View Channel, Send Messages, and Embed Links there');
		expect(render('de', lacks)).toContain(t('de', 'members.permissions.SendMessages'));
	});
});

describe("a flag holding another member's words", () => {
	const quoting = flag({ prompt: '> their words\n\nmy question', quotedAuthor: { id: '700000000000000001', name: 'Some *Author*' } });

	it('says whose message its prompt quotes, in the view', () => {
		const view = cardText(flagViewMessage(quoting, NO_NOTES, customIds.flagged, EN));
		expect(view).toContain('**Quotes a message by** <@700000000000000001> (Some \\*Author\\*): the prompt holds their words, quoted');
		expect(cardText(flagViewMessage(flag(), NO_NOTES, customIds.flagged, EN))).not.toContain('Quotes a message by');
	});

	it('keeps the author sealed with the prompt, and loses both when the prompt is erased', () => {
		const keys = { current: parseEncryptionKey(generateEncryptionKey()) };
		const stored = sealFlag(quoting, keys);
		expect(JSON.stringify(stored)).not.toContain('700000000000000001');
		expect(JSON.stringify(stored)).not.toContain('Author');
		expect(openFlag(stored, quoting.guildId, quoting.id, keys)?.quotedAuthor).toEqual(quoting.quotedAuthor);
		const erased = openFlag(sealFlag({ ...quoting, prompt: null, text: null }, keys), quoting.guildId, quoting.id, keys);
		expect(erased?.quotedAuthor).toBeUndefined();
		expect(cardText(flagViewMessage({ ...quoting, prompt: null, text: null }, NO_NOTES, customIds.flagged, EN))).not.toContain('Author');
	});
});

describe('the language a flag keeps for its member', () => {
	const keys = { current: parseEncryptionKey(generateEncryptionKey()) };
	const reopened = (locale: string | undefined) => openFlag({ ...sealFlag(flag(), keys), locale }, flag().guildId, flag().id, keys) as FlagRecord;

	it("is the one they asked in, Discord's code of an older record read as the router reads it, else the server's", () => {
		expect(memberLocaleOf(reopened('de'), 'fr')).toBe('de');
		expect(memberLocaleOf(reopened('es-419'), 'fr')).toBe('es-ES');
		expect(memberLocaleOf(reopened(undefined), 'fr')).toBe('fr');
		// Anything else kept opens the flag, in English (issue 32: no look-up finds what every object inherits).
		for (const kept of ['sv-SE', '__proto__', 'constructor', '']) expect(memberLocaleOf(reopened(kept), 'fr')).toBe('en-US');
	});
});
