import { escapeMarkdown, RESTJSONErrorCodes, type Client } from 'discord.js';
import type { SupportedLocale } from '../i18n/locales.js';
import { sentence, t, type Sentence } from '../i18n/translate.js';
import type { Logger } from '../logging/logger.js';
import { truncate } from '../replies/truncate.js';
import type { FlagRecord } from './flagRepository.js';
import { memberLocaleOf } from './releaseFlag.js';

/**
 * Tells a member, by DM in the language they asked in, that their held answer was dismissed, or reviewed after they
 * asked for a review (where the server chose `/settings notify dismissals:true`), with the moderator's reason if
 * they gave one; never who decided. Nothing
 * fails for it: returns the note the moderator reads when it could not be sent (their DMs closed), else undefined.
 */
export async function tellMemberDismissed(
	flag: FlagRecord,
	deps: { client: Client; log: Logger; serverLocale: SupportedLocale },
): Promise<Sentence | undefined> {
	const reason = flag.decision?.reason;
	const locale = memberLocaleOf(flag, deps.serverLocale);
	// A review the member asked for that kept the answer hidden is told as such; a dismissal, as ever.
	const notice =
		flag.decision?.kind === 'reviewed' && flag.caseNumber !== undefined
			? t(locale, 'cases.reviewedNotice', { caseNumber: flag.caseNumber })
			: flag.caseNumber === undefined
				? t(locale, 'members.ask.dismissed.notice')
				: t(locale, 'members.ask.dismissed.noticeCase', { caseNumber: flag.caseNumber });
	const content =
		reason === undefined ? notice : `${notice}\n${t(locale, 'members.ask.dismissed.reason', { reason: truncate(escapeMarkdown(reason), 500) })}`;
	try {
		const channel = await deps.client.users.createDM(flag.userId);
		await channel.send({ content });
		return undefined;
	} catch (error) {
		const closed = (error as { code?: unknown } | null)?.code === RESTJSONErrorCodes.CannotSendMessagesToThisUser;
		deps.log.info({ err: error, flagId: flag.id, closed }, 'the member could not be told of a dismissal');
		return sentence(closed ? 'moderators.dismissalNotSent.closed' : 'moderators.dismissalNotSent.failed', { userId: flag.userId });
	}
}
