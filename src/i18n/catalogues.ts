import de from './locales/de.json' with { type: 'json' };
import enUS from './locales/en-US.json' with { type: 'json' };
import esES from './locales/es-ES.json' with { type: 'json' };
import fr from './locales/fr.json' with { type: 'json' };
import it from './locales/it.json' with { type: 'json' };
import ja from './locales/ja.json' with { type: 'json' };
import ko from './locales/ko.json' with { type: 'json' };
import nl from './locales/nl.json' with { type: 'json' };
import pl from './locales/pl.json' with { type: 'json' };
import ptBR from './locales/pt-BR.json' with { type: 'json' };
import ru from './locales/ru.json' with { type: 'json' };
import tr from './locales/tr.json' with { type: 'json' };
import uk from './locales/uk.json' with { type: 'json' };
import zhCN from './locales/zh-CN.json' with { type: 'json' };
import type { SupportedLocale } from './locales.js';

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

/** Every catalogue, bundled with the code: loading needs no file system or network at run time. */
export const catalogues: Readonly<Record<SupportedLocale, Catalogue>> = {
	'en-US': enUS,
	de,
	fr,
	'es-ES': esES,
	'pt-BR': ptBR,
	ja,
	ko,
	'zh-CN': zhCN,
	ru,
	pl,
	tr,
	uk,
	it,
	nl,
};
