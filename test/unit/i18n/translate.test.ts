import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveLocale, resolveServerLocale, SUPPORTED_LOCALES } from '../../../src/i18n/locales.js';
import { t } from '../../../src/i18n/translate.js';

describe('resolveLocale', () => {
	it('keeps every supported Discord locale as it is', () => {
		for (const locale of SUPPORTED_LOCALES) expect(resolveLocale(locale)).toBe(locale);
	});

	it('serves a variety by its nearest catalogue, and anything else in en-US', () => {
		expect(resolveLocale('en-GB')).toBe('en-US');
		expect(resolveLocale('es-419')).toBe('es-ES');
		expect(resolveLocale('zh-TW')).toBe('en-US');
		expect(resolveLocale('sv-SE')).toBe('en-US');
		expect(resolveLocale('pt-PT')).toBe('en-US');
		expect(resolveLocale('es')).toBe('en-US');
		expect(resolveLocale('xx-not-a-locale')).toBe('en-US');
		expect(resolveLocale('')).toBe('en-US');
		expect(resolveLocale(undefined)).toBe('en-US');
		expect(resolveLocale(null)).toBe('en-US');
	});

	it('answers a name every object inherits in English, not with what the object inherits', () => {
		for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
			expect(resolveLocale(name)).toBe('en-US');
			expect(resolveServerLocale(null, name)).toBe('en-US');
		}
	});

	it('answers any string with a supported locale', () => {
		fc.assert(fc.property(fc.string(), (value) => SUPPORTED_LOCALES.includes(resolveLocale(value))));
	});

	it("takes a server's own setting over its guild_locale, and guild_locale over English", () => {
		expect(resolveServerLocale('fr')).toBe('fr');
		expect(resolveServerLocale('fr', 'ja')).toBe('ja');
		expect(resolveServerLocale('fr', null)).toBe('fr');
		expect(resolveServerLocale('sv-SE')).toBe('en-US');
		expect(resolveServerLocale(null)).toBe('en-US');
	});
});

describe('t', () => {
	it('says in en-US what Veil said before it had catalogues', () => {
		expect(t('en-US', 'members.admission.waitingNext')).toBe('Veil is busy: yours is next in line. Your answer will appear here.');
		expect(t('en-US', 'members.admission.waiting', { count: 3 })).toBe('Veil is busy: 3 asks are ahead of yours. Your answer will appear here.');
		for (const limit of [1, 5])
			expect(t('en-US', 'members.admission.dailyLimit', { count: limit, resetsAt: '<t:1700000000:R>' })).toBe(
				`You've reached this server's limit of ${limit} question${limit === 1 ? '' : 's'} a day. It resets <t:1700000000:R>.`,
			);
		expect(t('en-US', 'members.ask.linkFirst')).toMatch(
			/^\*\*Link your account first\.\*\* Veil asks the model with your own account of its service\. /,
		);
		expect(t('en-US', 'members.ask.linkButton')).toBe('Link account');
	});

	it('counts in English: one, other', () => {
		expect(t('en-US', 'members.admission.waiting', { count: 1 })).toContain('1 ask is ahead');
		expect(t('en-US', 'members.admission.waiting', { count: 2 })).toContain('2 asks are ahead');
	});

	it('counts in Polish: one, few (2–4, 22–24) and many (5–21, 25)', () => {
		expect(t('pl', 'members.admission.waiting', { count: 1 })).toContain('czeka 1 pytanie.');
		for (const few of [2, 3, 4, 22, 24]) expect(t('pl', 'members.admission.waiting', { count: few })).toContain(`czekają ${few} pytania.`);
		for (const many of [5, 11, 12, 21, 25]) expect(t('pl', 'members.admission.waiting', { count: many })).toContain(`czeka ${many} pytań.`);
	});

	it('counts in Japanese with one form for every number', () => {
		for (const count of [1, 2, 5])
			expect(t('ja', 'members.admission.waiting', { count })).toBe(
				`Veilは混み合っています。あなたの前に${count}件の質問があります。回答はここに表示されます。`,
			);
	});

	it('puts Discord markup and code in untouched', () => {
		expect(t('de', 'members.admission.dailyLimit', { count: 3, resetsAt: '<t:1700000000:R>' })).toBe(
			'Du hast das Limit dieses Servers von 3 Fragen pro Tag erreicht. Es wird <t:1700000000:R> zurückgesetzt.',
		);
		expect(t('fr', 'members.admission.dailyLimit', { count: 1, resetsAt: '<t:1:R> & "x"' })).toContain('<t:1:R> & "x"');
	});

	it('answers in German and keeps the markdown of the link-first answer', () => {
		expect(t('de', 'members.ask.linkFirst')).toMatch(/^\*\*Verknüpfe zuerst dein Konto\.\*\* /);
		expect(t('de', 'members.ask.linkButton')).toBe('Konto verknüpfen');
	});

	it('refuses a misspelled key at the type check', () => {
		// @ts-expect-error: not a key of en-US's catalogue
		expect(t('en-US', 'members.admission.waitng')).toBe('members.admission.waitng');
		// @ts-expect-error: a plural form is asked for by its base key
		t('en-US', 'members.admission.waiting_one');
	});
});
