import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { automodRuleSchema, type AutomodRule } from '../../../src/automod/automodRule.js';
import { RuleMatcher, type MatchContext } from '../../../src/automod/ruleMatcher.js';

const anywhere: MatchContext = { roleIds: [], channelIds: ['c1'] };

function rule(overrides: Partial<AutomodRule> & { keywords?: string[]; regexes?: string[]; allow?: string[] } = {}) {
	const { keywords = [], regexes = [], allow = [], ...rest } = overrides;
	return automodRuleSchema.parse({
		id: 'r1',
		guild_id: 'g1',
		name: 'Words we keep out',
		event_type: 1,
		trigger_type: 1,
		trigger_metadata: { keyword_filter: keywords, regex_patterns: regexes, allow_list: allow },
		actions: [{ type: 1, metadata: { custom_message: 'Not here, please.' } }],
		enabled: true,
		exempt_roles: [],
		exempt_channels: [],
		...rest,
	});
}

const triggers = (matcher: RuleMatcher, text: string, context = anywhere) => matcher.match(text, context).map((match) => match.trigger);

describe('RuleMatcher: Discord keyword strategies', () => {
	// The examples of discord-api-docs' "Keyword Matching Strategies".
	it.each([
		['cat*', ['catch', 'Catapult', 'CAttLE'], ['wildcat', 'concat', 'dog']],
		['tra*', ['train', 'trade', 'TRAditional'], ['extra', 'ultra']],
		['the mat*', ['the matrix'], ['breathe mat', 'them at']],
		['*cat', ['wildcat', 'copyCat'], ['catch', 'location']],
		['*tra', ['extra', 'ultra', 'orchesTRA'], ['train']],
		['*the mat', ['breathe mat'], ['the matrix']],
		['*cat*', ['location', 'eduCation', 'cat'], ['dog']],
		['*tra*', ['abstracted', 'outrage'], ['tar']],
		['*the mat*', ['breathe matter'], ['the hat']],
		['cat', ['cat', 'a Cat!', 'cat.'], ['catch', 'wildcat', 'location']],
		['train', ['train', 'the train left'], ['trains', 'retrain']],
		['the mat', ['the mat', 'on the mat.'], ['the matrix', 'breathe mat']],
		['i like c++', ['I like C++ a lot'], ['i like c++x']],
	])('%s matches what it should and nothing else', (keyword, matching, notMatching) => {
		const matcher = new RuleMatcher([rule({ keywords: [keyword] })]);
		for (const text of matching) expect(triggers(matcher, text), text).toEqual([keyword]);
		for (const text of notMatching) expect(triggers(matcher, text), text).toEqual([]);
	});

	it('ignores keywords that hold only wildcards or spaces', () => {
		const matcher = new RuleMatcher([rule({ keywords: ['*', '**', ' ', '* *'] })]);
		expect(triggers(matcher, 'anything at all * **')).toEqual([]);
	});

	it('reads words in any script, and accented letters as part of a word', () => {
		const matcher = new RuleMatcher([rule({ keywords: ['café', 'кот'] })]);
		expect(triggers(matcher, 'un CAFÉ noir')).toEqual(['café']);
		expect(triggers(matcher, 'cafés')).toEqual([]);
		expect(triggers(matcher, 'мой КОТ спит')).toEqual(['кот']);
		expect(triggers(matcher, 'котик')).toEqual([]);
	});
});

describe('RuleMatcher: allow list, regexes, exemptions, actions', () => {
	it('lets a word on the allow list through, but not the keyword elsewhere', () => {
		const matcher = new RuleMatcher([rule({ keywords: ['*cat*'], allow: ['category', 'cat*'] })]);
		expect(triggers(matcher, 'pick a category')).toEqual([]);
		expect(triggers(matcher, 'catalogue')).toEqual([]);
		expect(triggers(matcher, 'a category of bobcats')).toEqual(['*cat*']);
	});

	it('applies regex patterns, and the allow list to what they match', () => {
		const matcher = new RuleMatcher([rule({ regexes: ['(b|c)at'], allow: ['bat'] })]);
		expect(triggers(matcher, 'a cat')).toEqual(['(b|c)at']);
		expect(triggers(matcher, 'a bat')).toEqual([]);
		expect(triggers(matcher, 'a bat and a cat')).toEqual(['(b|c)at']);
	});

	it('runs a pattern that backtracks catastrophically elsewhere in linear time', () => {
		const matcher = new RuleMatcher([rule({ regexes: ['(a+)+$', '(x+x+)+y'] })]);
		// A backtracking engine takes longer than the test's time-out on either of these.
		expect(triggers(matcher, `${'a'.repeat(50_000)}!`)).toEqual([]);
		expect(triggers(matcher, 'x'.repeat(50_000))).toEqual([]);
		expect(triggers(matcher, 'aaaa')).toEqual(['(a+)+$']);
	});

	it('leaves out a pattern RE2 cannot read, and names it', () => {
		const matcher = new RuleMatcher([rule({ regexes: ['(?<=a)b', 'b+'] })]);
		expect(matcher.unreadablePatterns).toEqual([{ ruleId: 'r1', pattern: '(?<=a)b' }]);
		expect(triggers(matcher, 'abb')).toEqual(['b+']);
	});

	it('exempts the roles and channels a rule names (a channel exempts its threads)', () => {
		const matcher = new RuleMatcher([rule({ keywords: ['cat'], exempt_roles: ['mods'], exempt_channels: ['pets'] })]);
		expect(triggers(matcher, 'cat', { roleIds: ['mods'], channelIds: ['c1'] })).toEqual([]);
		expect(triggers(matcher, 'cat', { roleIds: [], channelIds: ['thread', 'pets'] })).toEqual([]);
		expect(triggers(matcher, 'cat', { roleIds: ['other'], channelIds: ['c1'] })).toEqual(['cat']);
	});

	it('applies only enabled keyword rules on message sends', () => {
		const rules = [
			rule({ id: 'off', keywords: ['cat'], enabled: false }),
			rule({ id: 'preset', keywords: ['cat'], trigger_type: 4 }),
			rule({ id: 'profile', keywords: ['cat'], event_type: 2 }),
		];
		expect(new RuleMatcher(rules).ruleCount).toBe(0);
		expect(new RuleMatcher(rules).match('cat', anywhere)).toEqual([]);
	});

	it('reports each rule once, with its block, custom message and alert channels', () => {
		const alerting = rule({
			id: 'r2',
			name: 'Alert only',
			keywords: ['dog'],
			actions: [{ type: 2, metadata: { channel_id: 'alerts' } }],
		});
		const matches = new RuleMatcher([rule({ keywords: ['cat', '*at'] }), alerting]).match('cat dog cat', anywhere);
		expect(matches).toEqual([
			{ ruleId: 'r1', ruleName: 'Words we keep out', trigger: 'cat', blocks: true, customMessage: 'Not here, please.', alertChannelIds: [] },
			{ ruleId: 'r2', ruleName: 'Alert only', trigger: 'dog', blocks: false, customMessage: undefined, alertChannelIds: ['alerts'] },
		]);
	});
});

describe('RuleMatcher: the keyword a flag names', () => {
	it('is the one found first in the text; at one place, a word-start keyword before a part-of-word one, then the shorter', () => {
		expect(triggers(new RuleMatcher([rule({ keywords: ['*dog*', 'cat'] })]), 'my cat and dog')).toEqual(['cat']);
		expect(triggers(new RuleMatcher([rule({ keywords: ['*ca*', 'cat'] })]), 'cat')).toEqual(['cat']);
		expect(triggers(new RuleMatcher([rule({ keywords: ['cat', 'ca*'] })]), 'cat')).toEqual(['ca*']);
	});
});

describe('RuleMatcher: properties against a regex oracle', () => {
	const word = fc.stringMatching(/^[a-zé]{1,6}$/);
	const separator = fc.constantFrom(' ', '.', ', ', '\n', '!', '-', '');
	const text = fc.array(fc.tuple(word, separator), { maxLength: 12 }).map((parts) => parts.flat().join(''));
	const strategy = fc.constantFrom('whole', 'prefix', 'suffix', 'anywhere');
	const letter = '[\\p{L}\\p{N}\\p{M}]';

	function oracle(kind: string, body: string, subject: string): boolean {
		const escaped = body.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
		const before = kind === 'whole' || kind === 'prefix' ? `(?<!${letter})` : '';
		const after = kind === 'whole' || kind === 'suffix' ? `(?!${letter})` : '';
		return new RegExp(`${before}${escaped}${after}`, 'iu').test(subject);
	}

	const keywordOf = (kind: string, body: string) => ({ whole: body, prefix: `${body}*`, suffix: `*${body}`, anywhere: `*${body}*` })[kind] as string;

	it('matches exactly where a word-boundary regex does, for every strategy', () => {
		fc.assert(
			fc.property(strategy, word, text, (kind, body, subject) => {
				const matcher = new RuleMatcher([rule({ keywords: [keywordOf(kind, body)] })]);
				expect(triggers(matcher, subject).length === 1).toBe(oracle(kind, body, subject));
			}),
			{ numRuns: 2000 },
		);
	});

	it('ignores case in both the keyword and the text', () => {
		fc.assert(
			fc.property(strategy, word, text, (kind, body, subject) => {
				const lower = new RuleMatcher([rule({ keywords: [keywordOf(kind, body)] })]);
				const upper = new RuleMatcher([rule({ keywords: [keywordOf(kind, body.toUpperCase())] })]);
				expect(triggers(upper, subject.toUpperCase()).length).toBe(triggers(lower, subject).length);
			}),
			{ numRuns: 500 },
		);
	});

	it('finds a keyword of a thousand as surely as the only one', () => {
		fc.assert(
			fc.property(fc.array(word, { minLength: 1, maxLength: 1000 }), text, (words, subject) => {
				const many = new RuleMatcher([rule({ keywords: words })]);
				const hit = words.some((each) => oracle('whole', each, subject));
				expect(triggers(many, subject).length === 1).toBe(hit);
			}),
			{ numRuns: 200 },
		);
	});
});

describe('RuleMatcher: the allow list, against every hit and every entry compared', () => {
	const body = fc.stringMatching(/^[ab]{1,4}$/);
	const strategy = fc.constantFrom('', '*');
	const keyword = fc.tuple(strategy, body, strategy).map(([lead, core, trail]) => `${lead}${core}${trail}`);
	const text = fc.stringMatching(/^[ab ]{0,40}$/);

	/** Every span where a keyword matches, by its strategy, found by trying every place. */
	function spans(keywords: readonly string[], subject: string): Array<{ keyword: string; start: number; end: number; index: number }> {
		const isWord = (at: number) => at >= 0 && at < subject.length && subject[at] !== ' ';
		return keywords.flatMap((each, index) => {
			const lead = each.startsWith('*');
			const trail = each.length > 1 && each.endsWith('*');
			const core = each.slice(lead ? 1 : 0, trail ? -1 : undefined);
			const found = [];
			for (let at = subject.indexOf(core); at >= 0; at = subject.indexOf(core, at + 1)) {
				if (!lead && isWord(at - 1)) continue;
				if (!trail && isWord(at + core.length)) continue;
				found.push({ keyword: each, start: at, end: at + core.length, index });
			}
			return found;
		});
	}

	it('names the first hit no allowed entry covers, or none, as comparing every pair would', () => {
		fc.assert(
			fc.property(fc.array(keyword, { minLength: 1, maxLength: 6 }), fc.array(keyword, { maxLength: 4 }), text, (keywords, allow, subject) => {
				const allowed = spans(allow, subject);
				const open = spans(keywords, subject)
					.filter((hit) => !allowed.some((entry) => entry.start <= hit.start && entry.end >= hit.end))
					.sort(
						(a, b) =>
							a.start - b.start || Number(!b.keyword.startsWith('*')) - Number(!a.keyword.startsWith('*')) || a.end - b.end || a.index - b.index,
					);
				expect(triggers(new RuleMatcher([rule({ keywords, allow })]), subject)).toEqual(open.slice(0, 1).map((hit) => hit.keyword));
			}),
			{ numRuns: 3000 },
		);
	});

	it('reads a text of any length with a window of the longest entry, not a list of every hit', () => {
		const matcher = new RuleMatcher([rule({ keywords: ['*ab*'], allow: ['*ab*'] })]);
		expect(triggers(matcher, 'ab'.repeat(100_000))).toEqual([]);
		expect(triggers(matcher, `${'ab'.repeat(100_000)}`)).toEqual([]);
		const nested = Array.from({ length: 60 }, (_, n) => `*${'a'.repeat(n + 1)}*`);
		const rules = Array.from({ length: 6 }, (_, n) => rule({ id: `r${n}`, keywords: nested }));
		expect(new RuleMatcher(rules).match('a'.repeat(200_000), anywhere)).toHaveLength(6);
	});
});

describe('RuleMatcher: regexes over a long text, read in windows', () => {
	const regexRule = (pattern: string) => new RuleMatcher([rule({ regexes: [pattern] })]);

	it('finds a match anywhere, across where one window ends and the next begins', () => {
		expect(triggers(regexRule('bad$'), `${'x '.repeat(10_000)}bad`)).toEqual(['bad$']);
		expect(triggers(regexRule('b[a4]d'), `${'x'.repeat(8190)}b4d${'x'.repeat(9000)}`)).toEqual(['b[a4]d']);
		expect(triggers(regexRule('^x'), 'x'.repeat(20_000))).toEqual(['^x']);
	});

	it('does not take a window’s edge for the text’s: ^ and $ hold at the text’s ends only', () => {
		expect(triggers(regexRule('^y'), `${'x'.repeat(4096)}y${'x'.repeat(8000)}`)).toEqual([]);
		expect(triggers(regexRule('x$'), `${'x'.repeat(8192)}y`)).toEqual([]);
	});
});

describe('RuleMatcher: the largest rule set Discord allows', () => {
	it('compiles within 16 MB: 6 rules of 1,000 keywords and 100 allow-list entries of 60 characters, and 10 heavy regexes', () => {
		let seed = 1;
		const letter = () => String.fromCharCode(97 + ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % 26));
		const word = () => Array.from({ length: 58 }, letter).join('');
		const rules = Array.from({ length: 6 }, (_, n) =>
			rule({
				id: `r${n}`,
				keywords: Array.from({ length: 1000 }, () => `*${word()}*`),
				allow: Array.from({ length: 100 }, () => `*${word()}*`),
				regexes: Array.from({ length: 10 }, (_, r) => `(?i)[a-z]{1,250}[0-9]${r}`),
			}),
		);
		const matcher = new RuleMatcher(rules);
		expect(matcher.byteLength).toBeLessThanOrEqual(16 * 1024 * 1024);
		expect(matcher.byteLength).toBeGreaterThan(8 * 1024 * 1024);
		expect(triggers(matcher, `x ${rules[3]?.trigger_metadata.keyword_filter?.[500]?.slice(1, -1)} y`)).toHaveLength(1);
	});
});
