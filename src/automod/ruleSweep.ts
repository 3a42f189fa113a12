import type { KeywordPattern } from './keywordPattern.js';

/** A keyword of one rule found in the text: code units `[start, end)`. */
export interface KeywordHit {
	readonly pattern: KeywordPattern;
	readonly start: number;
	readonly end: number;
	/** Where the keyword stands among the rule's: at one start, the lower is named first. */
	readonly rank: number;
}

/**
 * One rule's keywords and allow-list entries, decided in one sweep over where they start. A hit `[s, e)` is
 * allowed when an allow-list entry of the rule covers it (starts at or before `s`, ends at or after `e`), that is
 * when the longest reach `M(s)` of the entries starting at or before `s` is at least `e`. Start `s` is decided once
 * the text has been read to `s + longest` (the rule's longest keyword or entry), when every keyword starting there
 * and every entry that could cover it has been seen: the sweep keeps a window of that many starts, whatever the
 * text's length. It stops at the rule's first hit that is not allowed.
 */
export class RuleSweep {
	readonly #window: number;
	/** Per start in the window: the furthest end of an allow-list entry starting there (0: none). */
	readonly #allowEnd: Int32Array;
	readonly #hits: KeywordHit[][];
	/** The first start not decided yet, and `M` of the one before it. */
	#cursor = 0;
	#reach = 0;
	/** Starts in the window holding a hit or an entry: none, and the cursor moves on without looking. */
	#pending = 0;
	/** Where `M` rose: start, reach, start, reach… (kept only for a rule with regexes, which are decided after). */
	readonly #steps: number[] | undefined;
	trigger: KeywordHit | undefined;

	constructor(longest: number, keepReach: boolean) {
		this.#window = longest + 1;
		this.#allowEnd = new Int32Array(this.#window);
		this.#hits = Array.from({ length: this.#window }, () => []);
		this.#steps = keepReach ? [] : undefined;
	}

	get done(): boolean {
		return this.trigger !== undefined;
	}

	allow(start: number, end: number): void {
		const slot = start % this.#window;
		const before = this.#allowEnd[slot] as number;
		if (before === 0 && (this.#hits[slot] as KeywordHit[]).length === 0) this.#pending += 1;
		if (before < end) this.#allowEnd[slot] = end;
	}

	keyword(hit: KeywordHit): void {
		// Only for a start already decided, which the window's length rules out: named at once rather than lost.
		if (hit.start < this.#cursor) return void (this.trigger = hit);
		const slot = hit.start % this.#window;
		const hits = this.#hits[slot] as KeywordHit[];
		if (hits.length === 0 && this.#allowEnd[slot] === 0) this.#pending += 1;
		hits.push(hit);
	}

	/** Decides every start up to `read - longest`, the text having been read to `read`; at the end, all of them. */
	advance(read: number, atEnd = false): void {
		const last = atEnd ? read : read - (this.#window - 1);
		if (this.#pending === 0) {
			if (this.#cursor <= last) this.#cursor = last + 1;
			return;
		}
		while (this.#cursor <= last && !this.done) {
			const slot = this.#cursor % this.#window;
			const end = this.#allowEnd[slot] as number;
			if (end > this.#reach) {
				this.#reach = end;
				this.#steps?.push(this.#cursor, end);
			}
			const hits = this.#hits[slot] as KeywordHit[];
			if (end > 0 || hits.length > 0) this.#pending -= 1;
			if (hits.length > 0) {
				let named: KeywordHit | undefined;
				for (const hit of hits) if (hit.end > this.#reach && (!named || rankBefore(hit, named))) named = hit;
				this.trigger = named;
				hits.length = 0;
			}
			this.#allowEnd[slot] = 0;
			this.#cursor += 1;
		}
	}

	/** Whether an allow-list entry covers `[start, end)`: for regex matches, once the sweep has reached the end. */
	covers(start: number, end: number): boolean {
		const steps = this.#steps ?? [];
		let low = 0;
		let high = steps.length / 2 - 1;
		let reach = 0;
		while (low <= high) {
			const middle = (low + high) >> 1;
			if ((steps[middle * 2] as number) <= start) {
				reach = steps[middle * 2 + 1] as number;
				low = middle + 1;
			} else high = middle - 1;
		}
		return reach >= end;
	}
}

/** At one start: a keyword that begins a word before one that may begin inside one, then the shorter, then as listed. */
function rankBefore(a: KeywordHit, b: KeywordHit): boolean {
	return (
		Number(b.pattern.atWordStart) - Number(a.pattern.atWordStart) < 0 ||
		(a.pattern.atWordStart === b.pattern.atWordStart && (a.end - b.end || a.rank - b.rank) < 0)
	);
}
