import { describe, expect, it } from 'vitest';
import { pdfText } from '../../../src/files/pdfText.js';
import { makePdf } from '../../support/makePdf.js';

const limits = { maxPages: 100, timeoutMs: 10_000, maxCharacters: 100_000 };

describe('pdfText', () => {
	it('gives the text of every page, in order', async () => {
		const outcome = await pdfText(makePdf(['The first page says hello.', 'The second (and last) says goodbye.']), limits);
		expect(outcome).toEqual({ ok: true, text: 'The first page says hello.\n\nThe second (and last) says goodbye.' });
	});

	it('refuses a PDF with more pages than allowed, reading none of them', async () => {
		const outcome = await pdfText(makePdf(['one', 'two', 'three']), { ...limits, maxPages: 2 });
		expect(outcome).toEqual({ ok: false, failure: 'too-many-pages' });
	});

	it('answers "unreadable" for bytes that are not a PDF', async () => {
		expect(await pdfText(Buffer.from('this is not a pdf at all'), limits)).toEqual({ ok: false, failure: 'unreadable' });
	});

	it('gives up past its time bound', async () => {
		expect(await pdfText(makePdf(Array.from({ length: 50 }, (_, i) => `page ${i}`)), { ...limits, timeoutMs: -1 })).toEqual({
			ok: false,
			failure: 'too-slow',
		});
	});

	it('lets the rest of the bot run while it reads: other work gets its turns', async () => {
		const pdf = makePdf(Array.from({ length: 100 }, (_, i) => `page ${i} ${'lorem ipsum '.repeat(6)}`));
		let turns = 0;
		const others = setInterval(() => (turns += 1), 0);
		try {
			const outcome = await pdfText(pdf, limits);
			expect(outcome.ok).toBe(true);
		} finally {
			clearInterval(others);
		}
		// pdf.js runs in a process of its own: the bot's timers (and sockets) keep their turns however long it takes.
		expect(turns).toBeGreaterThan(10);
	});
});
