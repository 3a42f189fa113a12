import { HELD_REASONS, REFUSED_REASONS } from './usageOutcome.js';
import type { ServerUsage } from './usageCounts.js';
import { totalsOf } from './usageReport.js';

/** The columns, in English whatever the reader's language: a file for spreadsheets and scripts. */
const HEADER = [
	'day',
	'channel_id',
	'channel_name',
	'asks',
	'shown',
	'held',
	...HELD_REASONS.map((reason) => `held_${reason}`),
	'refused',
	...REFUSED_REASONS.map((reason) => `refused_${reason}`),
	'failed',
	'day_members_who_asked',
];

// What a spreadsheet takes for the start of a formula (tab and carriage return too, as OWASP lists them).
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One cell: text a spreadsheet would run as a formula (a channel named `=HYPERLINK(…)`) starts with a `'`, which
 * spreadsheets show as text; a cell holding a comma, a quote or a line break is quoted, its quotes doubled.
 */
export function csvCell(value: string | number): string {
	let text = String(value);
	if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
	return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * /usage server as CSV: one row per day and channel that had an ask, oldest day first, with the day's members who
 * asked (a count) on each of its rows. No member id, no text: counts, days and channels.
 */
export function usageCsv(usage: ServerUsage, channelName: (channelId: string) => string | undefined): string {
	const rows = [HEADER.map(csvCell).join(',')];
	for (const day of [...usage.days].reverse()) {
		const channels = [...day.channels].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		for (const [channelId, outcomes] of channels) {
			const totals = totalsOf(outcomes);
			const cells = [
				day.day,
				channelId,
				channelName(channelId) ?? '',
				totals.asks,
				totals.shown,
				totals.held,
				...HELD_REASONS.map((reason) => totals.heldBy[reason]),
				totals.refused,
				...REFUSED_REASONS.map((reason) => totals.refusedBy[reason]),
				totals.failed,
				day.askers,
			];
			rows.push(cells.map(csvCell).join(','));
		}
	}
	return `${rows.join('\r\n')}\r\n`;
}
