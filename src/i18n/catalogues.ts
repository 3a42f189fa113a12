import { createRequire } from 'node:module';
import enUS from './locales/en-US.json' with { type: 'json' };
import { SOURCE_LOCALE, type SupportedLocale } from './locales.js';

/** The shape every catalogue has: en-US's, the source. */
export type SourceCatalogue = typeof enUS;

/** A command's entry: its name, its description (none for a message command), its options' entries by name. */
export interface CommandEntry {
	readonly name: string;
	readonly description?: string;
	readonly options?: Readonly<Record<string, CommandEntry>>;
	/** A choice's localized name, by the choice's value. */
	readonly choices?: Readonly<Record<string, string>>;
}

/** Who read a catalogue after it was drafted, and how: `native` by a native speaker, `fluent` by one who is not. */
export interface CatalogueReview {
	readonly date: string;
	readonly kind: string;
	readonly by: string;
	readonly covered: string;
}

/** Where a catalogue came from, who reviewed it, and the values rightly the same as English (path → why). */
export interface CatalogueMeta {
	readonly locale: string;
	readonly source: string;
	readonly reviews: readonly CatalogueReview[];
	readonly sameAsEnglish?: Readonly<Record<string, string>>;
}

/**
 * One locale's file, as loaded: its sentences are checked against en-US by the catalogue tests, not by each file's
 * type. A file may lack a section while its translation is under way: en-US stands in, and those tests fail.
 */
export interface Catalogue {
	readonly _meta: CatalogueMeta;
	readonly commands: Readonly<Record<string, CommandEntry>>;
	readonly members: SourceCatalogue['members'] | Readonly<Record<string, unknown>>;
	readonly moderators?: SourceCatalogue['moderators'] | Readonly<Record<string, unknown>>;
	readonly cases?: SourceCatalogue['cases'] | Readonly<Record<string, unknown>>;
	/** A feature's own section of sentences (`answers`, …), beside members' and moderators'. */
	readonly [section: string]: unknown;
}

/** Every section of sentences of a catalogue, as `t` finds them: all but `_meta` and `commands`. */
export function sentenceSections(catalogue: Catalogue): Readonly<Record<string, unknown>> {
	const { _meta: _, commands: __, ...sections } = catalogue;
	return sections;
}

const loaded = new Map<SupportedLocale, Catalogue>([[SOURCE_LOCALE, enUS]]);
// JSON next to this module (tsconfig.build.json copies the catalogues into dist/ beside it).
const requireJson = createRequire(import.meta.url);

/**
 * A locale's catalogue. en-US, the source and every locale's fallback, is bundled with the code; another is read
 * from its file the first time a reader of that language needs it, and kept: a process holds the languages its
 * members use (each about 0.1 MB of heap and 0.25 MB of RSS), not all 14. A file that cannot be read leaves that
 * language in English rather than fail an answer (the catalogue tests read every file).
 */
export function catalogueOf(locale: SupportedLocale): Catalogue {
	let catalogue = loaded.get(locale);
	if (!catalogue) {
		try {
			catalogue = requireJson(`./locales/${locale}.json`) as Catalogue;
		} catch {
			catalogue = enUS;
		}
		loaded.set(locale, catalogue);
	}
	return catalogue;
}
