import type { Locale } from 'discord.js';

/** The locales Veil has a catalogue for; en-US is the source, and what any other locale falls back to. */
export const SUPPORTED_LOCALES = [
	'en-US',
	'de',
	'fr',
	'es-ES',
	'pt-BR',
	'ja',
	'ko',
	'zh-CN',
	'ru',
	'pl',
	'tr',
	'uk',
	'it',
	'nl',
] as const satisfies readonly `${Locale}`[];

export type SupportedLocale = (typeof SUPPORTED_LOCALES)[number];

export const SOURCE_LOCALE = 'en-US' satisfies SupportedLocale;

/** Discord locales read close enough in a supported one to be better served by it than by English. */
const NEAREST: ReadonlyMap<string, SupportedLocale> = new Map([
	['en-GB', 'en-US'],
	['es-419', 'es-ES'],
]);

const supported: ReadonlySet<string> = new Set(SUPPORTED_LOCALES);

/**
 * The catalogue for a Discord locale code (`interaction.locale`, `guild_locale`): itself when supported, the
 * nearest variety (`es-419` → `es-ES`), else en-US. zh-TW stays English: Traditional Chinese readers are not
 * served by Simplified script.
 */
export function resolveLocale(locale: string | null | undefined): SupportedLocale {
	// A Map, not an object: a value such as `__proto__` or `constructor` must not find what every object inherits.
	if (typeof locale !== 'string' || locale === '') return SOURCE_LOCALE;
	if (supported.has(locale)) return locale as SupportedLocale;
	return NEAREST.get(locale) ?? SOURCE_LOCALE;
}

/**
 * The server's language, for what Veil posts in a server rather than to one member: the server's own setting when
 * it has one (`/settings language`), else Discord's `guild_locale` (en-US unless a community server chose another).
 */
export function resolveServerLocale(guildLocale: string | null | undefined, setting?: string | null): SupportedLocale {
	return resolveLocale(setting ?? guildLocale);
}

/** Whether Veil has a catalogue for exactly this Discord locale code. */
export function isSupportedLocale(locale: string): locale is SupportedLocale {
	return supported.has(locale);
}
