import i18next from 'i18next';
import { catalogueOf, sentenceSections, type SourceCatalogue } from './catalogues.js';
import { withCommandReferences } from './commandReferences.js';
import { SOURCE_LOCALE, SUPPORTED_LOCALES, type SupportedLocale } from './locales.js';

type PluralSuffix = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
type WithoutPlural<Key extends string> = Key extends `${infer Base}_${PluralSuffix}` ? Base : Key;

/** Every key of a nested catalogue, dotted, with i18next's plural suffixes folded into their base key. */
type KeysOf<Tree, Prefix extends string = ''> = {
	[Key in keyof Tree & string]: Tree[Key] extends string ? `${Prefix}${WithoutPlural<Key>}` : KeysOf<Tree[Key], `${Prefix}${Key}.`>;
}[keyof Tree & string];

/**
 * A sentence by its key in en-US's catalogue: `members.…` for what a member reads, `moderators.…` for what
 * moderators and server admins read, and a section per feature (`answers.…`, the actions on a shown answer). Every
 * top-level section but `_meta` and `commands` holds sentences. A misspelled or missing key fails the type check.
 */
export type MessageKey = KeysOf<Omit<SourceCatalogue, '_meta' | 'commands'>>;

/**
 * What fills a placeholder: text and numbers as they are (`count` also picks the plural form), a list for a
 * `{{name, list}}` placeholder (joined in the reader's language, its sentences rendered in it), or another sentence,
 * rendered in the same locale.
 */
export type MessageValue = string | number | readonly (string | Sentence)[] | Sentence;

export type MessageValues = Readonly<Record<string, MessageValue>>;

/** A sentence chosen now and rendered later, in whichever locale its reader has (an error's answer, a post). */
export interface Sentence {
	readonly key: MessageKey;
	readonly values?: MessageValues;
}

/** The sentence `key` with its values, to be rendered later with `render`. */
export function sentence(key: MessageKey, values?: MessageValues): Sentence {
	return values === undefined ? { key } : { key, values };
}

interface SentenceTree {
	readonly [key: string]: string | SentenceTree;
}

/** A tree of sentences with its command references written out in `locale`, once, before i18next reads it. */
function referencesIn(locale: SupportedLocale, tree: SentenceTree): SentenceTree {
	return Object.fromEntries(
		Object.entries(tree).map(([key, value]) => [key, typeof value === 'string' ? withCommandReferences(locale, value) : referencesIn(locale, value)]),
	);
}

const sentencesIn = (locale: SupportedLocale) => referencesIn(locale, sentenceSections(catalogueOf(locale)) as SentenceTree);

// One instance, initialised synchronously with en-US; each other language joins it at its first sentence
// (catalogues.ts). A call reads memory only, after that.
const instance = i18next.createInstance();
void instance.init({
	initAsync: false,
	resources: { [SOURCE_LOCALE]: { translation: sentencesIn(SOURCE_LOCALE) } },
	supportedLngs: [...SUPPORTED_LOCALES],
	lng: SOURCE_LOCALE,
	fallbackLng: SOURCE_LOCALE,
	// Locale codes are Discord's exactly (es-ES, pt-BR, zh-CN): no fall back through a bare language.
	load: 'currentOnly',
	// Discord escapes nothing on Veil's behalf, and values are put in as given (timestamps, code spans).
	interpolation: { escapeValue: false },
	returnNull: false,
	returnEmptyString: false,
});
const inInstance = new Set<SupportedLocale>([SOURCE_LOCALE]);

/** `locale` as i18next is asked for it: its sentences added to the instance the first time. */
function ready(locale: SupportedLocale): SupportedLocale {
	if (!inInstance.has(locale)) {
		instance.addResourceBundle(locale, 'translation', sentencesIn(locale));
		inInstance.add(locale);
	}
	return locale;
}

const isSentence = (value: MessageValue): value is Sentence => typeof value === 'object' && !Array.isArray(value);

/** The sentence `key` in `locale`, its `{{placeholders}}` filled from `values` (en-US where the locale lacks it). */
export function t(locale: SupportedLocale, key: MessageKey, values?: MessageValues): string {
	if (values === undefined) return instance.t(key, { lng: ready(locale) });
	const filled: Record<string, string | number | readonly string[]> = {};
	for (const [name, value] of Object.entries(values)) filled[name] = inLocale(locale, value);
	return instance.t(key, { ...filled, lng: ready(locale) });
}

/** A placeholder's value as i18next takes it: its sentences, alone or in a list, rendered in `locale`. */
function inLocale(locale: SupportedLocale, value: MessageValue): string | number | readonly string[] {
	if (typeof value === 'string' || typeof value === 'number') return value;
	if (isSentence(value)) return render(locale, value);
	return value.map((item) => (typeof item === 'string' ? item : render(locale, item)));
}

/** A chosen sentence in the reader's locale. */
export function render(locale: SupportedLocale, chosen: Sentence): string {
	return t(locale, chosen.key, chosen.values);
}
