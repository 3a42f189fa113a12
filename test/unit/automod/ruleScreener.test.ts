import { afterEach, describe, expect, it } from 'vitest';
import { automodRuleSchema, type AutomodRule } from '../../../src/automod/automodRule.js';
import { RuleScreener, type RuleSet, type Screening } from '../../../src/automod/ruleScreener.js';
import { createLogger } from '../../../src/logging/logger.js';

const logger = createLogger('silent');
const anywhere = { roleIds: [], channelIds: ['c1'] };
const screeners: RuleScreener[] = [];
afterEach(async () => {
	await Promise.all(screeners.splice(0).map((screener) => screener.close()));
});

function screener(options: ConstructorParameters<typeof RuleScreener>[1] = {}): RuleScreener {
	const made = new RuleScreener(logger, options);
	screeners.push(made);
	return made;
}

function rule(id: string, metadata: { keywords?: string[]; allow?: string[]; regexes?: string[] }): AutomodRule {
	return automodRuleSchema.parse({
		id,
		guild_id: 'g1',
		name: `rule ${id}`,
		event_type: 1,
		trigger_type: 1,
		trigger_metadata: { keyword_filter: metadata.keywords ?? [], allow_list: metadata.allow ?? [], regex_patterns: metadata.regexes ?? [] },
		actions: [{ type: 1 }],
		enabled: true,
		exempt_roles: [],
		exempt_channels: [],
	});
}

let version = 0;
const ruleSet = (rules: AutomodRule[], guildId = 'g1'): RuleSet => ({ guildId, version: ++version, rules });

/**
 * The worst a server owner can set within Discord's limits, as issue 32 found it: keywords nested sixty deep in every
 * rule, allowed by the same, and ten regexes that each take the better part of a second over a long text.
 */
function worstRules(): AutomodRule[] {
	const nested = Array.from({ length: 60 }, (_, n) => `*${'a'.repeat(n + 1)}*`);
	const regexes = Array.from({ length: 10 }, (_, n) => `(?i)[a-z]{1,250}[0-9]${n}`);
	return [...Array.from({ length: 5 }, (_, n) => rule(`nested${n}`, { keywords: nested, allow: nested })), rule('regexes', { regexes })];
}

/** Reads, counting the turns of the event loop while the reading is under way. */
async function turnsWhile(reading: Promise<Screening>): Promise<{ screening: Screening; turns: number }> {
	let turns = 0;
	const ticker = setInterval(() => (turns += 1), 1);
	try {
		return { screening: await reading, turns };
	} finally {
		clearInterval(ticker);
	}
}

describe('RuleScreener', () => {
	it('reads the worst rule set on a thread of its own: the event loop turns, and a reading past its budget is refused naming the rule', async () => {
		const rules = worstRules();
		const { screening, turns } = await turnsWhile(screener({ budgetMs: 300 }).screen(ruleSet(rules), 'a'.repeat(200_000), anywhere));
		expect(screening.kind).toBe('tooCostly');
		// The nested keywords or the regexes, whichever the budget ran out on.
		expect(rules.map((each) => [each.id, each.name])).toContainEqual(screening.kind === 'tooCostly' && [screening.ruleId, screening.ruleName]);
		expect(turns).toBeGreaterThan(0);
	});

	it('finds what the rules match, and what they allow lets through', async () => {
		const rules = ruleSet([rule('r1', { keywords: ['*ass*'], allow: ['*class*'] }), rule('r2', { regexes: ['b[a4]d'] })]);
		const reader = screener();
		expect(await reader.screen(rules, `${'class '.repeat(30_000)}`, anywhere)).toEqual({ kind: 'matched', matches: [] });
		const found = await reader.screen(rules, 'a class, an assay and a b4d one', anywhere);
		expect(found.kind === 'matched' && found.matches.map((match) => [match.ruleId, match.trigger])).toEqual([
			['r1', '*ass*'],
			['r2', 'b[a4]d'],
		]);
	});

	it('stops a thread past its hard limit, refuses what it was reading, and reads the next text on a new one', async () => {
		const reader = screener({ budgetMs: 60_000, hardLimitMs: 2500 });
		const regexes = Array.from({ length: 10 }, (_, n) => `(?i)[a-z]{1,250}[0-9]${n}`);
		const costly = await reader.screen(ruleSet([rule('slow', { regexes })]), 'a'.repeat(200_000), anywhere);
		expect(costly).toEqual({ kind: 'tooCostly', ruleId: 'slow', ruleName: 'rule slow' });
		const next = await reader.screen(ruleSet([rule('fruit', { keywords: ['banana'] })], 'g2'), 'a banana', anywhere);
		expect(next.kind === 'matched' && next.matches.map((match) => match.ruleId)).toEqual(['fruit']);
	});

	it('refuses, without reading, a text at least as long as one the same rules were too costly for', async () => {
		const reader = screener({ budgetMs: 100 });
		const rules = ruleSet([rule('regexes', { regexes: ['(?i)[a-z]{1,250}[0-9]0', '(?i)[a-z]{1,250}[0-9]1'] })]);
		expect((await reader.screen(rules, 'a'.repeat(150_000), anywhere)).kind).toBe('tooCostly');
		const { screening, turns } = await turnsWhile(reader.screen(rules, 'a'.repeat(160_000), anywhere));
		expect(screening.kind).toBe('tooCostly');
		// Answered from memory, before a timer could fire.
		expect(turns).toBe(0);
		expect((await reader.screen(rules, 'a short one', anywhere)).kind).toBe('matched');
	});

	it('keeps matchers within its byte budget: a matcher over it is refused, and servers past it are compiled again', async () => {
		const keywords = Array.from({ length: 1000 }, (_, n) => `*${n.toString(36)}${'x'.repeat(50)}*`);
		const tight = screener({ matcherBytes: 64 * 1024 });
		expect(await tight.screen(ruleSet([rule('small', { keywords: ['pear'] }), rule('large', { keywords })]), 'text', anywhere)).toEqual({
			kind: 'tooCostly',
			ruleId: 'large',
			ruleName: 'rule large',
		});
		const small = screener({ cacheBytes: 1 });
		const first = ruleSet([rule('one', { keywords: ['apple'] })], 'a');
		const second = ruleSet([rule('two', { keywords: ['pear'] })], 'b');
		for (let round = 0; round < 3; round += 1) {
			const one = await small.screen(first, 'an apple', anywhere);
			const two = await small.screen(second, 'a pear', anywhere);
			expect([one, two].map((each) => each.kind === 'matched' && each.matches.map((match) => match.ruleId))).toEqual([['one'], ['two']]);
		}
	});
});
