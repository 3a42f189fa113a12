import { escapeMarkdown } from 'discord.js';
import { SAFE_PROBABILITY, type RatingLine } from '../generation/safetyVerdict.js';
import { SOURCE_LOCALE } from '../i18n/locales.js';
import { t } from '../i18n/translate.js';

const CATEGORY_KEYS = {
	HARM_CATEGORY_HARASSMENT: 'members.ratings.categories.HARM_CATEGORY_HARASSMENT',
	HARM_CATEGORY_SEXUALLY_EXPLICIT: 'members.ratings.categories.HARM_CATEGORY_SEXUALLY_EXPLICIT',
	HARM_CATEGORY_HATE_SPEECH: 'members.ratings.categories.HARM_CATEGORY_HATE_SPEECH',
	HARM_CATEGORY_DANGEROUS_CONTENT: 'members.ratings.categories.HARM_CATEGORY_DANGEROUS_CONTENT',
} as const;

// The service's enum values are upper-case words joined by underscores. Anything else could carry a masked link
// (`[text](url)`, which markdown escaping leaves clickable) or a mention into a public notice, so it is not shown.
const ENUM_VALUE = /^[A-Z0-9_]{1,64}$/;

/** An upstream enum value shown as it came (underscores escaped so they don't italicise), or `(unrecognised)`. */
export function upstreamLabel(value: string): string {
	if (value === '') return t(SOURCE_LOCALE, 'members.ratings.empty');
	return ENUM_VALUE.test(value) ? escapeMarkdown(value) : t(SOURCE_LOCALE, 'members.ratings.unrecognised');
}

/** A harm category as a member reads it (`HARM_CATEGORY_HATE_SPEECH` → `Hate speech`); an unknown name kept as sent. */
export function categoryLabel(category: string): string {
	return Object.hasOwn(CATEGORY_KEYS, category) ? t(SOURCE_LOCALE, CATEGORY_KEYS[category as keyof typeof CATEGORY_KEYS]) : upstreamLabel(category);
}

/** Short labels such as `Harassment: MEDIUM (reply)` or `Hate speech: NEGLIGIBLE, blocked (prompt)`, one per line. */
export function describeRatings(ratings: readonly RatingLine[]): string[] {
	return ratings.map(
		(line) =>
			`${categoryLabel(line.category)}: ${upstreamLabel(line.probability)}${line.blocked ? ', blocked' : ''} (${line.source})`,
	);
}

/** The lines that stopped the reply: any probability other than exactly `NEGLIGIBLE`, or blocked. */
export function flaggedRatings(ratings: readonly RatingLine[]): RatingLine[] {
	return ratings.filter((line) => line.probability !== SAFE_PROBABILITY || line.blocked);
}
