import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, usageCsv } from '../../../src/usage/usageCsv.js';
import type { UsageOutcome } from '../../../src/usage/usageOutcome.js';

/** One cell read back as a spreadsheet reads a CSV cell: quotes taken off, doubled quotes made one. */
function readCell(cell: string): string {
	return cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell;
}

describe('a CSV cell', () => {
	it('never begins with what a spreadsheet runs as a formula, and reads back as the text (after its mark)', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'grapheme' }), (text) => {
				const read = readCell(csvCell(text));
				expect(read).not.toMatch(/^[=+\-@\t\r]/);
				expect(read === text || read === `'${text}`).toBe(true);
				if (read !== text) expect(text).toMatch(/^[=+\-@\t\r]/);
			}),
		);
	});

	it('is one cell: a comma, a quote or a line break inside is quoted', () => {
		fc.assert(
			fc.property(fc.string(), (text) => {
				const cell = csvCell(text);
				if (/[",\r\n]/.test(cell.slice(1, -1)) || /[",\r\n]/.test(text)) {
					expect(cell.startsWith('"') && cell.endsWith('"')).toBe(true);
					expect(cell.slice(1, -1).replaceAll('""', '')).not.toContain('"');
				}
			}),
		);
	});

	it('neutralises each formula start, and leaves numbers alone', () => {
		expect(['=1+1', '+1', '-1', '@SUM(A1)'].map(csvCell)).toEqual(["'=1+1", "'+1", "'-1", "'@SUM(A1)"]);
		expect(csvCell(12)).toBe('12');
		expect(csvCell('general')).toBe('general');
	});
});

describe('the usage CSV', () => {
	it('has one row per day and channel with an ask, oldest day first, and the day’s members on each', () => {
		const channels = (entries: Array<[string, Array<[UsageOutcome, number]>]>) => new Map(entries.map(([id, outcomes]) => [id, new Map(outcomes)]));
		const csv = usageCsv(
			{
				days: [
					{
						day: '2026-11-28',
						channels: channels([
							[
								'2',
								[
									['shown', 2],
									['refused:busy', 1],
								],
							],
						]),
						askers: 2,
					},
					{ day: '2026-11-27', channels: channels([]), askers: 0 },
					{
						day: '2026-11-26',
						channels: channels([
							[
								'1',
								[
									['held:automod', 1],
									['failed', 1],
								],
							],
						]),
						askers: 1,
					},
				],
				askers: 2,
			},
			(id) => (id === '1' ? '-minus' : undefined),
		);
		expect(csv.split('\r\n').slice(1)).toEqual(["2026-11-26,1,'-minus,2,0,1,0,1,0,0,0,0,0,0,0,1,1", '2026-11-28,2,,3,2,0,0,0,0,1,0,1,0,0,0,0,2', '']);
	});
});
