import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MESSAGE_LIMIT, splitReply } from '../../../src/replies/splitReply.js';

const FENCE_LINE = /^ {0,3}`{3,}/;
const fenceLines = (chunk: string) => chunk.split('\n').filter((line) => FENCE_LINE.test(line)).length;
const nonSpace = (text: string) => text.replace(/\s+/g, '');
const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

interface Span {
	start: number;
	end: number;
}

/**
 * Finds where each chunk's own text sits in the original, undoing the fence lines the splitter added: a chunk that
 * begins inside a block starts with a reopening line, and one that ends inside a block ends with a closing one. The
 * output alone cannot tell an added close from a real one, so both readings are tried against the original. Between
 * two chunks only whitespace may be missing. Returns null when the chunks are not the original cut at whitespace.
 */
function locate(original: string, chunks: string[]): Span[] | null {
	const failed = new Set<string>();
	const go = (index: number, pos: number, open: boolean): Span[] | null => {
		if (index === chunks.length) return original.slice(pos).trim() === '' ? [] : null;
		const key = `${index}:${pos}:${open}`;
		if (failed.has(key)) return null;
		let body = chunks[index]!;
		if (open) {
			const firstLine = body.split('\n', 1)[0]!;
			if (!FENCE_LINE.test(firstLine) || !body.includes('\n')) return null;
			body = body.slice(firstLine.length + 1);
		}
		const readings: { content: string; endsOpen: boolean }[] = [{ content: body, endsOpen: false }];
		const lastBreak = body.lastIndexOf('\n');
		if (lastBreak !== -1 && FENCE_LINE.test(body.slice(lastBreak + 1))) {
			readings.push({ content: body.slice(0, lastBreak), endsOpen: true });
		}
		for (const { content, endsOpen } of readings) {
			if ((open !== (fenceLines(content) % 2 === 1)) !== endsOpen) continue;
			// Only whitespace may lie between the previous chunk's text and this one's.
			for (let at = pos; at <= original.length && (at === pos || /\s/.test(original[at - 1]!)); at++) {
				if (!original.startsWith(content, at)) continue;
				const rest = go(index + 1, at + content.length, endsOpen);
				if (rest !== null) return [{ start: at, end: at + content.length }, ...rest];
			}
		}
		failed.add(key);
		return null;
	};
	return go(0, 0, false);
}

function checkInvariants(text: string, limit: number): string[] {
	const chunks = splitReply(text, limit);
	for (const chunk of chunks) {
		expect(chunk.length).toBeLessThanOrEqual(limit);
		expect(chunk.trim()).not.toBe('');
		expect(chunk).toBe(chunk.trim());
		expect(fenceLines(chunk) % 2).toBe(0);
		expect(isLow(chunk.charCodeAt(0))).toBe(false);
		expect(isHigh(chunk.charCodeAt(chunk.length - 1))).toBe(false);
	}
	const spans = locate(text, chunks);
	expect(spans).not.toBeNull();
	const kept = spans!.map(({ start, end }) => text.slice(start, end)).join('');
	expect(nonSpace(kept)).toBe(nonSpace(text));
	return chunks;
}

describe('splitReply', () => {
	it('returns nothing for empty or blank text', () => {
		expect(splitReply('')).toEqual([]);
		expect(splitReply(' \n\t\n  ')).toEqual([]);
	});

	it('keeps text of exactly the limit as one message', () => {
		const text = 'x'.repeat(MESSAGE_LIMIT);
		expect(splitReply(text)).toEqual([text]);
		expect(splitReply(`\n  ${text}  \n`)).toEqual([text]);
	});

	it('splits 2001 characters at the paragraph break', () => {
		const first = `${'word '.repeat(299)}end.`;
		const second = `${'more '.repeat(99)}done.`;
		const text = `${first}\n\n${second}`;
		expect(text).toHaveLength(2001);
		expect(splitReply(text)).toEqual([first, second]);
	});

	it('prefers a line break, then a space, when no paragraph break fits', () => {
		const lines = `${'a'.repeat(1500)}\n${'b'.repeat(400)} ${'c'.repeat(300)}`;
		expect(splitReply(lines)).toEqual(['a'.repeat(1500), `${'b'.repeat(400)} ${'c'.repeat(300)}`]);
		const words = `${'a'.repeat(1500)} ${'b'.repeat(400)} ${'c'.repeat(300)}`;
		expect(splitReply(words)).toEqual([`${'a'.repeat(1500)} ${'b'.repeat(400)}`, 'c'.repeat(300)]);
	});

	it('passes over an early paragraph break for a later line break', () => {
		const text = `Title\n\n${'a'.repeat(1500)}\n${'b'.repeat(1000)}`;
		expect(splitReply(text)).toEqual([`Title\n\n${'a'.repeat(1500)}`, 'b'.repeat(1000)]);
	});

	it('cuts a word longer than a message, but not inside a surrogate pair', () => {
		expect(splitReply('z'.repeat(4500))).toEqual(['z'.repeat(2000), 'z'.repeat(2000), 'z'.repeat(500)]);
		const emoji = `a${'😀'.repeat(1500)}`;
		const chunks = splitReply(emoji);
		expect(chunks.map((chunk) => chunk.length)).toEqual([1999, 1002]);
		expect(chunks.join('')).toBe(emoji);
	});

	it('does not start a message with ``` in the middle of a line', () => {
		const chunks = splitReply(`${'a'.repeat(32)}\`\`\`${'b'.repeat(10)}`, 32);
		expect(chunks).toEqual(['a'.repeat(31), `a\`\`\`${'b'.repeat(10)}`]);
	});

	it('closes a code block at a split and reopens it with its language', () => {
		const code = Array.from({ length: 150 }, (_, i) => `    const value${i} = ${i};`).join('\n');
		const text = `Here:\n\n\`\`\`typescript\n${code}\n\`\`\`\n\nDone.`;
		const chunks = checkInvariants(text, MESSAGE_LIMIT);
		expect(chunks.length).toBeGreaterThan(1);
		expect(chunks[0]).toMatch(/^Here:\n\n```typescript\n {4}const value0 = 0;\n/);
		expect(chunks[0]).toMatch(/;\n```$/);
		expect(chunks[1]).toMatch(/^```typescript\n {4}const value\d+ = \d+;\n/);
		expect(chunks.at(-1)).toMatch(/\n```\n\nDone\.$/);
	});

	it('closes a block the text leaves open', () => {
		expect(splitReply('```py\nprint(1)')).toEqual(['```py\nprint(1)\n```']);
	});

	it('reopens an overlong fence line bare', () => {
		const fence = `\`\`\`${'x'.repeat(10)}`;
		const chunks = checkInvariants(`${fence}\n${'line\n'.repeat(10)}\`\`\``, 20);
		expect(chunks[1]).toMatch(/^```\n/);
	});

	it('rejects a limit too small to hold a reopened fence', () => {
		expect(() => splitReply('text', 15)).toThrow(RangeError);
		expect(() => splitReply('text', 100.5)).toThrow(RangeError);
	});
});

const glyph = fc.constantFrom('a', 'b', 'Z', '9', 'é', '中', '😀', '👩‍💻', '🇫🇷', '.', '`', '#');
const word = fc.string({ unit: glyph, minLength: 1, maxLength: 10 });
const longWord = fc.string({ unit: glyph, minLength: 20, maxLength: 200 });
const anyWord = fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }).filter((w) => w.trim() !== '');
const space = fc.constantFrom(' ', '  ', '\t', '\n', '\n\n', '\n\n\n', ' \n ', '\r\n', '\n    ');
const fence = fc.constantFrom('', 'ts', 'python', 'c++', 'a-very-long-language-name').map((language) => `\n\`\`\`${language}\n`);
const token = fc.oneof(
	{ weight: 10, arbitrary: word },
	{ weight: 8, arbitrary: space },
	{ weight: 1, arbitrary: longWord },
	{ weight: 2, arbitrary: anyWord },
	{ weight: 2, arbitrary: fence },
);
const text = fc.array(token, { maxLength: 150, size: 'max' }).map((tokens) => tokens.join(''));
const shortText = fc.array(token, { maxLength: 30 }).map((tokens) => tokens.join(''));
const limit = fc.integer({ min: 16, max: 120 });
/** Text a little under or over Discord's limit, built from the same pieces. */
const nearLimit = fc.tuple(fc.array(token, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1900, max: 2100 })).map(([tokens, length]) => {
	let out = '';
	for (let i = 0; out.length < length; i++) out += tokens[i % tokens.length] || 'x';
	return out;
});

describe('splitReply properties', () => {
	it('keeps every message within the limit, non-blank, fenced in pairs and whole in its characters', () => {
		fc.assert(fc.property(text, limit, (input, max) => void checkInvariants(input, max)));
	});

	it('holds near Discord’s own limit', () => {
		fc.assert(
			fc.property(nearLimit, (input) => void checkInvariants(input, MESSAGE_LIMIT)),
			{ numRuns: 60 },
		);
	});

	it('returns nothing exactly when the text is blank', () => {
		fc.assert(
			fc.property(text, limit, (input, max) => {
				expect(splitReply(input, max).length === 0).toBe(input.trim() === '');
			}),
		);
	});

	it('leaves text that fits, without fences, as it is', () => {
		const plain = shortText.map((s) => s.replaceAll('`', "'"));
		fc.assert(
			fc.property(plain, limit, (input, max) => {
				fc.pre(input.trim() !== '' && input.trim().length <= max);
				expect(splitReply(input, max)).toEqual([input.trim()]);
			}),
		);
	});

	it('cuts inside a word only when no whitespace fits', () => {
		const plain = text.map((s) => s.replaceAll('`', "'"));
		fc.assert(
			fc.property(plain, limit, (input, max) => {
				const spans = locate(input, splitReply(input, max))!;
				for (const { start, end } of spans.slice(0, -1)) {
					if (/\s/.test(input[end]!)) continue;
					const window = input.slice(start, start + max + 1);
					expect(window.trimStart()).not.toMatch(/\s/);
				}
			}),
		);
	});
});
