import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	buildContents,
	contentsFor,
	CHARACTER_LIMIT,
	seenBy,
	trimHistory,
	UNSEEN_PROMPT,
	TURN_LIMIT,
	type Turn,
} from '../../../src/conversations/buildContents.js';
import { generationBody } from '../../../src/generation/generationBody.js';
import { characterCount } from '../../../src/text/characterCount.js';

/** A conversation as Veil keeps one: prompt, answer, prompt, answer… */
function exchanges(count: number, size = 10): Turn[] {
	return Array.from({ length: count }, (_, n) => [
		{ role: 'user' as const, text: `P${n + 1}`.padEnd(size, '.') },
		{ role: 'model' as const, text: `A${n + 1}`.padEnd(size, '.') },
	]).flat();
}

const total = (turns: readonly Turn[]) => turns.reduce((sum, turn) => sum + characterCount(turn.text), 0);

/** Whether `kept` is a cut copy of the newest turns: each a beginning of the one it copies, one at least cut. */
function isCutCopy(kept: readonly Turn[], newest: readonly Turn[]): boolean {
	if (kept.length === 0 || !kept.some((turn) => turn.text.endsWith(' […]'))) return false;
	return kept.every((turn, at) => {
		const original = newest[at];
		return (
			original?.role === turn.role &&
			(turn.text === original.text || (turn.text.endsWith(' […]') && original.text.startsWith(turn.text.slice(0, -4))))
		);
	});
}

describe('generationBody', () => {
	it('sends a lone prompt exactly as a single /ask always has: no role', () => {
		expect(generationBody('What is 2+2?')).toBe('{"contents":[{"parts":[{"text":"What is 2+2?"}]}]}');
	});

	it('sends turns with their roles, oldest first', () => {
		const body = generationBody([
			{ role: 'user', text: 'P1' },
			{ role: 'model', text: 'A1' },
			{ role: 'user', text: 'P2' },
		]);
		expect(body).toBe(
			'{"contents":[{"role":"user","parts":[{"text":"P1"}]},{"role":"model","parts":[{"text":"A1"}]},{"role":"user","parts":[{"text":"P2"}]}]}',
		);
	});

	it('keeps any prompt byte for byte in the lone form', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (prompt) => {
				expect(generationBody(prompt)).toBe(JSON.stringify({ contents: [{ parts: [{ text: prompt }] }] }));
				expect(JSON.parse(generationBody(prompt))).toEqual({ contents: [{ parts: [{ text: prompt }] }] });
			}),
		);
	});
});

describe('buildContents', () => {
	it('holds every earlier turn in order, then the new prompt', () => {
		expect(buildContents(exchanges(2, 2), 'P3')).toEqual([
			{ role: 'user', text: 'P1' },
			{ role: 'model', text: 'A1' },
			{ role: 'user', text: 'P2' },
			{ role: 'model', text: 'A2' },
			{ role: 'user', text: 'P3' },
		]);
	});

	it('keeps at most 20 turns, dropping the oldest exchange first', () => {
		// 9 exchanges and the new prompt: 19 turns, all kept.
		expect(buildContents(exchanges(9, 2), 'new')).toHaveLength(19);
		// 10 exchanges: 21 turns would go; the oldest exchange is dropped whole, so the body still opens with a prompt.
		const contents = buildContents(exchanges(10, 3), 'new');
		expect(contents).toHaveLength(19);
		expect(contents[0]).toEqual({ role: 'user', text: 'P2.' });
		expect(contents.at(-2)).toEqual({ role: 'model', text: 'A10' });
		expect(contents.at(-1)).toEqual({ role: 'user', text: 'new' });
	});

	it('keeps at most 16,000 characters, dropping the oldest first', () => {
		// Four exchanges of 2 × 2,000 characters: 16,000, plus the prompt is too many; the first exchange goes.
		const history = exchanges(4, 2000);
		const contents = buildContents(history, 'P5');
		expect(contents.map((turn) => turn.text.slice(0, 2))).toEqual(['P2', 'A2', 'P3', 'A3', 'P4', 'A4', 'P5']);
		expect(total(contents)).toBe(12_002);
		// Exactly at the limit nothing is dropped.
		const exact = exchanges(3, 2000).concat([
			{ role: 'user', text: 'x'.repeat(2000) },
			{ role: 'model', text: 'y'.repeat(1999) },
		]);
		expect(total(buildContents(exact, 'z'))).toBe(CHARACTER_LIMIT);
	});

	it('counts characters as members do: an emoji is one', () => {
		const history: Turn[] = [
			{ role: 'user', text: '😀'.repeat(7000) },
			{ role: 'model', text: '😀'.repeat(8000) },
		];
		// 15,000 characters (30,000 UTF-16 units) and a 1,000-character prompt fit exactly.
		expect(buildContents(history, 'p'.repeat(1000))).toEqual([...history, { role: 'user', text: 'p'.repeat(1000) }]);
		// One more and the exchange is cut to fit: 16,000 characters exactly, each emoji whole.
		const cut = buildContents(history, 'p'.repeat(1001));
		expect(cut).toHaveLength(3);
		expect(total(cut)).toBe(CHARACTER_LIMIT);
		expect(cut[1]?.text).toBe(`${'😀'.repeat(7999 - 4)} […]`);
	});

	it('keeps a cut copy of the newest exchange when it alone is too long, not nothing', () => {
		const history: Turn[] = [...exchanges(2), { role: 'user', text: 'the long one' }, { role: 'model', text: 'a'.repeat(20_000) }];
		const contents = buildContents(history, 'and so?');
		expect(contents.map((turn) => turn.role)).toEqual(['user', 'model', 'user']);
		expect(contents[0]).toEqual({ role: 'user', text: 'the long one' });
		expect(contents[1]?.text).toBe(`${'a'.repeat(CHARACTER_LIMIT - 7 - 12 - 4)} […]`);
		expect(total(contents)).toBe(CHARACTER_LIMIT);
		// A long prompt keeps at most half the room when the answer needs the rest.
		const both = buildContents(
			[
				{ role: 'user', text: 'q'.repeat(10_000) },
				{ role: 'model', text: 'a'.repeat(10_000) },
			],
			'x'.repeat(2000),
		);
		expect(both.map((turn) => characterCount(turn.text))).toEqual([7000, 7000, 2000]);
	});

	it('keeps who asked a prompt out of the body', () => {
		const body = generationBody(
			buildContents(
				[
					{ role: 'user', text: 'P1', by: '42' },
					{ role: 'model', text: 'A1' },
				],
				'P2',
			),
		);
		expect(body).not.toContain('42');
		expect(body).toBe(
			'{"contents":[{"role":"user","parts":[{"text":"P1"}]},{"role":"model","parts":[{"text":"A1"}]},{"role":"user","parts":[{"text":"P2"}]}]}',
		);
	});

	it('sends a prompt too long for any history on its own, still as a user turn', () => {
		expect(buildContents(exchanges(3), 'q'.repeat(CHARACTER_LIMIT + 5))).toEqual([{ role: 'user', text: 'q'.repeat(CHARACTER_LIMIT + 5) }]);
	});

	const turn = fc.record({ role: fc.constantFrom('user' as const, 'model' as const), text: fc.string({ unit: 'grapheme', maxLength: 3000 }) });
	const history = fc.array(turn, { maxLength: 40 });
	const prompt = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 4000 });

	it('always ends with the new prompt, within both limits, as the latest turns opening on a prompt', () => {
		fc.assert(
			fc.property(history, prompt, (earlier, asked) => {
				const contents = buildContents(earlier, asked);
				expect(contents.at(-1)).toEqual({ role: 'user', text: asked });
				expect(contents.length).toBeLessThanOrEqual(TURN_LIMIT);
				expect(total(contents)).toBeLessThanOrEqual(CHARACTER_LIMIT);
				expect(contents[0]?.role).toBe('user');
				const kept = contents.slice(0, -1);
				// The kept turns are the newest ones, in order: only the oldest were dropped, or the newest cut short.
				const newest = earlier.slice(earlier.length - kept.length);
				if (!isCutCopy(kept, newest)) expect(newest).toEqual(kept);
			}),
		);
	});

	it('drops no more than it must: one more exchange would break a limit', () => {
		fc.assert(
			fc.property(history, prompt, (earlier, asked) => {
				const contents = buildContents(earlier, asked).slice(0, -1);
				if (isCutCopy(contents, earlier.slice(earlier.length - contents.length))) return;
				const kept = contents.length;
				const dropped = earlier.slice(0, earlier.length - kept);
				const previousPrompt = dropped.map((t) => t.role).lastIndexOf('user');
				if (previousPrompt < 0) return;
				const longer = earlier.slice(previousPrompt);
				expect(longer.length + 1 > TURN_LIMIT || total(longer) + characterCount(asked) > CHARACTER_LIMIT).toBe(true);
			}),
		);
	});

	it('keeps whole exchanges of a conversation as Veil stores one', () => {
		fc.assert(
			fc.property(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 1, max: 3000 }), prompt, (count, size, asked) => {
				const kept = buildContents(exchanges(count, size), asked).slice(0, -1);
				expect(kept.length % 2).toBe(0);
			}),
		);
	});
});

describe('contentsFor', () => {
	it('sends a lone prompt as it is, and with a conversation or instructions every turn with its role', () => {
		fc.assert(
			fc.property(fc.string(), fc.option(fc.string(), { nil: undefined }), fc.boolean(), (prompt, instructions, inConversation) => {
				const history = inConversation ? [] : undefined;
				const sent = contentsFor(history, prompt, instructions);
				if (history === undefined && instructions === undefined) expect(sent).toBe(prompt);
				else expect(sent).toEqual(buildContents([], prompt, instructions));
			}),
		);
	});
});

describe('trimHistory', () => {
	it('leaves room for what comes after', () => {
		expect(trimHistory(exchanges(15, 2), { turns: TURN_LIMIT - 1, characters: CHARACTER_LIMIT })).toHaveLength(18);
		expect(trimHistory([], { turns: 5, characters: 5 })).toEqual([]);
		expect(trimHistory(exchanges(1, 2), { turns: 0, characters: 100 })).toEqual([]);
	});
});

describe('seenBy', () => {
	it("keeps the member's own prompts and every answer, and puts a placeholder for anyone else's prompt", () => {
		const turns: Turn[] = [
			{ role: 'user', text: 'mine', by: 'me' },
			{ role: 'model', text: 'A1' },
			{ role: 'user', text: 'theirs', by: 'them' },
			{ role: 'model', text: 'A2' },
			{ role: 'user', text: 'nobody knows whose' },
			{ role: 'model', text: 'A3' },
		];
		expect(seenBy(turns, 'me')).toEqual([
			{ role: 'user', text: 'mine', by: 'me' },
			{ role: 'model', text: 'A1' },
			{ role: 'user', text: UNSEEN_PROMPT },
			{ role: 'model', text: 'A2' },
			{ role: 'user', text: UNSEEN_PROMPT },
			{ role: 'model', text: 'A3' },
		]);
	});
});
