import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HARM_CATEGORIES, generationResponseSchema, type GenerationResponse, type SafetyRating } from '../../../src/generation/generationResponse.js';
import { categoryLabel, describeRatings, flaggedRatings } from '../../../src/replies/ratingLabels.js';
import { judgeResponse, type HideReason, type RatingLine, type Verdict } from '../../../src/generation/safetyVerdict.js';
import { t } from '../../../src/i18n/translate.js';

const safeRatings = (): SafetyRating[] => HARM_CATEGORIES.map((category) => ({ category, probability: 'NEGLIGIBLE' }));

function safeResponse(): GenerationResponse {
	return {
		candidates: [
			{
				content: { parts: [{ text: 'Hello ' }, { text: 'there.' }], role: 'model' },
				finishReason: 'STOP',
				index: 0,
				safetyRatings: safeRatings(),
			},
		],
		promptFeedback: { safetyRatings: safeRatings() },
	};
}

type Mutation = (response: GenerationResponse) => void;
const reply = (response: GenerationResponse) => response.candidates![0]!;
const prompt = (response: GenerationResponse) => response.promptFeedback!;
const first = (): SafetyRating => ({ category: HARM_CATEGORIES[0], probability: 'NEGLIGIBLE' });
const civic = (): SafetyRating => ({ category: 'HARM_CATEGORY_CIVIC_INTEGRITY', probability: 'NEGLIGIBLE' });

const missing = 'category-missing';
const hideCases: [string, Mutation, HideReason[]][] = [
	['no promptFeedback', (r) => delete r.promptFeedback, ['prompt-ratings-missing']],
	['promptFeedback without ratings', (r) => delete prompt(r).safetyRatings, ['prompt-ratings-missing']],
	['empty prompt ratings', (r) => (prompt(r).safetyRatings = []), ['category-missing']],
	['no candidates member', (r) => delete r.candidates, ['no-candidate']],
	['empty candidates', (r) => (r.candidates = []), ['no-candidate']],
	['reply without ratings', (r) => delete reply(r).safetyRatings, ['reply-ratings-missing']],
	['empty reply ratings', (r) => (reply(r).safetyRatings = []), ['category-missing']],
	['prompt missing a category', (r) => prompt(r).safetyRatings!.pop(), ['category-missing']],
	['reply missing a category', (r) => reply(r).safetyRatings!.shift(), ['category-missing']],
	['prompt with a category twice', (r) => prompt(r).safetyRatings!.push(first()), ['category-duplicated']],
	['reply with one twice, one missing', (r) => (reply(r).safetyRatings![1] = first()), [missing, 'category-duplicated']],
	['an extra unknown category', (r) => reply(r).safetyRatings!.push(civic()), ['unknown-category']],
	['an unknown category instead of one', (r) => (prompt(r).safetyRatings![3] = civic()), [missing, 'unknown-category']],
	...['LOW', 'MEDIUM', 'HIGH', 'negligible', 'NEGLIGIBLE ', '', 'HARM_PROBABILITY_UNSPECIFIED', 'SAFE'].map(
		(probability): [string, Mutation, HideReason[]] => [
			`reply probability ${JSON.stringify(probability)}`,
			(r) => (reply(r).safetyRatings![2]!.probability = probability),
			['not-negligible'],
		],
	),
	['prompt probability LOW', (r) => (prompt(r).safetyRatings![0]!.probability = 'LOW'), ['not-negligible']],
	['prompt rating blocked', (r) => (prompt(r).safetyRatings![3]!.blocked = true), ['blocked']],
	['reply rating blocked', (r) => (reply(r).safetyRatings![0]!.blocked = true), ['blocked']],
	['blockReason SAFETY', (r) => (prompt(r).blockReason = 'SAFETY'), ['block-reason']],
	['blockReason OTHER', (r) => (prompt(r).blockReason = 'OTHER'), ['block-reason']],
	['blockReason empty string', (r) => (prompt(r).blockReason = ''), ['block-reason']],
	['no finishReason', (r) => delete reply(r).finishReason, ['finish-reason']],
	...['SAFETY', 'RECITATION', 'OTHER', 'FINISH_REASON_UNSPECIFIED', 'stop', '', 'BLOCKLIST'].map((finishReason): [string, Mutation, HideReason[]] => [
		`finishReason ${JSON.stringify(finishReason)}`,
		(r) => (reply(r).finishReason = finishReason),
		['finish-reason'],
	]),
];

describe('judgeResponse', () => {
	it('shows a fully safe reply, its parts joined', () => {
		expect(judgeResponse(safeResponse())).toEqual({ kind: 'shown', text: 'Hello there.', cutShort: false });
	});

	it('shows a MAX_TOKENS reply marked as cut short', () => {
		const response = safeResponse();
		reply(response).finishReason = 'MAX_TOKENS';
		expect(judgeResponse(response)).toEqual({ kind: 'shown', text: 'Hello there.', cutShort: true });
	});

	it('shows a safe reply with blocked: false', () => {
		const response = safeResponse();
		for (const rating of reply(response).safetyRatings!) rating.blocked = false;
		expect(judgeResponse(response).kind).toBe('shown');
	});

	it('shows a safe reply without text as empty text', () => {
		const response = safeResponse();
		delete reply(response).content;
		expect(judgeResponse(response)).toEqual({ kind: 'shown', text: '', cutShort: false });
	});

	it('judges only the first candidate', () => {
		const response = safeResponse();
		response.candidates!.push({ finishReason: 'SAFETY', safetyRatings: [] });
		expect(judgeResponse(response).kind).toBe('shown');
		response.candidates!.reverse();
		expect(judgeResponse(response).kind).toBe('hidden');
	});

	it.each(hideCases)('hides: %s', (_name, mutate, reasons) => {
		const response = safeResponse();
		mutate(response);
		const verdict = judgeResponse(response);
		expect(verdict.kind).toBe('hidden');
		if (verdict.kind === 'hidden') expect(verdict.reasons).toEqual(reasons);
	});

	it('lists every rating of both lists, in order, with the reasons', () => {
		const response = safeResponse();
		reply(response).safetyRatings![1] = { category: 'HARM_CATEGORY_HATE_SPEECH', probability: 'MEDIUM', blocked: true };
		reply(response).finishReason = 'SAFETY';
		prompt(response).blockReason = 'OTHER';
		const verdict = judgeResponse(response);
		expect(verdict).toEqual({
			kind: 'hidden',
			reasons: ['not-negligible', 'blocked', 'block-reason', 'finish-reason'],
			ratings: [
				...HARM_CATEGORIES.map((category) => ({ source: 'prompt', category, probability: 'NEGLIGIBLE', blocked: false })),
				...HARM_CATEGORIES.map((category, i) =>
					i === 1
						? { source: 'reply', category, probability: 'MEDIUM', blocked: true }
						: { source: 'reply', category, probability: 'NEGLIGIBLE', blocked: false },
				),
			],
			finishReason: 'SAFETY',
			blockReason: 'OTHER',
		});
	});

	it('reports a prompt blocked before any candidate', () => {
		const verdict = judgeResponse({ promptFeedback: { blockReason: 'SAFETY', safetyRatings: safeRatings() } });
		expect(verdict).toMatchObject({
			kind: 'hidden',
			reasons: ['no-candidate', 'block-reason'],
			finishReason: undefined,
			blockReason: 'SAFETY',
		});
	});
});

describe('rating labels', () => {
	it('names the four categories and keeps others verbatim', () => {
		expect(HARM_CATEGORIES.map((category) => categoryLabel(category, 'en-US'))).toEqual([
			'Sexually explicit',
			'Hate speech',
			'Harassment',
			'Dangerous content',
		]);
		// Shown as sent, with Discord markdown escaped: the underscores display as underscores, not italics.
		expect(categoryLabel('HARM_CATEGORY_CIVIC_INTEGRITY', 'en-US')).toBe('HARM\\_CATEGORY\\_CIVIC\\_INTEGRITY');
		expect(categoryLabel('toString', 'en-US')).toBe('(unrecognised)');
		expect(categoryLabel('', 'en-US')).toBe('(empty)');
	});

	it('shows nothing but an enum-like value, so a label can neither format nor link', () => {
		const [label] = describeRatings([{ source: 'reply', category: 'X', probability: '**[click](https://example.com)**', blocked: false }], 'en-US');
		expect(label).toBe('X: (unrecognised) (reply)');
		expect(categoryLabel('[HARM](https://evil.example)', 'en-US')).toBe('(unrecognised)');
		expect(categoryLabel('<@123456789012345678>', 'en-US')).toBe('(unrecognised)');
		expect(categoryLabel('😀'.repeat(100), 'en-US')).toBe('(unrecognised)');
		expect(categoryLabel('A'.repeat(64), 'en-US')).toBe('A'.repeat(64));
		expect(categoryLabel('A'.repeat(65), 'en-US')).toBe('(unrecognised)');
	});

	it('shows any string as a fixed label or letters, digits and (escaped) underscores only', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (value) => {
				expect(categoryLabel(value, 'en-US')).toMatch(/^(\(empty\)|\(unrecognised\)|[A-Za-z0-9 ]+|([A-Z0-9]|\\_)+)$/);
			}),
		);
	});

	it('describes each line with its probability and source', () => {
		const lines: RatingLine[] = [
			{ source: 'reply', category: 'HARM_CATEGORY_HARASSMENT', probability: 'MEDIUM', blocked: false },
			{ source: 'prompt', category: 'HARM_CATEGORY_HATE_SPEECH', probability: 'NEGLIGIBLE', blocked: true },
			{ source: 'reply', category: 'NEW_THING', probability: '', blocked: false },
		];
		expect(describeRatings(lines, 'en-US')).toEqual([
			'Harassment: MEDIUM (reply)',
			'Hate speech: NEGLIGIBLE, blocked (prompt)',
			'NEW\\_THING: (empty) (reply)',
		]);
		// In German: each line by where it was rated and whether it was blocked, the category's German name within.
		const inGerman = describeRatings(lines, 'de');
		expect(inGerman).toEqual([
			t('de', 'members.ratings.inReply', { category: t('de', 'members.ratings.categories.HARM_CATEGORY_HARASSMENT'), probability: 'MEDIUM' }),
			t('de', 'members.ratings.inPromptBlocked', {
				category: t('de', 'members.ratings.categories.HARM_CATEGORY_HATE_SPEECH'),
				probability: 'NEGLIGIBLE',
			}),
			t('de', 'members.ratings.inReply', { category: 'NEW\\_THING', probability: t('de', 'members.ratings.empty') }),
		]);
		expect(inGerman[1]).toMatch(/^Hassrede: NEGLIGIBLE, blockiert \(/);
		expect(flaggedRatings(lines)).toEqual(lines);
		expect(flaggedRatings([{ ...lines[1]!, blocked: false }])).toEqual([]);
	});
});

const unsafe = fc.oneof(fc.constantFrom('LOW', 'MEDIUM', 'HIGH', 'negligible', 'Negligible', ' NEGLIGIBLE', ''), fc.string());
const probability = fc.oneof({ weight: 2, arbitrary: fc.constant('NEGLIGIBLE') }, { weight: 1, arbitrary: unsafe });
const category = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...HARM_CATEGORIES) }, { weight: 1, arbitrary: fc.string() });
const rating: fc.Arbitrary<SafetyRating> = fc.record({ category, probability, blocked: fc.boolean() }, { requiredKeys: ['category', 'probability'] });
/** A safe response in some rating order, then up to three changes: about a third of these stay safe. */
const responses: fc.Arbitrary<GenerationResponse> = fc
	.record({
		promptOrder: fc.shuffledSubarray([...HARM_CATEGORIES], { minLength: 4 }),
		replyOrder: fc.shuffledSubarray([...HARM_CATEGORIES], { minLength: 4 }),
		finishReason: fc.constantFrom('STOP', 'MAX_TOKENS'),
		text: fc.string(),
		changes: fc.array(
			fc.record({
				list: fc.constantFrom('prompt', 'reply'),
				index: fc.nat(3),
				op: fc.constantFrom(
					...['probability', 'block', 'drop', 'duplicate', 'add', 'replace', 'unset'],
					...['finish', 'noFinish', 'blockReason', 'noCandidate', 'secondCandidate', 'noFeedback'],
				),
				value: unsafe,
				ratings: fc.array(rating, { maxLength: 5 }),
			}),
			{ maxLength: 3 },
		),
	})
	.map(({ promptOrder, replyOrder, finishReason, text, changes }) => {
		const response: GenerationResponse = {
			candidates: [
				{
					content: { parts: [{ text }] },
					finishReason,
					safetyRatings: replyOrder.map((name) => ({ category: name, probability: 'NEGLIGIBLE' })),
				},
			],
			promptFeedback: { safetyRatings: promptOrder.map((name) => ({ category: name, probability: 'NEGLIGIBLE' })) },
		};
		for (const { list, index, op, value, ratings } of changes) {
			const holder = list === 'prompt' ? response.promptFeedback : response.candidates?.[0];
			const current = holder?.safetyRatings ?? [];
			const target = current[index % Math.max(current.length, 1)];
			if (op === 'probability' && target && value !== 'NEGLIGIBLE') target.probability = value;
			if (op === 'block' && target) target.blocked = true;
			if (op === 'drop') current.splice(index, 1);
			if (op === 'duplicate' && target) current.push({ ...target });
			if (op === 'add') current.push({ category: value, probability: 'NEGLIGIBLE' });
			if (op === 'replace' && holder) holder.safetyRatings = ratings;
			if (op === 'unset' && holder) delete holder.safetyRatings;
			if (op === 'finish' && response.candidates?.[0]) response.candidates[0].finishReason = value;
			if (op === 'noFinish' && response.candidates?.[0]) delete response.candidates[0].finishReason;
			if (op === 'blockReason' && response.promptFeedback) response.promptFeedback.blockReason = value;
			if (op === 'noCandidate' && response.promptFeedback) response.candidates = [];
			if (op === 'secondCandidate') response.candidates?.push({ finishReason: value, safetyRatings: ratings });
			if (op === 'noFeedback' && response.candidates?.length) delete response.promptFeedback;
		}
		return generationResponseSchema.parse(response);
	});

const allRatings = (r: GenerationResponse) => [...(r.promptFeedback?.safetyRatings ?? []), ...(r.candidates?.[0]?.safetyRatings ?? [])];
const coversFourNegligible = (ratings: SafetyRating[] | undefined) =>
	ratings !== undefined &&
	ratings.length === HARM_CATEGORIES.length &&
	HARM_CATEGORIES.every((c) => ratings.filter((r) => r.category === c && r.probability === 'NEGLIGIBLE').length === 1);

function sortedLines(verdict: Verdict): Verdict {
	if (verdict.kind === 'shown') return verdict;
	const key = (line: RatingLine) => JSON.stringify(line);
	const ratings = [...verdict.ratings].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
	return { ...verdict, ratings };
}

describe('judgeResponse properties', () => {
	it('shows some and hides some of the generated responses', () => {
		const kinds = fc.sample(responses, { numRuns: 1000, seed: 7 }).map((r) => judgeResponse(r).kind);
		const shown = kinds.filter((kind) => kind === 'shown').length;
		expect(shown).toBeGreaterThan(100);
		expect(shown).toBeLessThan(900);
	});

	it('never shows a reply with any rating other than NEGLIGIBLE, or blocked', () => {
		fc.assert(
			fc.property(responses, (response) => {
				if (allRatings(response).some((r) => r.probability !== 'NEGLIGIBLE' || r.blocked === true)) {
					expect(judgeResponse(response).kind).toBe('hidden');
				}
			}),
			{ numRuns: 2000 },
		);
	});

	it('shows only replies whose two lists each cover the four categories at NEGLIGIBLE', () => {
		fc.assert(
			fc.property(responses, (response) => {
				if (judgeResponse(response).kind !== 'shown') return;
				expect(coversFourNegligible(response.promptFeedback?.safetyRatings)).toBe(true);
				expect(coversFourNegligible(response.candidates?.[0]?.safetyRatings)).toBe(true);
				expect(response.promptFeedback?.blockReason).toBeUndefined();
				expect(['STOP', 'MAX_TOKENS']).toContain(response.candidates?.[0]?.finishReason);
			}),
			{ numRuns: 2000 },
		);
	});

	it('does not depend on the order of the ratings', () => {
		const shuffled = <T>(items: T[] | undefined) =>
			items === undefined ? fc.constant(undefined) : fc.shuffledSubarray(items, { minLength: items.length });
		const pairs = responses.chain((original) =>
			fc
				.tuple(shuffled(original.promptFeedback?.safetyRatings), shuffled(original.candidates?.[0]?.safetyRatings))
				.map(([promptRatings, replyRatings]) => {
					const permuted = structuredClone(original);
					if (permuted.promptFeedback && promptRatings) permuted.promptFeedback.safetyRatings = promptRatings;
					if (permuted.candidates?.[0] && replyRatings) permuted.candidates[0].safetyRatings = replyRatings;
					return [original, permuted] as const;
				}),
		);
		fc.assert(
			fc.property(pairs, ([original, permuted]) => {
				expect(sortedLines(judgeResponse(permuted))).toEqual(sortedLines(judgeResponse(original)));
			}),
			{ numRuns: 1000 },
		);
	});

	it('never throws on any body the schema accepts', () => {
		const loose = fc.record({ candidates: fc.array(fc.anything(), { maxLength: 2 }), promptFeedback: fc.anything() });
		fc.assert(
			fc.property(fc.oneof(responses, loose, fc.anything()), (body) => {
				const parsed = generationResponseSchema.safeParse(body);
				if (!parsed.success) return;
				const verdict = judgeResponse(parsed.data);
				expect(['shown', 'hidden']).toContain(verdict.kind);
				if (verdict.kind === 'hidden') describeRatings(flaggedRatings(verdict.ratings), 'en-US');
			}),
			{ numRuns: 1000 },
		);
	});
});
