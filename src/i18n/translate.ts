import i18next from 'i18next';
import { catalogues, type SourceCatalogue } from './catalogues.js';
import { SOURCE_LOCALE, SUPPORTED_LOCALES, type SupportedLocale } from './locales.js';

type PluralSuffix = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
type WithoutPlural<Key extends string> = Key extends `${infer Base}_${PluralSuffix}` ? Base : Key;

/** Every key of a nested catalogue, dotted, with i18next's plural suffixes folded into their base key. */
type KeysOf<Tree, Prefix extends string = ''> = {
	[Key in keyof Tree & string]: Tree[Key] extends string ? `${Prefix}${WithoutPlural<Key>}` : KeysOf<Tree[Key], `${Prefix}${Key}.`>;
}[keyof Tree & string];

/** A sentence a member reads, by its key in en-US's `members`: a misspelled or missing key fails the type check. */
export type MessageKey = KeysOf<SourceCatalogue['members']>;

/** What a sentence's placeholders are filled with; `count` also picks the plural form. */
export type MessageValues = Readonly<Record<string, string | number>>;

// One instance, initialised synchronously from the bundled catalogues: a call reads memory only.
const instance = i18next.createInstance();
void instance.init({
	initAsync: false,
	resources: Object.fromEntries(SUPPORTED_LOCALES.map((locale) => [locale, { members: catalogues[locale].members }])),
	supportedLngs: [...SUPPORTED_LOCALES],
	lng: SOURCE_LOCALE,
	fallbackLng: SOURCE_LOCALE,
	// Locale codes are Discord's exactly (es-ES, pt-BR, zh-CN): no fall back through a bare language.
	load: 'currentOnly',
	ns: ['members'],
	defaultNS: 'members',
	// Discord escapes nothing on Veil's behalf, and values are put in as given (timestamps, code spans).
	interpolation: { escapeValue: false },
	returnNull: false,
	returnEmptyString: false,
});

/** The sentence `key` in `locale`, its `{{placeholders}}` filled from `values` (en-US where the locale lacks it). */
export function t(locale: SupportedLocale, key: MessageKey, values?: MessageValues): string {
	return instance.t(key, { ...values, lng: locale });
}
