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
	readonly #root = newNode<Tag>();
	#size = 0;

	add(pattern: KeywordPattern, tag: Tag): void {
		let node = this.#root;
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
	}

	get size(): number {
		return this.#size;
	}

	/** Every hit in `text`, which must already be lower-cased. */
	scan(text: string): Array<KeywordHit<Tag>> {
		const hits: Array<KeywordHit<Tag>> = [];
		if (this.#size === 0) return hits;
		for (let start = 0; start < text.length; start += 1) {
			let node: TrieNode<Tag> | undefined = this.#root;
			let wordStarts: boolean | undefined;
			for (let end = start; end < text.length; end += 1) {
				node = node.next.get(text.charCodeAt(end));
				if (node === undefined) break;
				for (const { tag, pattern } of node.ends) {
					if (pattern.atWordStart && !(wordStarts ??= startsWordAt(text, start))) continue;
					if (pattern.atWordEnd && !endsWordAt(text, end + 1)) continue;
					hits.push({ tag, pattern, start, end: end + 1 });
				}
			}
		}
		return hits;
	}
}
