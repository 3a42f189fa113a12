import { escapeMarkdown } from 'discord.js';
import { SAFE_PROBABILITY, type RatingLine } from '../generation/safetyVerdict.js';
import { messages } from '../answers/messages.js';

const CATEGORY_LABELS = messages.ratings.categories;

// The service's enum values are upper-case words joined by underscores. Anything else could carry a masked link
// (`[text](url)`, which markdown escaping leaves clickable) or a mention into a public notice, so it is not shown.
const ENUM_VALUE = /^[A-Z0-9_]{1,64}$/;

/** An upstream enum value shown as it came (underscores escaped so they don't italicise), or `(unrecognised)`. */
export function upstreamLabel(value: string): string {
	if (value === '') return messages.ratings.empty;
	return ENUM_VALUE.test(value) ? escapeMarkdown(value) : messages.ratings.unrecognised;
}

/** A harm category as a member reads it (`HARM_CATEGORY_HATE_SPEECH` → `Hate speech`); an unknown name kept as sent. */
export function categoryLabel(category: string): string {
	return Object.hasOwn(CATEGORY_LABELS, category) ? (CATEGORY_LABELS[category] as string) : upstreamLabel(category);
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
