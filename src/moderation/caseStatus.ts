import { time, TimestampStyles } from 'discord.js';
import type { SupportedLocale } from '../i18n/locales.js';
import { t } from '../i18n/translate.js';
import type { FlagDecision, FlagRecord } from './storedFlag.js';

/** A case's colour by its status: the card's accent, the list's. */
export const STATUS_COLOR: Readonly<Record<FlagDecision | 'pending', number>> = {
	pending: 0xe67e22,
	released: 0x2ecc71,
	dismissed: 0x95a5a6,
	reviewed: 0x3498db,
	removed: 0xe74c3c,
	kept: 0x3498db,
};

/** `pending`, or who decided what and when, e.g. `released by <@1> <t:…:R>`; mentions render and never ping. */
export function flagStatus(flag: FlagRecord, locale: SupportedLocale): string {
	if (!flag.decision) return t(locale, 'moderators.status.pending');
	const values = { userId: flag.decision.by, when: time(new Date(flag.decision.at), TimestampStyles.RelativeTime) };
	const { kind } = flag.decision;
	return kind === 'removed' || kind === 'kept' ? t(locale, `cases.status.${kind}`, values) : t(locale, `moderators.status.${kind}`, values);
}
