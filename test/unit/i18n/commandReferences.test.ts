import { describe, expect, it } from 'vitest';
import { commandData } from '../../../commands/definitions/index.js';
import { catalogueOf, sentenceSections } from '../../../src/i18n/catalogues.js';
import { COMMAND_REFERENCE, commandReference, UnknownCommandReference, withCommandReferences } from '../../../src/i18n/commandReferences.js';
import { commandRegistrations } from '../../../src/i18n/commandLocalizations.js';
import { SOURCE_LOCALE, SUPPORTED_LOCALES, type SupportedLocale } from '../../../src/i18n/locales.js';
import { t, type MessageKey } from '../../../src/i18n/translate.js';

interface Registered {
	name: string;
	type?: number;
	name_localizations?: Record<string, string> | null;
	options?: Registered[];
}

const PLURAL = /_(zero|one|two|few|many|other)$/;
/** What Discord is sent: the registry's JSON, localized from the catalogues, exactly as deploy-commands sends it. */
const registered = commandRegistrations(commandData) as unknown as Registered[];
const nameIn = (node: Registered, locale: SupportedLocale) => node.name_localizations?.[locale] ?? node.name;

/** A reference as a member of `locale` sees the command in Discord's picker, read from the registered JSON alone. */
function asRegistered(locale: SupportedLocale, path: string, optionOnly: boolean): string {
	const [command, ...words] = path.split(' ');
	let node = registered.find((each) => each.name === command && each.type !== 3);
	const names = [node ? nameIn(node, locale) : `?${command}`];
	for (const word of words) {
		const [name = '', ...value] = word.split(':');
		node = node?.options?.find((option) => option.name === name);
		names.push(`${node ? nameIn(node, locale) : `?${name}`}${value.length > 0 ? `:${value.join(':')}` : ''}`);
	}
	return optionOnly ? (names.at(-1) ?? '') : `/${names.join(' ')}`;
}

/** Every sentence of a catalogue as written, by its dotted key (plural forms kept). */
function rawSentences(locale: SupportedLocale): Map<string, string> {
	const found = new Map<string, string>();
	const walk = (tree: unknown, prefix: string) => {
		for (const [key, value] of Object.entries(tree as Record<string, unknown>)) {
			if (typeof value === 'string') found.set(`${prefix}${key}`, value);
			else walk(value, `${prefix}${key}.`);
		}
	};
	walk(sentenceSections(catalogueOf(locale)), '');
	return found;
}

const referencesIn = (text: string) => [...text.matchAll(COMMAND_REFERENCE)].map((match) => match[0]).sort();
const english = rawSentences(SOURCE_LOCALE);
const sourceOf = (key: string) => english.get(key) ?? english.get(key.replace(PLURAL, '_other')) ?? '';

describe('command references in sentences', () => {
	it.each(SUPPORTED_LOCALES)('%s shows every command as registered for its readers', (locale) => {
		let checked = 0;
		for (const [key, text] of rawSentences(locale)) {
			const shown = t(locale, key.replace(PLURAL, '') as MessageKey, { count: PLURAL.test(key) ? 2 : 0 });
			for (const match of text.matchAll(COMMAND_REFERENCE)) {
				const [, path, option, app] = match;
				const expected =
					path === undefined
						? nameIn(registered.find((command) => command.name === app && command.type === 3) ?? { name: `?${app}` }, locale)
						: asRegistered(locale, path, option !== undefined);
				expect(expected, `${locale} ${key}: ${match[0]} names nothing registered`).not.toContain('?');
				if (!PLURAL.test(key) || key.endsWith('_other')) expect(shown, `${locale} ${key}`).toContain(expected);
				checked += 1;
			}
		}
		expect(checked).toBeGreaterThan(20);
	});

	it.each(SUPPORTED_LOCALES.filter((locale) => locale !== SOURCE_LOCALE))(
		'%s refers to the same commands as en-US, sentence by sentence',
		(locale) => {
			for (const [key, text] of rawSentences(locale)) expect(referencesIn(text), `${locale} ${key}`).toEqual(referencesIn(sourceOf(key)));
		},
	);

	it.each(SUPPORTED_LOCALES)('%s writes no slash command by hand, in English or in its own words', (locale) => {
		const names = registered.filter((command) => command.type !== 3).flatMap((command) => [command.name, nameIn(command, locale)]);
		const handWritten = new RegExp(`(?<![<#@\\p{L}\\p{N}])/(${names.join('|')})(?![\\p{L}\\p{N}_-])`, 'u');
		for (const [key, text] of rawSentences(locale)) expect(text.replace(COMMAND_REFERENCE, ''), `${locale} ${key}`).not.toMatch(handWritten);
	});

	it('writes a reference out in the reader’s locale: the whole command, an option alone, a message command', () => {
		expect(commandReference('de', 'settings modlog channel:')).toBe(
			`/${catalogueOf('de').commands.settings?.name} ${catalogueOf('de').commands.settings?.options?.modlog?.name} ${catalogueOf('de').commands.settings?.options?.modlog?.options?.channel?.name}:`,
		);
		expect(commandReference('en-US', 'settings notify dismissals:false')).toBe('/settings notify dismissals:false');
		expect(withCommandReferences('en-US', '`{{/settings limits asks_per_day:0, option}}` and {{app:Ask Veil}}')).toBe(
			'`asks_per_day:0` and Ask Veil',
		);
		expect(withCommandReferences('de', '{{/ask}}')).toBe('/fragen');
		expect(() => commandReference('de', 'settings nothing')).toThrow(UnknownCommandReference);
		expect(() => commandReference('de', '__proto__')).toThrow(UnknownCommandReference);
	});
});
