/**
 * A keyword of an AutoMod rule, read by Discord's matching strategies: `cat` a whole word (or phrase), `cat*` a
 * word's start, `*cat` a word's end, `*cat*` anywhere. Matching is case-insensitive.
 */
export interface KeywordPattern {
	/** The keyword as the rule lists it, wildcards included: what a flag names. */
	readonly keyword: string;
	/** Lower-cased, without its wildcards. */
	readonly body: string;
	readonly atWordStart: boolean;
	readonly atWordEnd: boolean;
}

/** Parses one keyword; `undefined` for one that holds nothing but wildcards and spaces. */
export function parseKeyword(keyword: string): KeywordPattern | undefined {
	const leading = keyword.startsWith('*');
	const trailing = keyword.length > 1 && keyword.endsWith('*');
	const body = keyword.slice(leading ? 1 : 0, trailing ? -1 : undefined).toLowerCase();
	if (body.trim() === '') return undefined;
	return { keyword, body, atWordStart: !leading, atWordEnd: !trailing };
}

const WORD_CHARACTER = /[\p{L}\p{N}\p{M}]/u;

function isWordCodePoint(codePoint: number | undefined): boolean {
	if (codePoint === undefined) return false;
	if (codePoint < 0x80) {
		// ASCII without the regex: the scan asks this at nearly every character.
		return (codePoint >= 0x61 && codePoint <= 0x7a) || (codePoint >= 0x30 && codePoint <= 0x39) || (codePoint >= 0x41 && codePoint <= 0x5a);
	}
	return WORD_CHARACTER.test(String.fromCodePoint(codePoint));
}

/** Whether nothing of a word stands just before code unit `index` (a keyword matched from there starts a word). */
export function startsWordAt(text: string, index: number): boolean {
	if (index <= 0) return true;
	const before = text.charCodeAt(index - 1);
	const isLowSurrogate = before >= 0xdc00 && before <= 0xdfff;
	return !isWordCodePoint(text.codePointAt(isLowSurrogate && index >= 2 ? index - 2 : index - 1));
}

/** Whether nothing of a word stands at code unit `index` (a keyword matched up to there ends a word). */
export function endsWordAt(text: string, index: number): boolean {
	return index >= text.length || !isWordCodePoint(text.codePointAt(index));
}
