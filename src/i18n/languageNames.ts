import type { SupportedLocale } from './locales.js';

const capitalised = (name: string, locale: string) => name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);

/**
 * A language as a reader in `reader` names it, then by its own name where that differs, as Discord's own language
 * picker shows both: `German · Deutsch` for an English reader, `Deutsch` for a German one. The names are CLDR's,
 * through Intl, not words of Veil's own.
 */
export function languageName(locale: SupportedLocale, reader: SupportedLocale): string {
	const inReader = capitalised(new Intl.DisplayNames(reader, { type: 'language', languageDisplay: 'standard' }).of(locale) ?? locale, reader);
	const own = capitalised(new Intl.DisplayNames(locale, { type: 'language', languageDisplay: 'standard' }).of(locale) ?? locale, locale);
	return inReader === own ? own : `${inReader} · ${own}`;
}
