import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { automodRuleSchema } from '../src/automod/automodRule.js';
import { RuleMatcher, RulesTooCostly } from '../src/automod/ruleMatcher.js';
import { RuleScreener } from '../src/automod/ruleScreener.js';
import { createLogger } from '../src/logging/logger.js';

/** The worst AutoMod rule set issue 32 found, read against 200,000 characters: what the bot's event loop loses. */
export interface AutomodWorst {
	readonly characters: number;
	/** How the screener answered, and after how long. */
	readonly outcome: string;
	readonly elapsedMs: number;
	/** The event loop's longest block while the screener read (a 1 ms timer's longest gap past its period). */
	readonly longestBlockMs: number;
	/** The same rules read on the event loop itself (as before issue 32), stopped at the screener's hard limit. */
	readonly onTheLoopMs: number;
}

const CHARACTERS = 200_000;
const ON_THE_LOOP_LIMIT_MS = 10_000;

function worstRules() {
	const nested = Array.from({ length: 60 }, (_, n) => `*${'a'.repeat(n + 1)}*`);
	const rule = (id: string, metadata: Record<string, string[]>) =>
		automodRuleSchema.parse({
			id,
			guild_id: 'g',
			name: id,
			event_type: 1,
			trigger_type: 1,
			trigger_metadata: metadata,
			actions: [{ type: 1 }],
			enabled: true,
			exempt_roles: [],
			exempt_channels: [],
		});
	return [
		...Array.from({ length: 5 }, (_, n) => rule(`nested keywords ${n + 1}`, { keyword_filter: nested, allow_list: nested })),
		rule('ten regexes', { regex_patterns: Array.from({ length: 10 }, (_, n) => `(?i)[a-z]{1,250}[0-9]${n}`) }),
	];
}

async function measureHere(): Promise<AutomodWorst> {
	const rules = worstRules();
	const text = 'a'.repeat(CHARACTERS);
	const context = { roleIds: [], channelIds: [] };
	const screener = new RuleScreener(createLogger('silent'));
	// A first reading starts the thread and compiles the rules; the second is the one an ask meets.
	await screener.screen({ guildId: 'g', version: 1, rules }, 'warm up', context);
	let last = performance.now();
	let longest = 0;
	const ticker = setInterval(() => {
		const now = performance.now();
		longest = Math.max(longest, now - last - 1);
		last = now;
	}, 1);
	const started = performance.now();
	const screening = await screener.screen({ guildId: 'g', version: 1, rules }, text, context);
	const elapsedMs = performance.now() - started;
	clearInterval(ticker);
	await screener.close();
	const onLoop = performance.now();
	try {
		new RuleMatcher(rules).match(text, context, { deadline: onLoop + ON_THE_LOOP_LIMIT_MS });
	} catch (error) {
		if (!(error instanceof RulesTooCostly)) throw error;
	}
	return {
		characters: CHARACTERS,
		outcome: screening.kind === 'tooCostly' ? `too costly (${screening.ruleName})` : `${screening.matches.length} rules matched`,
		elapsedMs,
		longestBlockMs: longest,
		onTheLoopMs: performance.now() - onLoop,
	};
}

/** Measured in a process of its own. */
export async function measureAutomodWorst(): Promise<AutomodWorst> {
	const { stdout } = await promisify(execFile)(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--measure-here']);
	return JSON.parse(stdout) as AutomodWorst;
}

if (process.argv.includes('--measure-here')) process.stdout.write(JSON.stringify(await measureHere()));

export function formatAutomodWorst(worst: AutomodWorst): string {
	return (
		`AutoMod, the worst rule set (5 rules of 60 nested keywords allowed by the same, 10 heavy regexes) against ` +
		`${worst.characters.toLocaleString('en')} characters: ${worst.outcome} after ${worst.elapsedMs.toFixed(0)} ms; the event loop's longest block ` +
		`${worst.longestBlockMs.toFixed(1)} ms (target ≤ 50); read on the loop instead: ${worst.onTheLoopMs.toFixed(0)} ms held`
	);
}
