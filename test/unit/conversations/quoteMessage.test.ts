import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { askAboutMessage } from '../../../src/conversations/quoteMessage.js';

describe('askAboutMessage', () => {
	it('quotes every line of the message, then a blank line, then the question', () => {
		expect(askAboutMessage('first line\nsecond line', 'What does it mean?')).toBe('> first line\n> second line\n\nWhat does it mean?');
		expect(askAboutMessage('one\r\n\r\nthree', 'q')).toBe('> one\n> \n> three\n\nq');
	});

	it('keeps the whole message, each line quoted, before the question', () => {
		fc.assert(
			fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (text, question) => {
				const prompt = askAboutMessage(text, question);
				expect(prompt.endsWith(`\n\n${question}`)).toBe(true);
				const quoted = prompt.slice(0, prompt.length - question.length - 2).split('\n');
				for (const line of quoted) expect(line.startsWith('> ')).toBe(true);
				expect(quoted.map((line) => line.slice(2)).join('\n')).toBe(text.replace(/\r\n/g, '\n'));
			}),
		);
	});
});
