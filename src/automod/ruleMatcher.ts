import { RE2JS } from 're2js';
import { appliesToVeil, BLOCK_MESSAGE_ACTION, SEND_ALERT_MESSAGE_ACTION, type AutomodRule } from './automodRule.js';
import { compileAutomaton, type KeywordAutomaton } from './keywordAutomaton.js';
import { endsWordAt, parseKeyword, startsWordAt, type KeywordPattern } from './keywordPattern.js';
import { RuleSweep } from './ruleSweep.js';

/** What one rule found in a text, and what the rule asks to be done about it. */
export interface RuleMatch {
	readonly ruleId: string;
	readonly ruleName: string;
	/** The keyword (as the rule lists it) or regex pattern that matched: for moderators, never for the member. */
	readonly trigger: string;
	readonly blocks: boolean;
	readonly customMessage: string | undefined;
	readonly alertChannelIds: readonly string[];
}

/** Who asks, and where: the rules' exemptions are read against it. */
export interface MatchContext {
	readonly roleIds: readonly string[];
	/** The channel, and its parent for a thread: an exempt channel exempts its threads. */
	readonly channelIds: readonly string[];
}

/** When a reading must stop: past `deadline` (performance.now()), the rule being read is named too costly. */
export interface MatchBudget {
	readonly deadline: number;
	/** Told the index of each rule as its regexes start, so that a reading stopped from outside can name it. */
	readonly onRule?: (index: number) => void;
}

/** A reading that went past its budget, and the rule it was on (or that held it up the most). */
export class RulesTooCostly extends Error {
	override readonly name = 'RulesTooCostly';
	constructor(
		readonly ruleId: string,
		readonly ruleName: string,
	) {
		super(`the AutoMod rule ${ruleId} is too costly to read`);
	}
}

interface Entry {
	readonly rule: number;
	readonly allow: boolean;
	readonly pattern: KeywordPattern;
	readonly rank: number;
}

/** A regex match is only looked for this many times a pattern: enough to see past allowed ones, bounded for any text. */
const MAX_REGEX_MATCHES = 64;
/** Regexes read a text this many characters at a time, each window overlapping the last by half. */
const REGEX_WINDOW = 8192;
/** How many characters are read between two looks at the clock. */
const CHECK_EVERY = 4096;
/** What a compiled regex is counted as: per instruction of its program (measured: about 185 bytes), or as a whole. */
const REGEX_INSTRUCTION_BYTES = 200;
const REGEX_BYTES = 128 * 1024;
/** What each keyword or allow-list entry holds besides the automaton (its strings, its entry), in bytes. */
const ENTRY_BYTES = 180;

/** re2js keeps the program's length where its types do not say; a version without it is counted as a whole. */
function regexBytes(regex: RE2JS): number {
	const instructions = (regex as unknown as { re2Input?: { prog?: { inst?: { length?: unknown } } } }).re2Input?.prog?.inst?.length;
	return typeof instructions === 'number' ? 1024 + instructions * REGEX_INSTRUCTION_BYTES : REGEX_BYTES;
}
/** Rules past this share the last bit of a mask, which is then never cleared (Discord allows 6 keyword rules). */
const MASK_BITS = 30;

/** Lower-cases without changing any character's position, so that every span refers to the same text. */
function lowerInPlace(text: string): string {
	const lowered = text.toLowerCase();
	if (lowered.length === text.length) return lowered;
	let out = '';
	for (const character of text) {
		const lower = character.toLowerCase();
		out += lower.length === character.length ? lower : character;
	}
	return out;
}

const bitOf = (rule: number) => 1 << Math.min(rule, MASK_BITS);

/**
 * A server's AutoMod keyword rules, compiled once: every keyword and allow-list entry of every rule in one
 * Aho–Corasick automaton, every regex on RE2's linear-time engine (a pattern RE2 cannot read is left out, and
 * named in `unreadablePatterns`). Rules Veil does not apply (disabled, not KEYWORD, not MESSAGE_SEND) are dropped.
 * A reading keeps, per rule, one window of starts (see {@link RuleSweep}) and stops at the rule's first hit that is
 * not allowed, so memory is bounded by the rules, not the text.
 */
export class RuleMatcher {
	readonly #rules: readonly AutomodRule[];
	readonly #automaton: KeywordAutomaton<Entry>;
	/** Per output state of the automaton: the rules with a keyword, and with an allow-list entry, along its chain. */
	readonly #keywordRules = new Map<number, number>();
	readonly #allowRules = new Map<number, number>();
	/** Per rule, its longest keyword or allow-list entry: how far back a start waits to be decided. */
	readonly #longestEntry: number[];
	readonly #regexes: Array<Array<{ readonly source: string; readonly regex: RE2JS }>>;
	readonly #byteLength: number;
	readonly unreadablePatterns: Array<{ readonly ruleId: string; readonly pattern: string }> = [];

	constructor(rules: readonly AutomodRule[]) {
		this.#rules = rules.filter(appliesToVeil);
		const entries: Entry[] = [];
		let keywordBytes = 0;
		this.#longestEntry = this.#rules.map(() => 0);
		this.#regexes = this.#rules.map((rule, index) => {
			const metadata = rule.trigger_metadata;
			(metadata.keyword_filter ?? []).forEach((keyword, rank) => {
				const pattern = parseKeyword(keyword);
				if (!pattern) return;
				entries.push({ rule: index, allow: false, pattern, rank });
				this.#longestEntry[index] = Math.max(this.#longestEntry[index] as number, pattern.body.length);
			});
			for (const keyword of metadata.allow_list ?? []) {
				const pattern = parseKeyword(keyword);
				if (!pattern) continue;
				entries.push({ rule: index, allow: true, pattern, rank: 0 });
				this.#longestEntry[index] = Math.max(this.#longestEntry[index] as number, pattern.body.length);
			}
			return (metadata.regex_patterns ?? []).flatMap((source) => {
				try {
					return [{ source, regex: RE2JS.compile(source) }];
				} catch {
					this.unreadablePatterns.push({ ruleId: rule.id, pattern: source });
					return [];
				}
			});
		});
		// At one place, a keyword that begins a word is named before one that may begin inside a word.
		entries.sort((a, b) => Number(b.pattern.atWordStart) - Number(a.pattern.atWordStart));
		for (const entry of entries) keywordBytes += 2 * (entry.pattern.keyword.length + entry.pattern.body.length) + ENTRY_BYTES;
		this.#automaton = compileAutomaton(entries.map((entry) => ({ body: entry.pattern.body, value: entry })));
		this.#markChains();
		const regexBytesAll = this.#regexes.reduce((sum, list) => sum + list.reduce((inList, { regex }) => inList + regexBytes(regex), 0), 0);
		this.#byteLength = this.#automaton.byteLength + keywordBytes + regexBytesAll + (this.#keywordRules.size + this.#allowRules.size) * 24;
	}

	/** How many rules apply: none means there is nothing to read. */
	get ruleCount(): number {
		return this.#rules.length;
	}

	/** About how much memory it holds, in bytes: what a cache of matchers counts. */
	get byteLength(): number {
		return this.#byteLength;
	}

	/** The first match of each rule that applies to `context`, in the rules' order; throws {@link RulesTooCostly} past the budget. */
	match(text: string, context: MatchContext, budget?: MatchBudget): RuleMatch[] {
		if (this.#rules.length === 0 || text === '') return [];
		const sweeps = this.#rules.map((rule, index) =>
			rule.exempt_roles.some((role) => context.roleIds.includes(role)) || rule.exempt_channels.some((channel) => context.channelIds.includes(channel))
				? undefined
				: new RuleSweep(this.#longestEntry[index] as number, (this.#regexes[index]?.length ?? 0) > 0),
		);
		const lowered = lowerInPlace(text);
		this.#sweep(lowered, sweeps, budget);
		const matches: RuleMatch[] = [];
		this.#rules.forEach((rule, index) => {
			const sweep = sweeps[index];
			if (!sweep) return;
			budget?.onRule?.(index);
			const trigger = sweep.trigger?.pattern.keyword ?? this.#regexTrigger(index, text, sweep, budget);
			if (trigger !== undefined) matches.push(toMatch(rule, trigger));
		});
		return matches;
	}

	#sweep(lowered: string, sweeps: ReadonlyArray<RuleSweep | undefined>, budget: MatchBudget | undefined): void {
		let live = 0;
		sweeps.forEach((sweep, index) => {
			if (sweep) live |= bitOf(index);
		});
		const visits = sweeps.map(() => 0);
		const found = (first: number, end: number) => {
			// Starts that can no longer gain a hit or an entry are decided first, so that the window never wraps.
			for (let index = 0; index < sweeps.length; index += 1) {
				const sweep = sweeps[index];
				if (!sweep || sweep.done) continue;
				sweep.advance(end - 1);
				if (sweep.done && index < MASK_BITS) live &= ~bitOf(index);
			}
			let out = first;
			let needKeyword = (this.#keywordRules.get(out) ?? 0) & live;
			let needAllow = (this.#allowRules.get(out) ?? 0) & live;
			while (out >= 0 && (needKeyword | needAllow) !== 0) {
				for (const entry of this.#automaton.valuesAt(out)) {
					const bit = bitOf(entry.rule);
					if (((entry.allow ? needAllow : needKeyword) & bit) === 0) continue;
					const start = end - entry.pattern.body.length;
					if (entry.pattern.atWordStart && !startsWordAt(lowered, start)) continue;
					if (entry.pattern.atWordEnd && !endsWordAt(lowered, end)) continue;
					const sweep = sweeps[entry.rule] as RuleSweep;
					if (sweep.done) continue;
					visits[entry.rule] = (visits[entry.rule] as number) + 1;
					if (entry.allow) sweep.allow(start, end);
					else sweep.keyword({ pattern: entry.pattern, start, end, rank: entry.rank });
					// The longest found here covers (or is harder to cover than) every shorter one ending here.
					if (entry.rule < MASK_BITS) {
						if (entry.allow) needAllow &= ~bit;
						else needKeyword &= ~bit;
					}
				}
				out = this.#automaton.nextOutput(out);
				needKeyword &= out >= 0 ? (this.#keywordRules.get(out) ?? 0) : 0;
				needAllow &= out >= 0 ? (this.#allowRules.get(out) ?? 0) : 0;
			}
		};
		let state = 0;
		for (let from = 0; from < lowered.length && live !== 0; from += CHECK_EVERY) {
			if (budget && performance.now() > budget.deadline) throw this.#tooCostly(visits.indexOf(Math.max(...visits)));
			state = this.#automaton.walk(lowered, from, Math.min(lowered.length, from + CHECK_EVERY), state, found);
		}
		for (const sweep of sweeps) if (sweep && !sweep.done) sweep.advance(lowered.length, true);
	}

	/**
	 * The first pattern with a match no allow-list entry covers. The text is read in windows of {@link REGEX_WINDOW}
	 * overlapping by half, so a budget is looked at between windows: a match no longer than the overlap (Discord
	 * reads messages of at most 4,000 characters) is found whole in some window. A match touching a window's cut,
	 * which `^`, `$` or `\b` may make there, counts only in the window where it is not cut.
	 */
	#regexTrigger(index: number, text: string, sweep: RuleSweep, budget: MatchBudget | undefined): string | undefined {
		for (const { source, regex } of this.#regexes[index] ?? []) {
			let found = 0;
			for (let from = 0; from < text.length && found < MAX_REGEX_MATCHES; from += REGEX_WINDOW / 2) {
				if (budget && performance.now() > budget.deadline) throw this.#tooCostly(index);
				const to = Math.min(text.length, from + REGEX_WINDOW);
				const matcher = regex.matcher(text.slice(from, to));
				for (; found < MAX_REGEX_MATCHES && matcher.find(); found += 1) {
					const start = from + matcher.start();
					const end = from + matcher.end();
					const cut = (start === from && from > 0) || (end === to && to < text.length);
					if (!cut && !sweep.covers(start, end)) return source;
				}
				if (to === text.length) break;
			}
		}
		return undefined;
	}

	#tooCostly(index: number): RulesTooCostly {
		const rule = this.#rules[Math.max(0, index)] as AutomodRule;
		return new RulesTooCostly(rule.id, rule.name);
	}

	/** For each output state, the rules with a keyword and with an allow-list entry along its chain. */
	#markChains(): void {
		// Ascending: a chain goes to shallower states, which breadth-first numbering puts before.
		for (const out of this.#automaton.outputStates()) {
			let keyword = 0;
			let allow = 0;
			for (const entry of this.#automaton.valuesAt(out)) {
				if (entry.allow) allow |= bitOf(entry.rule);
				else keyword |= bitOf(entry.rule);
			}
			const next = this.#automaton.nextOutput(out);
			if (next >= 0) {
				keyword |= this.#keywordRules.get(next) ?? 0;
				allow |= this.#allowRules.get(next) ?? 0;
			}
			this.#keywordRules.set(out, keyword);
			this.#allowRules.set(out, allow);
		}
	}
}

function toMatch(rule: AutomodRule, trigger: string): RuleMatch {
	const block = rule.actions.find((action) => action.type === BLOCK_MESSAGE_ACTION);
	const customMessage = block?.metadata?.custom_message;
	return {
		ruleId: rule.id,
		ruleName: rule.name,
		trigger,
		blocks: block !== undefined,
		customMessage: customMessage === undefined || customMessage === '' ? undefined : customMessage,
		alertChannelIds: rule.actions.flatMap((action) =>
			action.type === SEND_ALERT_MESSAGE_ACTION && action.metadata?.channel_id ? [action.metadata.channel_id] : [],
		),
	};
}
