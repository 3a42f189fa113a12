import type { SupportedLocale } from './locales.js';
import names from './languageNames.json' with { type: 'json' };

/**
 * A language as a reader in `reader` names it, then by its own name where that differs, as Discord's own language
 * picker shows both: `German · Deutsch` for an English reader, `Deutsch` for a German one.
 *
 * The names are CLDR's, as `Intl.DisplayNames` gives them, written once into languageNames.json
 * (test/unit/i18n/languageNames.test.ts says how to write it again). Asking Intl at run time would page in ICU's data
 * for every supported locale, about 6 MB of resident memory that a process answering asks never needs again.
 */
export function languageName(locale: SupportedLocale, reader: SupportedLocale): string {
	return (names as Record<SupportedLocale, Record<SupportedLocale, string>>)[reader][locale];
}
