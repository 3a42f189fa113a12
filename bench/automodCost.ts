import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { automodRuleSchema } from '../src/automod/automodRule.js';
import { RuleMatcher, type MatchContext } from '../src/automod/ruleMatcher.js';
import { median } from './stats.js';

/** What a server's AutoMod rules add to an ask: the question and the answer each read once, CPU time only. */
export interface AutomodCost {
	readonly rules: number;
	readonly keywordsPerRule: number;
	readonly rounds: number;
	readonly asksPerRound: number;
	/** The median time to compile the rules, in milliseconds. */
	readonly buildMs: number;
	/** CPU (user + system) an ask takes with the rules minus without any, in milliseconds: median, lowest, highest round. */
	readonly addedMsPerAsk: Spread;
	/** The same with two regex patterns a rule besides (RE2 reads the text once per pattern). */
	readonly addedMsPerAskWithRegexes: Spread;
}

interface Spread {
	readonly median: number;
	readonly min: number;
	readonly max: number;
}

const ROUNDS = 9;
const ASKS_PER_ROUND = 2000;
const RULES = 10;
const KEYWORDS_PER_RULE = 1000;

// Syllables of common English, so that keywords share prefixes with the text and the automaton is walked deep.
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
const QUESTION = PARAGRAPH.repeat(2).slice(0, 300);
const ANSWER = PARAGRAPH.repeat(12).slice(0, 3000);
const CONTEXT: MatchContext = { roleIds: ['role-a', 'role-b'], channelIds: ['channel-a'] };

/**
 * 10 enabled keyword rules of 1,000 keywords each (every strategy, an allow list, exemptions), against a question of
 * 300 characters and an answer of 3,000 that match none: the whole text is read, the worst case. Then the same with
 * two regex patterns a rule.
 */
function serverRules(withRegexes: boolean) {
	return Array.from({ length: RULES }, (_, r) =>
		automodRuleSchema.parse({
			id: `r${r}`,
			guild_id: 'g',
			name: `Rule ${r}`,
			event_type: 1,
			trigger_type: 1,
			trigger_metadata: {
				keyword_filter: Array.from({ length: KEYWORDS_PER_RULE }, (_, k) => keyword(r * KEYWORDS_PER_RULE + k)),
				allow_list: [`allowed${r}`],
				regex_patterns: withRegexes ? [`b[0-9]{3}x${r}`, `(a+)+z${r}$`] : [],
			},
			actions: [{ type: 1 }],
			enabled: true,
			exempt_roles: ['role-x'],
			exempt_channels: ['channel-x'],
		}),
	);
}

/** What the ask path asks of a server's rules: the prompt screened, then the answer. */
const ask = (matcher: RuleMatcher) => matcher.match(QUESTION, CONTEXT).length + matcher.match(ANSWER, CONTEXT).length;

function cpuMsPerAsk(matcher: RuleMatcher): number {
	const before = process.cpuUsage();
	for (let i = 0; i < ASKS_PER_ROUND; i++) ask(matcher);
	const used = process.cpuUsage(before);
	return (used.user + used.system) / 1000 / ASKS_PER_ROUND;
}

const spread = (values: readonly number[]): Spread => ({ median: median(values), min: Math.min(...values), max: Math.max(...values) });

/**
 * The added CPU, round by round: each round times the same asks on a server without rules and on one with them, in
 * turns, so that what the process is doing besides (the JIT, the collector, the machine) weighs on both alike.
 */
function measureHere(): AutomodCost {
	const none = new RuleMatcher([]);
	const builds: number[] = [];
	const added = (withRegexes: boolean) => {
		const rules = serverRules(withRegexes);
		const rounds: number[] = [];
		for (let round = 0; round < ROUNDS; round++) {
			const built = performance.now();
			const matcher = new RuleMatcher(rules);
			builds.push(performance.now() - built);
			if (ask(matcher) !== 0) throw new Error('the bench text matched a rule: it must read the whole text');
			// The first round warms both paths up, and is not counted.
			let without: number;
			let withRules: number;
			if (round % 2 === 0) {
				without = cpuMsPerAsk(none);
				withRules = cpuMsPerAsk(matcher);
			} else {
				withRules = cpuMsPerAsk(matcher);
				without = cpuMsPerAsk(none);
			}
			if (round > 0) rounds.push(withRules - without);
		}
		return spread(rounds);
	};
	const addedMsPerAsk = added(false);
	const addedMsPerAskWithRegexes = added(true);
	return {
		rules: RULES,
		keywordsPerRule: KEYWORDS_PER_RULE,
		rounds: ROUNDS - 1,
		asksPerRound: ASKS_PER_ROUND,
		buildMs: median(builds),
		addedMsPerAsk,
		addedMsPerAskWithRegexes,
	};
}

/** Measured in a process of its own, started for it: nothing else the bench did weighs on the figure. */
export async function measureAutomodCost(): Promise<AutomodCost> {
	const { stdout } = await promisify(execFile)(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--measure-here']);
	return JSON.parse(stdout) as AutomodCost;
}

if (process.argv.includes('--measure-here')) process.stdout.write(JSON.stringify(measureHere()));

export function formatAutomodCost(cost: AutomodCost): string {
	const ms = ({ median: mid, min, max }: Spread) => `${mid.toFixed(3)} ms (rounds ${min.toFixed(3)}–${max.toFixed(3)})`;
	return (
		`AutoMod: ${cost.rules} keyword rules × ${cost.keywordsPerRule.toLocaleString('en')} keywords, a 300-character question and a 3,000-character answer ` +
		`read per ask, against no rules (median of ${cost.rounds} rounds of ${cost.asksPerRound} asks, in a process of its own): ` +
		`${ms(cost.addedMsPerAsk)} of CPU added per ask (target ≤ 0.1); with 2 regex patterns a rule besides, ${ms(cost.addedMsPerAskWithRegexes)}; ` +
		`rules compiled in ${cost.buildMs.toFixed(0)} ms`
	);
}
