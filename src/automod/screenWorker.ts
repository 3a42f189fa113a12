/**
 * The thread that reads texts against servers' AutoMod rules for {@link RuleScreener}: the bot's event loop never
 * runs a matcher, so no rule set and no text can hold it. Matchers are kept per server, the least recently used
 * dropped past a budget in bytes; a matcher over its own budget is not kept, and its reading is too costly.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { AutomodRule } from './automodRule.js';
import { RuleMatcher, RulesTooCostly, type MatchContext, type RuleMatch } from './ruleMatcher.js';

export interface ScreenRequest {
	readonly id: number;
	readonly guildId: string;
	readonly version: number;
	/** Sent when this thread may not have the server's rules of this version. */
	readonly rules?: readonly AutomodRule[];
	readonly text: string;
	readonly context: MatchContext;
	readonly budgetMs: number;
}

export type ScreenReply =
	| { readonly ready: true }
	| ({ readonly id: number } & (
			| { readonly kind: 'matched'; readonly matches: readonly RuleMatch[]; readonly unreadable?: readonly string[] }
			| { readonly kind: 'tooCostly'; readonly ruleId: string; readonly ruleName: string }
			| { readonly kind: 'unknown' }
	  ));

export interface ScreenWorkerData {
	/** [0]: the index of the rule being read, among those that apply: named when the thread is stopped from outside. */
	readonly progress: SharedArrayBuffer;
	readonly cacheBytes: number;
	readonly matcherBytes: number;
}

interface Kept {
	readonly version: number;
	readonly matcher: RuleMatcher;
}

const data = workerData as ScreenWorkerData;
const progress = new Int32Array(data.progress);
const kept = new Map<string, Kept>();
let keptBytes = 0;

function keep(guildId: string, entry: Kept): void {
	const before = kept.get(guildId);
	if (before) keptBytes -= before.matcher.byteLength;
	kept.delete(guildId);
	kept.set(guildId, entry);
	keptBytes += entry.matcher.byteLength;
	for (const [oldest, { matcher }] of kept) {
		if (keptBytes <= data.cacheBytes || oldest === guildId) break;
		kept.delete(oldest);
		keptBytes -= matcher.byteLength;
	}
}

/** The rule holding the most keyword characters: what makes a matcher large. */
function largestRule(rules: readonly AutomodRule[]): AutomodRule | undefined {
	const size = (rule: AutomodRule) =>
		[
			...(rule.trigger_metadata.keyword_filter ?? []),
			...(rule.trigger_metadata.allow_list ?? []),
			...(rule.trigger_metadata.regex_patterns ?? []),
		].join('').length;
	return [...rules].sort((a, b) => size(b) - size(a))[0];
}

function screen(request: ScreenRequest): Exclude<ScreenReply, { ready: true }> {
	const { id } = request;
	let entry = kept.get(request.guildId);
	let unreadable: string[] | undefined;
	if (!entry || entry.version !== request.version) {
		if (!request.rules) return { id, kind: 'unknown' };
		progress[0] = -1;
		const matcher = new RuleMatcher(request.rules);
		unreadable = matcher.unreadablePatterns.map(({ ruleId }) => ruleId);
		if (matcher.byteLength > data.matcherBytes) {
			const rule = largestRule(request.rules);
			return { id, kind: 'tooCostly', ruleId: rule?.id ?? '', ruleName: rule?.name ?? '' };
		}
		entry = { version: request.version, matcher };
		keep(request.guildId, entry);
	} else keep(request.guildId, entry);
	try {
		const deadline = performance.now() + request.budgetMs;
		const matches = entry.matcher.match(request.text, request.context, { deadline, onRule: (index) => void (progress[0] = index) });
		return { id, kind: 'matched', matches, ...(unreadable && unreadable.length > 0 ? { unreadable } : {}) };
	} catch (error) {
		if (error instanceof RulesTooCostly) return { id, kind: 'tooCostly', ruleId: error.ruleId, ruleName: error.ruleName };
		throw error;
	}
}

parentPort?.on('message', (request: ScreenRequest) => parentPort?.postMessage(screen(request)));
// Loaded: the hard limits of what was sent meanwhile start now, not while the thread was starting.
parentPort?.postMessage({ ready: true });
