import { RE2JS } from 're2js';
import { appliesToVeil, BLOCK_MESSAGE_ACTION, SEND_ALERT_MESSAGE_ACTION, type AutomodRule } from './automodRule.js';
import { parseKeyword, type KeywordPattern } from './keywordPattern.js';
import { KeywordScanner } from './keywordScanner.js';

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

interface Tag {
	readonly rule: number;
	readonly allow: boolean;
}

interface Span {
	readonly start: number;
	readonly end: number;
}

/** A regex match is only looked for this many times a pattern: enough to see past allowed ones, bounded for any text. */
const MAX_REGEX_MATCHES = 64;

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

const covers = (outer: Span, inner: Span) => outer.start <= inner.start && outer.end >= inner.end;

/**
 * A server's AutoMod keyword rules, compiled once: every keyword and allow-list entry of every rule in one
 * {@link KeywordScanner}, every regex on RE2's linear-time engine (a pattern RE2 cannot read is left out, and
 * named in `unreadablePatterns`). Rules Veil does not apply (disabled, not KEYWORD, not MESSAGE_SEND) are dropped.
 */
export class RuleMatcher {
	readonly #rules: readonly AutomodRule[];
	readonly #scanner: KeywordScanner<Tag>;
	readonly #regexes: Array<Array<{ readonly source: string; readonly regex: RE2JS }>>;
	readonly unreadablePatterns: Array<{ readonly ruleId: string; readonly pattern: string }> = [];

	constructor(rules: readonly AutomodRule[]) {
		this.#rules = rules.filter(appliesToVeil);
		const keywords: Array<{ pattern: KeywordPattern; tag: Tag }> = [];
		const add = (keyword: string, tag: Tag) => {
			const pattern = parseKeyword(keyword);
			if (pattern !== undefined) keywords.push({ pattern, tag });
		};
		this.#regexes = this.#rules.map((rule, index) => {
			const metadata = rule.trigger_metadata;
			for (const keyword of metadata.keyword_filter ?? []) add(keyword, { rule: index, allow: false });
			for (const keyword of metadata.allow_list ?? []) add(keyword, { rule: index, allow: true });
			return (metadata.regex_patterns ?? []).flatMap((source) => {
				try {
					return [{ source, regex: RE2JS.compile(source) }];
				} catch {
					this.unreadablePatterns.push({ ruleId: rule.id, pattern: source });
					return [];
				}
			});
		});
		this.#scanner = new KeywordScanner(keywords);
	}

	/** How many rules apply: none means there is nothing to read. */
	get ruleCount(): number {
		return this.#rules.length;
	}

	/** The first match of each rule that applies to `context`, in the rules' order. */
	match(text: string, context: MatchContext): RuleMatch[] {
		if (this.#rules.length === 0 || text === '') return [];
		const exempt = this.#rules.map(
			(rule) =>
				rule.exempt_roles.some((role) => context.roleIds.includes(role)) ||
				rule.exempt_channels.some((channel) => context.channelIds.includes(channel)),
		);
		const lowered = lowerInPlace(text);
		const allowed: Span[][] = this.#rules.map(() => []);
		const keywordHits = this.#scanner.scan(lowered).filter(({ tag }) => !exempt[tag.rule]);
		for (const hit of keywordHits) if (hit.tag.allow) allowed[hit.tag.rule]?.push(hit);
		const matches: RuleMatch[] = [];
		this.#rules.forEach((rule, index) => {
			if (exempt[index]) return;
			const isAllowed = (span: Span) => allowed[index]?.some((allow) => covers(allow, span)) ?? false;
			const keyword = keywordHits.find((hit) => hit.tag.rule === index && !hit.tag.allow && !isAllowed(hit));
			const trigger = keyword?.pattern.keyword ?? this.#regexTrigger(index, text, isAllowed);
			if (trigger !== undefined) matches.push(toMatch(rule, trigger));
		});
		return matches;
	}

	#regexTrigger(index: number, text: string, isAllowed: (span: Span) => boolean): string | undefined {
		for (const { source, regex } of this.#regexes[index] ?? []) {
			const matcher = regex.matcher(text);
			for (let found = 0; found < MAX_REGEX_MATCHES && matcher.find(); found += 1) {
				if (!isAllowed({ start: matcher.start(), end: matcher.end() })) return source;
			}
		}
		return undefined;
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
