import { automodRuleSchema } from '../src/automod/automodRule.js';
import { RuleMatcher } from '../src/automod/ruleMatcher.js';

/** What a server's AutoMod rules cost an ask: the question and the answer each read once, CPU time only. */
export interface AutomodCost {
	readonly rules: number;
	readonly keywordsPerRule: number;
	readonly buildMs: number;
	/** CPU (user + system) per ask, in milliseconds: keyword rules alone. */
	readonly cpuMsPerAsk: number;
	/** The same rules with two regex patterns each (RE2 reads the text once per pattern). */
	readonly cpuMsPerAskWithRegexes: number;
}

// Syllables of common English, so that keywords share prefixes with the text and the trie is walked deep.
const SYLLABLES = ['the', 'an', 'in', 're', 'on', 'st', 'er', 'at', 'en', 'ou', 'ing', 'ion', 'al', 'or', 'ar', 'co', 'mo', 'pa', 'li', 'de'];
const STRATEGY = [(k: string) => k, (k: string) => `${k}*`, (k: string) => `*${k}`, (k: string) => `*${k}*`];

function keyword(n: number): string {
	let word = '';
	for (let rest = n + 400; rest > 0; rest = Math.floor(rest / SYLLABLES.length)) word += SYLLABLES[rest % SYLLABLES.length];
	return (STRATEGY[n % STRATEGY.length] as (k: string) => string)(`${word}q`);
}

const PARAGRAPH =
	'The question asks how the station handles an interruption in the cooling loop, and whether operators ' +
	'should restart the pumps in order or all at once. In general the answer depends on the alarm, the state ' +
	'of the reactor and the instructions the control room has on record; here is a careful reading of each. ';

/**
 * 10 enabled keyword rules of 1,000 keywords each (every strategy, an allow list, exemptions), against a question of
 * 300 characters and an answer of 3,000 that match none: the whole text is read, the worst case. Then the same with
 * two regex patterns a rule.
 */
export function measureAutomodCost(iterations = 2000): AutomodCost {
	const keywordsOnly = measure(false, iterations);
	return { ...keywordsOnly, cpuMsPerAskWithRegexes: measure(true, iterations).cpuMsPerAsk };
}

function measure(withRegexes: boolean, iterations: number): Omit<AutomodCost, 'cpuMsPerAskWithRegexes'> {
	const rules = Array.from({ length: 10 }, (_, r) =>
		automodRuleSchema.parse({
			id: `r${r}`,
			guild_id: 'g',
			name: `Rule ${r}`,
			event_type: 1,
			trigger_type: 1,
			trigger_metadata: {
				keyword_filter: Array.from({ length: 1000 }, (_, k) => keyword(r * 1000 + k)),
				allow_list: [`allowed${r}`],
				regex_patterns: withRegexes ? [`b[0-9]{3}x${r}`, `(a+)+z${r}$`] : [],
			},
			actions: [{ type: 1 }],
			enabled: true,
			exempt_roles: ['role-x'],
			exempt_channels: ['channel-x'],
		}),
	);
	const built = performance.now();
	const matcher = new RuleMatcher(rules);
	const buildMs = performance.now() - built;
	const question = PARAGRAPH.repeat(2).slice(0, 300);
	const answer = PARAGRAPH.repeat(12).slice(0, 3000);
	const context = { roleIds: ['role-a', 'role-b'], channelIds: ['channel-a'] };
	const ask = () => matcher.match(question, context).length + matcher.match(answer, context).length;
	for (let i = 0; i < iterations / 10; i++) if (ask() !== 0) throw new Error('the bench text matched a rule: it must read the whole text');
	const before = process.cpuUsage();
	for (let i = 0; i < iterations; i++) ask();
	const used = process.cpuUsage(before);
	return { rules: rules.length, keywordsPerRule: 1000, buildMs, cpuMsPerAsk: (used.user + used.system) / 1000 / iterations };
}

export function formatAutomodCost(cost: AutomodCost): string {
	return (
		`AutoMod: ${cost.rules} keyword rules × ${cost.keywordsPerRule.toLocaleString('en')} keywords, a 300-character question and a 3,000-character answer ` +
		`read per ask: ${cost.cpuMsPerAsk.toFixed(3)} ms CPU per ask (target ≤ 0.1); with 2 regex patterns a rule besides, ` +
		`${cost.cpuMsPerAskWithRegexes.toFixed(3)} ms; rules compiled in ${cost.buildMs.toFixed(0)} ms`
	);
}
