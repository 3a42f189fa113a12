import { askedPrivately, type FlagRecord } from './flagRepository.js';
import type { ReleaseResult } from './releaseFlag.js';
import type { SupportedLocale } from '../i18n/locales.js';
import { sentence, t } from '../i18n/translate.js';

/** What the moderator reads once their decision is kept: where a release went (all of it, or how much), or the decision. */
export function decidedNote(flag: FlagRecord, release: ReleaseResult | undefined, reader: SupportedLocale): string {
	switch (flag.decision?.kind) {
		case 'released': {
			const where = flag.outside
				? sentence('moderators.releasedWhere.outside', { userId: flag.userId })
				: askedPrivately(flag)
					? sentence('moderators.releasedWhere.directMessage', { userId: flag.userId })
					: sentence(flag.noticeMessageId === undefined ? 'moderators.releasedWhere.channel' : 'moderators.releasedWhere.channelReplying', {
							channelId: flag.channelId,
						});
			return release && release.posted < release.parts
				? t(reader, 'moderators.releasedPartly', { where, posted: release.posted, count: release.parts })
				: t(reader, 'moderators.released', { where });
		}
		case 'dismissed':
			return t(reader, 'moderators.dismissed');
		case 'removed':
			return t(reader, 'cases.removed');
		case 'kept':
			return t(reader, 'cases.kept');
		case 'reviewed':
		case undefined:
			return t(reader, 'moderators.reviewed');
	}
}
