import { escapeMarkdown, RESTJSONErrorCodes, type Client } from 'discord.js';
import { messages } from '../answers/messages.js';
import { NO_MENTIONS } from '../discord/mentions.js';
import type { Logger } from '../logging/logger.js';
import { truncate } from '../replies/truncate.js';
import type { FlagRecord } from './flagRepository.js';

/**
 * Tells a member, by DM, that their held answer was dismissed (where the server chose `/settings notify
 * dismissals:true`), with the moderator's reason if they gave one; never who dismissed it. Nothing fails for it:
 * returns the note the moderator reads when it could not be sent (their DMs closed), else undefined.
 */
export async function tellMemberDismissed(flag: FlagRecord, deps: { client: Client; log: Logger }): Promise<string | undefined> {
	const reason = flag.decision?.reason;
	const content = messages.ask.dismissedNotice(flag.caseNumber, reason === undefined ? undefined : truncate(escapeMarkdown(reason), 500));
	try {
		const channel = await deps.client.users.createDM(flag.userId);
		await channel.send({ content, allowedMentions: NO_MENTIONS });
		return undefined;
	} catch (error) {
		const closed = (error as { code?: unknown } | null)?.code === RESTJSONErrorCodes.CannotSendMessagesToThisUser;
		deps.log.info({ err: error, flagId: flag.id, closed }, 'the member could not be told of a dismissal');
		return messages.moderation.dismissalNotSent(flag.userId, closed);
	}
}
