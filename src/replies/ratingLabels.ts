import { escapeMarkdown } from 'discord.js';
import { SAFE_PROBABILITY, type RatingLine } from '../generation/safetyVerdict.js';
import type { SupportedLocale } from '../i18n/locales.js';
import { t, type MessageKey } from '../i18n/translate.js';

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
export function upstreamLabel(value: string, locale: SupportedLocale): string {
	if (value === '') return t(locale, 'members.ratings.empty');
	return ENUM_VALUE.test(value) ? escapeMarkdown(value) : t(locale, 'members.ratings.unrecognised');
}

/** A harm category as a member reads it (`HARM_CATEGORY_HATE_SPEECH` → `Hate speech`); an unknown name kept as sent. */
export function categoryLabel(category: string, locale: SupportedLocale): string {
	return Object.hasOwn(CATEGORY_KEYS, category) ? t(locale, CATEGORY_KEYS[category as keyof typeof CATEGORY_KEYS]) : upstreamLabel(category, locale);
}

/** Short labels such as `Harassment: MEDIUM (reply)` or `Hate speech: NEGLIGIBLE, blocked (prompt)`, one per line. */
export function describeRatings(ratings: readonly RatingLine[], locale: SupportedLocale): string[] {
	return ratings.map((line) =>
		t(locale, RATING_KEYS[line.source][line.blocked ? 'blocked' : 'rated'], {
			category: categoryLabel(line.category, locale),
			probability: upstreamLabel(line.probability, locale),
		}),
	);
}

/** A rating line's sentence, by where the rating was given and whether the service blocked it. */
const RATING_KEYS = {
	reply: { rated: 'members.ratings.inReply', blocked: 'members.ratings.inReplyBlocked' },
	prompt: { rated: 'members.ratings.inPrompt', blocked: 'members.ratings.inPromptBlocked' },
} as const satisfies Record<RatingLine['source'], Record<'rated' | 'blocked', MessageKey>>;

/** The lines that stopped the reply: any probability other than exactly `NEGLIGIBLE`, or blocked. */
export function flaggedRatings(ratings: readonly RatingLine[]): RatingLine[] {
	return ratings.filter((line) => line.probability !== SAFE_PROBABILITY || line.blocked);
}
