import { endsWordAt, startsWordAt, type KeywordPattern } from './keywordPattern.js';

/** A keyword found in a text: code units `[start, end)` of the lower-cased text. */
export interface KeywordHit<Tag> {
	readonly tag: Tag;
	readonly pattern: KeywordPattern;
	readonly start: number;
	readonly end: number;
}

interface TrieNode<Tag> {
	readonly next: Map<number, TrieNode<Tag>>;
	readonly ends: Array<{ readonly tag: Tag; readonly pattern: KeywordPattern }>;
}

const newNode = <Tag>(): TrieNode<Tag> => ({ next: new Map(), ends: [] });

/**
 * Every keyword of many rules in one trie, so that a text is read once however many keywords there are: from each
 * position the scan follows the trie as far as the text agrees with some keyword (at most 60 characters, Discord's
 * limit on a keyword), which keeps it linear in the text for any list.
 */
export class KeywordScanner<Tag> {
	// Keywords that must begin a word (`cat`, `cat*`) are looked for only where a word begins; the others (`*cat`,
	// `*cat*`) from every position. Two tries, so that a text's letters inside words walk only the second.
	readonly #atWordStart = newNode<Tag>();
	readonly #anywhere = newNode<Tag>();
	#size = 0;
	#anywhereSize = 0;

	add(pattern: KeywordPattern, tag: Tag): void {
		let node = pattern.atWordStart ? this.#atWordStart : this.#anywhere;
		for (let i = 0; i < pattern.body.length; i += 1) {
			const code = pattern.body.charCodeAt(i);
			let child = node.next.get(code);
			if (child === undefined) {
				child = newNode<Tag>();
				node.next.set(code, child);
			}
			node = child;
		}
		node.ends.push({ tag, pattern });
		this.#size += 1;
		if (!pattern.atWordStart) this.#anywhereSize += 1;
	}

	get size(): number {
		return this.#size;
	}

	/** Every hit in `text`, which must already be lower-cased. */
	scan(text: string): Array<KeywordHit<Tag>> {
		const hits: Array<KeywordHit<Tag>> = [];
		const startsOnly = this.#size > this.#anywhereSize;
		const anywhere = this.#anywhereSize > 0;
		for (let start = 0; start < text.length; start += 1) {
			if (startsOnly && startsWordAt(text, start)) walk(this.#atWordStart, text, start, hits);
			if (anywhere) walk(this.#anywhere, text, start, hits);
		}
		return hits;
	}
}

function walk<Tag>(root: TrieNode<Tag>, text: string, start: number, hits: Array<KeywordHit<Tag>>): void {
	let node: TrieNode<Tag> | undefined = root;
	for (let end = start; end < text.length; end += 1) {
		node = node.next.get(text.charCodeAt(end));
		if (node === undefined) return;
		for (const { tag, pattern } of node.ends) {
			if (pattern.atWordEnd && !endsWordAt(text, end + 1)) continue;
			hits.push({ tag, pattern, start, end: end + 1 });
		}
	}
}
