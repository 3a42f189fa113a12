import { describe, expect, it } from 'vitest';
import { catalogueOf, sentenceSections, type CommandEntry } from '../../../src/i18n/catalogues.js';
import { SOURCE_LOCALE, SUPPORTED_LOCALES, type SupportedLocale } from '../../../src/i18n/locales.js';

const source = catalogueOf(SOURCE_LOCALE);
const translated = SUPPORTED_LOCALES.filter((locale) => locale !== SOURCE_LOCALE);
const PLURAL = /_(zero|one|two|few|many|other)$/;
// Discord's rule for slash command and option names (DISCORD-FACTS, Locales).
const COMMAND_NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

/** Values that are rightly the same as the English everywhere: an id is an "id" in every language Veil speaks. */
const SAME_AS_ENGLISH = new Set(['id']);

/** Every string leaf of a catalogue tree, by its dotted path. */
function leaves(tree: unknown, prefix = ''): Map<string, string> {
	const found = new Map<string, string>();
	for (const [key, value] of Object.entries(tree as Record<string, unknown>)) {
		if (typeof value === 'string') found.set(`${prefix}${key}`, value);
		else for (const [path, leaf] of leaves(value, `${prefix}${key}.`)) found.set(path, leaf);
	}
	return found;
}

/** Every sentence of a locale, members', moderators' and each feature's section alike, as `t` finds them. */
const sentenceTree = (locale: SupportedLocale) => sentenceSections(catalogueOf(locale));

/** A sentence's keys grouped by base key (plural forms folded): `members.admission.waiting` → { one, other }. */
function sentences(locale: SupportedLocale): Map<string, Map<string, string>> {
	const grouped = new Map<string, Map<string, string>>();
	for (const [path, value] of leaves(sentenceTree(locale))) {
		const form = PLURAL.exec(path)?.[1] ?? '';
		const base = path.replace(PLURAL, '');
		grouped.set(base, (grouped.get(base) ?? new Map()).set(form, value));
	}
	return grouped;
}

// A command reference (`{{/ask}}`, `{{app:Ask Veil}}`) is not a placeholder: commandReferences.test.ts checks those.
const placeholders = (value: string) =>
	[...value.matchAll(/\{\{\s*([^}\s,]+)[^}]*\}\}/g)]
		.map((match) => match[1] ?? '')
		.filter((name) => !name.startsWith('/') && !name.startsWith('app:'))
		.sort();

function commandEntries(locale: SupportedLocale): Array<{ path: string; entry: CommandEntry; siblings: string }> {
	const found: Array<{ path: string; entry: CommandEntry; siblings: string }> = [];
	const walk = (entries: Readonly<Record<string, CommandEntry>>, prefix: string) => {
		for (const [key, entry] of Object.entries(entries)) {
			found.push({ path: `${prefix}${key}`, entry, siblings: prefix });
			if (entry.options) walk(entry.options, `${prefix}${key}.options.`);
		}
	};
	walk(catalogueOf(locale).commands, '');
	return found;
}

describe('the catalogues', () => {
	it.each(translated)('%s has every key of en-US and no other, commands and sentences alike', (locale) => {
		expect([...leaves(catalogueOf(locale).commands).keys()].sort()).toEqual([...leaves(source.commands).keys()].sort());
		expect([...sentences(locale).keys()].sort()).toEqual([...sentences(SOURCE_LOCALE).keys()].sort());
	});

	it.each(translated)('%s orders its sections as en-US does', (locale) => {
		expect(Object.keys(catalogueOf(locale))).toEqual(Object.keys(source));
	});

	it.each(SUPPORTED_LOCALES)('%s has exactly the plural forms its language needs, for every counted sentence', (locale) => {
		const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories.slice().sort();
		for (const [key, forms] of sentences(SOURCE_LOCALE)) {
			if (!forms.has('other')) continue;
			expect([...(sentences(locale).get(key)?.keys() ?? [])].sort(), `${locale} ${key}`).toEqual(categories);
		}
	});

	it.each(translated)('%s keeps every placeholder of the source, by name and count', (locale) => {
		for (const [key, forms] of sentences(SOURCE_LOCALE)) {
			const expected = placeholders(forms.get('other') ?? forms.get('') ?? '');
			for (const [form, value] of sentences(locale).get(key) ?? []) {
				expect(placeholders(value), `${locale} ${key}${form && `_${form}`}`).toEqual(expected);
			}
		}
	});

	it.each(translated)('%s leaves no value empty, nor in English unless its _meta.sameAsEnglish says why', (locale) => {
		const english = new Map([...leaves(source.commands, 'commands.'), ...leaves(sentenceTree(SOURCE_LOCALE))]);
		const allowed = catalogueOf(locale)._meta.sameAsEnglish ?? {};
		const same: string[] = [];
		for (const [path, value] of [...leaves(catalogueOf(locale).commands, 'commands.'), ...leaves(sentenceTree(locale))]) {
			expect(value.trim(), `${locale} ${path}`).not.toBe('');
			const base = english.get(path) ?? english.get(path.replace(PLURAL, '_other'));
			if (value !== base || SAME_AS_ENGLISH.has(value)) continue;
			same.push(path);
			expect(allowed[path], `${locale} ${path} is still English: translate it, or say in _meta.sameAsEnglish why it is right`).toBeTruthy();
		}
		// An entry whose value has since been translated is stale, and would let a later English copy through.
		expect(Object.keys(allowed).sort(), `${locale} _meta.sameAsEnglish lists only values equal to English`).toEqual(same.sort());
	});

	it.each(SUPPORTED_LOCALES)('%s says where it came from, and who reviewed what and when', (locale) => {
		const meta = catalogueOf(locale)._meta;
		expect(meta.locale).toBe(locale);
		for (const review of meta.reviews) {
			expect(review.date, `${locale} review date`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
			expect(['fluent', 'native'], `${locale} review kind`).toContain(review.kind);
			expect(review.by.trim(), `${locale} reviewer`).not.toBe('');
			expect(review.covered.trim(), `${locale} what the review covered`).not.toBe('');
		}
		if (locale === SOURCE_LOCALE) return;
		expect(meta.source).toMatch(/machine-drafted/i);
	});

	it.each(SUPPORTED_LOCALES)("%s names and describes commands by Discord's rules", (locale) => {
		const names = new Map<string, string[]>();
		for (const { path, entry, siblings } of commandEntries(locale)) {
			const messageCommand = entry.description === undefined;
			if (messageCommand) {
				expect(entry.name.length, path).toBeGreaterThanOrEqual(1);
				expect(entry.name.length, path).toBeLessThanOrEqual(32);
			} else {
				expect(entry.name, `${locale} ${path}`).toMatch(COMMAND_NAME);
				expect(entry.name, `${locale} ${path} must be lower case`).toBe(entry.name.toLowerCase());
				expect(entry.description.length, `${locale} ${path}.description`).toBeGreaterThanOrEqual(1);
				expect(entry.description.length, `${locale} ${path}.description: ${entry.description}`).toBeLessThanOrEqual(100);
			}
			names.set(siblings, [...(names.get(siblings) ?? []), entry.name]);
		}
		for (const [siblings, list] of names) expect(new Set(list).size, `${locale} ${siblings || 'top level'}: ${list.join(', ')}`).toBe(list.length);
	});

	it.each(SUPPORTED_LOCALES)('%s names no option like the subcommand it belongs to (`/settings language locale:`)', (locale) => {
		const byPath = new Map(commandEntries(locale).map(({ path, entry }) => [path, entry]));
		for (const { path, entry, siblings } of commandEntries(locale)) {
			const parent = byPath.get(siblings.replace(/\.options\.$/, ''));
			if (parent?.options && siblings.split('.options.').length > 2) expect(entry.name, `${locale} ${path}`).not.toBe(parent.name);
		}
	});
});
