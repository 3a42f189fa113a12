import { endsWordAt, startsWordAt, type KeywordPattern } from './keywordPattern.js';
import { compileAutomaton, type KeywordAutomaton } from './keywordAutomaton.js';

/** A keyword found in a text: code units `[start, end)` of the lower-cased text. */
export interface KeywordHit<Tag> {
	readonly tag: Tag;
	readonly pattern: KeywordPattern;
	readonly start: number;
	readonly end: number;
}

interface Entry<Tag> {
	readonly tag: Tag;
	readonly pattern: KeywordPattern;
	/** The order it was added in: hits at one place are reported in it. */
	readonly order: number;
}

/**
 * Every keyword of many rules in one Aho–Corasick automaton, so that a text is read once, one step a character,
 * however many keywords there are. A keyword found is kept only where its strategy allows: `cat` and `cat*` where a
 * word begins, `cat` and `*cat` where one ends.
 */
export class KeywordScanner<Tag> {
	readonly #automaton: KeywordAutomaton<Entry<Tag>>;

	constructor(keywords: ReadonlyArray<{ readonly pattern: KeywordPattern; readonly tag: Tag }>) {
		this.#automaton = compileAutomaton(keywords.map(({ pattern, tag }, order) => ({ body: pattern.body, value: { tag, pattern, order } })));
	}

	/**
	 * Every hit in `text`, which must already be lower-cased: by where it starts; at one start, the keywords that
	 * begin a word before the others, then the shorter first, then in the order they were added.
	 */
	scan(text: string): Array<KeywordHit<Tag>> {
		const hits: Array<KeywordHit<Tag> & { readonly order: number }> = [];
		this.#automaton.scan(text, (entry, end) => {
			const { pattern } = entry;
			const start = end - pattern.body.length;
			if (pattern.atWordStart && !startsWordAt(text, start)) return;
			if (pattern.atWordEnd && !endsWordAt(text, end)) return;
			hits.push({ tag: entry.tag, pattern, start, end, order: entry.order });
		});
		if (hits.length > 1) hits.sort(byPlace);
		return hits;
	}
}

function byPlace(a: KeywordHit<unknown> & { order: number }, b: KeywordHit<unknown> & { order: number }): number {
	return a.start - b.start || Number(b.pattern.atWordStart) - Number(a.pattern.atWordStart) || a.end - b.end || a.order - b.order;
}
