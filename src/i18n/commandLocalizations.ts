import type { APIApplicationCommandOption, LocalizationMap, RESTPostAPIApplicationCommandsJSONBody } from 'discord.js';
import { catalogueOf, type CommandEntry } from './catalogues.js';
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

/** A command's data as commands/definitions holds it: names and what Discord checks, no words (those are the catalogues'). */
interface DataNode {
	readonly type?: number;
	readonly name: string;
	readonly required?: boolean;
	readonly options?: readonly DataNode[];
	readonly choices?: readonly { readonly value: string | number }[];
}

/** Thrown at deploy-commands when a command's data names something en-US.json lacks: nothing is registered. */
export class MissingCommandText extends Error {
	override readonly name = 'MissingCommandText';
}

const MESSAGE_COMMAND = 3;
const SUBCOMMAND = 1;
const SUBCOMMAND_GROUP = 2;

/**
 * What deploy-commands sends Discord: each command's data with its English words from en-US.json, as every other
 * locale's come from its own catalogue, then localized (`localizeCommands`). A value option is `required: false`
 * unless its data says otherwise, as Discord echoes it.
 */
export function commandRegistrations(commands: readonly DataNode[]): RESTPostAPIApplicationCommandsJSONBody[] {
	const english = catalogueOf(SOURCE_LOCALE).commands;
	const worded = commands.map((command) =>
		withEnglish(command, Object.hasOwn(english, command.name) ? english[command.name] : undefined, command.name, true),
	);
	return localizeCommands(worded) as unknown as RESTPostAPIApplicationCommandsJSONBody[];
}

/** A node of the JSON Discord is sent, its words in place. */
interface WordedNode {
	type?: number;
	name: string;
	description?: string;
	required?: boolean;
	options?: WordedNode[];
	choices?: { name: string; value: string | number }[];
}

function withEnglish(node: DataNode, entry: CommandEntry | undefined, path: string, top: boolean): WordedNode {
	if (entry === undefined) throw new MissingCommandText(`${path} is not in en-US.json`);
	const { options, choices, ...fields } = node;
	const worded: WordedNode = { ...fields };
	if (!(top && node.type === MESSAGE_COMMAND)) {
		if (!entry.description) throw new MissingCommandText(`${path} has no description in en-US.json`);
		worded.description = entry.description;
	}
	if (!top && node.type !== SUBCOMMAND && node.type !== SUBCOMMAND_GROUP) worded.required = node.required ?? false;
	// A slash command without options is sent with an empty list, as discord.js's builder always sent it.
	if (top && node.type !== MESSAGE_COMMAND) worded.options = [];
	if (options) {
		worded.options = options.map((option) =>
			withEnglish(
				option,
				entry.options && Object.hasOwn(entry.options, option.name) ? entry.options[option.name] : undefined,
				`${path} ${option.name}`,
				false,
			),
		);
	}
	if (choices) {
		worded.choices = choices.map((choice) => {
			const name = entry.choices?.[String(choice.value)];
			if (name === undefined) throw new MissingCommandText(`${path} choice ${choice.value} is not in en-US.json`);
			return { name, value: choice.value };
		});
	}
	return worded;
}

/**
 * The registration JSON with each command's, option's and choice's `name_localizations` and
 * `description_localizations` filled from the catalogues, found by the command path (`ask` → `options.prompt`).
 * A path a catalogue lacks is sent in English only: Discord accepts that, and the catalogue tests fail on it.
 */
export function localizeCommands<Data extends { readonly name: string }>(commands: readonly Data[]): Data[] {
	return commands.map((command) => localize(command as Localizable, (locale) => catalogueOf(locale).commands[command.name]) as Data);
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
