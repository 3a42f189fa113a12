import type { APIApplicationCommandOption, LocalizationMap } from 'discord.js';
import { catalogues, type CommandEntry } from './catalogues.js';
import { SOURCE_LOCALE, SUPPORTED_LOCALES, type SupportedLocale } from './locales.js';

/** Every locale Discord is sent a localization for: the source is the command's own name and description. */
export const LOCALIZED_LOCALES = SUPPORTED_LOCALES.filter(
	(locale): locale is Exclude<SupportedLocale, typeof SOURCE_LOCALE> => locale !== SOURCE_LOCALE,
);

interface Localizable {
	name: string;
	description?: string;
	name_localizations?: LocalizationMap | null;
	description_localizations?: LocalizationMap | null;
	options?: readonly unknown[];
	choices?: readonly { name: string; value: string | number; name_localizations?: LocalizationMap | null }[];
}

/**
 * The registration JSON with each command's, option's and choice's `name_localizations` and
 * `description_localizations` filled from the catalogues, found by the command path (`ask` → `options.prompt`).
 * A path a catalogue lacks is sent in English only: Discord accepts that, and the catalogue tests fail on it.
 */
export function localizeCommands<Data extends { readonly name: string }>(commands: readonly Data[]): Data[] {
	return commands.map((command) => localize(command as Localizable, (locale) => catalogues[locale].commands[command.name]) as Data);
}

function localize(node: Localizable, entryIn: (locale: SupportedLocale) => CommandEntry | undefined): Localizable {
	const names: LocalizationMap = {};
	const descriptions: LocalizationMap = {};
	for (const locale of LOCALIZED_LOCALES) {
		const entry = entryIn(locale);
		if (entry?.name) names[locale] = entry.name;
		// A message command has no description, so it gets no localized one either.
		if (entry?.description && node.description) descriptions[locale] = entry.description;
	}
	const localized: Localizable = { ...node };
	if (Object.keys(names).length > 0) localized.name_localizations = { ...node.name_localizations, ...names };
	if (Object.keys(descriptions).length > 0) localized.description_localizations = { ...node.description_localizations, ...descriptions };
	if (node.options) {
		localized.options = node.options.map((option) => {
			const child = option as Localizable;
			return localize(child, (locale) => entryIn(locale)?.options?.[child.name]) as unknown as APIApplicationCommandOption;
		});
	}
	if (node.choices) {
		localized.choices = node.choices.map((choice) => {
			const names: LocalizationMap = {};
			for (const locale of LOCALIZED_LOCALES) {
				const name = entryIn(locale)?.choices?.[String(choice.value)];
				if (name) names[locale] = name;
			}
			return Object.keys(names).length > 0 ? { ...choice, name_localizations: { ...choice.name_localizations, ...names } } : choice;
		});
	}
	return localized;
}
