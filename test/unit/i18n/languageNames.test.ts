import { describe, expect, it } from 'vitest';
import { languageName } from '../../../src/i18n/languageNames.js';
import { SUPPORTED_LOCALES } from '../../../src/i18n/locales.js';

const capitalised = (name: string, locale: string) => name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);

/** What languageNames.json holds, from CLDR through Intl: run this and write the result to the file after a change. */
function fromIntl(locale: string, reader: string): string {
	const inReader = capitalised(new Intl.DisplayNames(reader, { type: 'language', languageDisplay: 'standard' }).of(locale) ?? locale, reader);
	const own = capitalised(new Intl.DisplayNames(locale, { type: 'language', languageDisplay: 'standard' }).of(locale) ?? locale, locale);
	return inReader === own ? own : `${inReader} · ${own}`;
}

describe('languageName', () => {
	it("names every supported language for every supported reader, in both its reader's words and its own", () => {
		for (const reader of SUPPORTED_LOCALES) {
			for (const locale of SUPPORTED_LOCALES) {
				const name = languageName(locale, reader);
				expect(name, `${locale} for a ${reader} reader`).toBeTruthy();
				expect(name.length).toBeLessThanOrEqual(100);
				// Its own name always ends the entry, so a reader finds their language whatever Discord's language is.
				expect(name.endsWith(languageName(locale, locale))).toBe(true);
			}
		}
	});

	it('holds the names CLDR gives, as Intl.DisplayNames reads them on this Node', () => {
		for (const reader of SUPPORTED_LOCALES) {
			for (const locale of SUPPORTED_LOCALES) expect(languageName(locale, reader)).toBe(fromIntl(locale, reader));
		}
	});
});
