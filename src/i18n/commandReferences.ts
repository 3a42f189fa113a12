import { catalogueOf, type CommandEntry } from './catalogues.js';
import { SOURCE_LOCALE, type SupportedLocale } from './locales.js';

/**
 * A command named inside a sentence, written in the catalogue by its English path and shown in the reader's
 * locale from the very names deploy-commands registers, so that a sentence and the command picker agree:
 * - `{{/settings modlog channel:}}` is the whole command (`/einstellungen mod-log kanal:` in German), with an
 *   option's value if one follows its colon (`{{/settings notify dismissals:false}}`);
 * - `{{/settings limits asks_per_day:0, option}}` is the option alone (`fragen_pro_tag:0`);
 * - `{{app:Ask Veil}}` is a message command's name, as its Apps menu shows it.
 *
 * Plain text, not Discord's command mention (`</name sub:id>`): the client shows a mention's name exactly as written,
 * never localized, and a mention written with a localized name does not open the command (discord-api-docs #5518,
 * #5632, #7309: "working as intended"). A mention would also need the id deploy-commands gets (another for a guild's
 * registration than the global one), and names no option, which most of Veil's references need.
 */
export const COMMAND_REFERENCE = /\{\{(?:\/([^{},]+?)(, option)?|app:([^{},]+?))\}\}/g;

/** A reference the catalogues name but no command of en-US's catalogue has: a mistake in the catalogue. */
export class UnknownCommandReference extends Error {
	override readonly name = 'UnknownCommandReference';
}

const own = <Value>(record: Readonly<Record<string, Value>> | undefined, key: string): Value | undefined =>
	record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;

/** The names along `path` in `locale`'s catalogue (a missing name in English, as deploy-commands sends it). */
function namesAlong(locale: SupportedLocale, path: string): string[] | undefined {
	const [command = '', ...words] = path.trim().split(/\s+/);
	let source = own(catalogueOf(SOURCE_LOCALE).commands, command);
	let entry: CommandEntry | undefined = own(catalogueOf(locale).commands, command);
	if (source === undefined) return undefined;
	const names = [entry?.name ?? source.name];
	for (const word of words) {
		const colon = word.indexOf(':');
		const name = colon === -1 ? word : word.slice(0, colon);
		source = own(source.options, name);
		entry = own(entry?.options, name);
		if (source === undefined) return undefined;
		names.push(`${entry?.name ?? source.name}${colon === -1 ? '' : word.slice(colon)}`);
	}
	return names;
}

/** One reference in the reader's locale: `/ask` → `/fragen`, or an option alone when `optionOnly`. */
export function commandReference(locale: SupportedLocale, path: string, optionOnly = false): string {
	const names = namesAlong(locale, path);
	if (names === undefined) throw new UnknownCommandReference(`No command ${path} in the catalogues`);
	return optionOnly ? (names.at(-1) ?? '') : `/${names.join(' ')}`;
}

/** A message command's name in the reader's locale. */
export function appReference(locale: SupportedLocale, name: string): string {
	const source = own(catalogueOf(SOURCE_LOCALE).commands, name);
	if (source === undefined || source.description !== undefined) throw new UnknownCommandReference(`No message command ${name} in the catalogues`);
	return own(catalogueOf(locale).commands, name)?.name ?? source.name;
}

/** A catalogue's sentence with every command reference written out in `locale`. */
export function withCommandReferences(locale: SupportedLocale, text: string): string {
	return text.replace(COMMAND_REFERENCE, (_whole, path: string | undefined, option: string | undefined, app: string | undefined) =>
		path === undefined ? appReference(locale, app ?? '') : commandReference(locale, path, option !== undefined),
	);
}
