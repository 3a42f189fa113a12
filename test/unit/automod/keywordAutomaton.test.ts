import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileAutomaton } from '../../../src/automod/keywordAutomaton.js';

/** Every [keyword index, end] where a keyword occurs in the text, found by looking at every position. */
function naive(bodies: readonly string[], text: string): Array<[number, number]> {
	const found: Array<[number, number]> = [];
	bodies.forEach((body, index) => {
		for (let at = text.indexOf(body); at >= 0; at = text.indexOf(body, at + 1)) found.push([index, at + body.length]);
	});
	return found.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

function scanned(bodies: readonly string[], text: string, denseEntries?: number): Array<[number, number]> {
	const automaton = compileAutomaton(
		bodies.map((body, index) => ({ body, value: index })),
		denseEntries,
	);
	const found: Array<[number, number]> = [];
	automaton.scan(text, (index, end) => found.push([index, end]));
	return found.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

describe('compileAutomaton', () => {
	// A small alphabet, so that keywords overlap, nest and share prefixes and suffixes; é and 😀 are past ASCII.
	const body = fc.stringMatching(/^(?:[abc ]|é|😀){1,5}$/);
	const text = fc.stringMatching(/^(?:[abcd ]|é|😀){0,40}$/);

	it('reports every occurrence of every keyword, overlapping and nested ones included', () => {
		fc.assert(
			fc.property(fc.array(body, { minLength: 1, maxLength: 30 }), text, (bodies, subject) => {
				expect(scanned(bodies, subject)).toEqual(naive(bodies, subject));
			}),
			{ numRuns: 1000 },
		);
	});

	it('finds the same with a table too small for all its states (the deeper ones keep their own transitions)', () => {
		fc.assert(
			fc.property(fc.array(body, { minLength: 1, maxLength: 30 }), text, fc.integer({ min: 1, max: 40 }), (bodies, subject, entries) => {
				expect(scanned(bodies, subject, entries)).toEqual(naive(bodies, subject));
			}),
			{ numRuns: 1000 },
		);
	});

	it('reports a keyword listed twice once for each listing', () => {
		expect(scanned(['ab', 'ab'], 'xabx')).toEqual([
			[0, 3],
			[1, 3],
		]);
	});
});
