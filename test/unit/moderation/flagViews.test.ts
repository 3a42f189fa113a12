import { PermissionFlagsBits, PermissionsBitField, type APIButtonComponentWithCustomId, type APIEmbed } from 'discord.js';
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
import { flagEmbed, missingModlogPermissions, viewReplyButton } from '../../../src/moderation/modlog.js';
import { customIds } from '../../../src/app/customIds.js';
import { render, sentence, t } from '../../../src/i18n/translate.js';
import { openFlag, sealFlag } from '../../../src/moderation/storedFlag.js';
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
	const page = (flags: FlagRecord[], pageNumber = 1, pageCount = 1) => ({ flags, page: pageNumber, pageCount, total: flags.length });

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
		const message = flagListMessage({ flags: [], page: 1, pageCount: 1, total: 0 }, MODERATOR, 0.5, customIds.flagged, EN);
		expect(message.content).toContain('No flagged replies');
		expect(message.content).toContain('kept 12 hours');
		expect(flagListMessage({ flags: [], page: 1, pageCount: 1, total: 0 }, MODERATOR, 30, customIds.flagged, EN).content).toContain('kept 30 days');
		expect(flagListMessage({ flags: [], page: 1, pageCount: 1, total: 0 }, MODERATOR, 0.00003, customIds.flagged, EN).content).toContain(
			'kept 2.6 seconds',
		);
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

describe('flagViewMessage', () => {
	it('shows the whole record, a jump link to the notice, the prompt and the text, and the three decision buttons', () => {
		const message = flagViewMessage(flag(), customIds.flagged, EN);
		const embed = embedOf(message);
		const text = embedText(embed);
		expect(text).toContain('What is the secret prompt?');
		expect(text).toContain('The secret held answer.');
		expect(text).toContain(`https://discord.com/channels/${GUILD}/200000000000000001/400000000000000001`);
		expect(text).toContain('pending');
		expect(text).toContain('Harassment: MEDIUM (reply)');
		expect(buttonsOf(message).map((button) => [button.label, button.custom_id])).toEqual([
			['Release', 'flagged:release:abcdefghjk'],
			['Dismiss', 'flagged:dismiss:abcdefghjk'],
			['Mark reviewed', 'flagged:review:abcdefghjk'],
		]);
		expect(message.files).toEqual([]);
	});

	it('says a private ask has no notice to jump to', () => {
		expect(noticeLink(flag({ noticeMessageId: undefined }))).toBeUndefined();
		expect(embedText(embedOf(flagViewMessage(flag({ noticeMessageId: undefined }), customIds.flagged, EN)))).toContain('Asked privately');
	});

	it('previews long text in the embed and attaches it in full, within the embed limits', () => {
		const text = `${'word '.repeat(3000)}THE END`;
		const prompt = 'p'.repeat(4000);
		const message = flagViewMessage(flag({ text, prompt, ratings: Array.from({ length: 40 }, () => flag().ratings[1]!) }), customIds.flagged, EN);
		const embed = embedOf(message);
		expect(embed.description?.length).toBeLessThanOrEqual(4096);
		expect(embedText(embed).length).toBeLessThanOrEqual(6000);
		expect(embed.description).not.toContain('THE END');
		expect(message.files.map((file) => file.name)).toEqual(['prompt.md', 'reply.md']);
		expect(String(message.files[1]?.attachment)).toBe(text);
		expect(String(message.files[0]?.attachment)).toBe(prompt);
	});

	it('keeps model text inside its code block', () => {
		const description =
			embedOf(flagViewMessage(flag({ text: 'before ```\n@everyone <@1> [x](https://evil)\n``` after' }), customIds.flagged, EN)).description ?? '';
		expect(description.match(/```/g)).toHaveLength(4);
	});

	it('says when the prompt and the reply were sealed with a key Veil no longer has', () => {
		const unreadable = flagViewMessage(flag({ prompt: null, text: null, unopened: 'v1.a.b.c' }), customIds.flagged, EN);
		expect(embedText(embedOf(unreadable))).toContain('cannot be read');
		expect(embedText(embedOf(unreadable))).not.toContain('erased');
		expect(embedText(embedOf(unreadable))).not.toContain('v1.a.b.c');
	});

	it('shows a decided flag with its decision and without buttons; a dismissed one without its text', () => {
		const at = '2030-01-02T00:00:00.000Z';
		const reviewed = flagViewMessage(flag({ decision: { kind: 'reviewed', by: MODERATOR, at } }), customIds.flagged, EN, 'note');
		expect(reviewed.components).toEqual([]);
		expect(reviewed.content).toBe('note');
		expect(embedText(embedOf(reviewed))).toContain(`reviewed by <@${MODERATOR}>`);
		const dismissed = flagViewMessage(flag({ prompt: null, text: null, decision: { kind: 'dismissed', by: MODERATOR, at } }), customIds.flagged, EN);
		expect(embedText(embedOf(dismissed))).not.toMatch(/secret/);
		expect(embedText(embedOf(dismissed))).toContain('erased');
		expect(dismissed.components).toEqual([]);
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
	it('holds the metadata and the View reply button, never the prompt or the text', () => {
		const embed = flagEmbed(flag(), EN).toJSON();
		const text = embedText(embed);
		expect(text).not.toMatch(/secret/);
		expect(text).toContain('<@300000000000000001>');
		expect(text).toContain('<#200000000000000001>');
		expect(text).toContain('abcdefghjk');
		expect(text).toContain('Harassment: MEDIUM');
		const [button] = viewReplyButton(customIds.flagged.view, 'abcdefghjk', EN).toJSON().components as APIButtonComponentWithCustomId[];
		expect(button).toMatchObject({ custom_id: 'flagged:view:abcdefghjk', label: 'View reply' });
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
		const view = flagViewMessage(quoting, customIds.flagged, EN);
		const field = embedOf(view).fields?.find((entry) => entry.name === 'Quotes a message by');
		expect(field?.value).toBe('<@700000000000000001> (Some \\*Author\\*): the prompt holds their words, quoted');
		expect(embedText(embedOf(flagViewMessage(flag(), customIds.flagged, EN)))).not.toContain('Quotes a message by');
	});

	it('keeps the author sealed with the prompt, and loses both when the prompt is erased', () => {
		const keys = { current: parseEncryptionKey(generateEncryptionKey()) };
		const stored = sealFlag(quoting, keys);
		expect(JSON.stringify(stored)).not.toContain('700000000000000001');
		expect(JSON.stringify(stored)).not.toContain('Author');
		expect(openFlag(stored, quoting.guildId, quoting.id, keys)?.quotedAuthor).toEqual(quoting.quotedAuthor);
		const erased = openFlag(sealFlag({ ...quoting, prompt: null, text: null }, keys), quoting.guildId, quoting.id, keys);
		expect(erased?.quotedAuthor).toBeUndefined();
		expect(embedText(embedOf(flagViewMessage({ ...quoting, prompt: null, text: null }, customIds.flagged, EN)))).not.toContain('Author');
	});
});
