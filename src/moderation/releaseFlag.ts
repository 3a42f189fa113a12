import type { Client } from 'discord.js';
import { VeilError } from '../answers/veilError.js';
import { releaseHeader } from './flagViews.js';
import type { FlagRecord } from './flagRepository.js';
import type { Logger } from '../logging/logger.js';
import { describeSendFailure } from './modlog.js';
import { answerMessages } from '../replies/answerMessages.js';
import { messages } from '../answers/messages.js';

/** How much of a released answer reached the channel. */
export interface ReleaseResult {
	readonly posted: number;
	readonly parts: number;
}

/**
 * Posts a held answer in its original channel, as a moderator's release of a false positive: split like any
 * answer, the first message headed as released and replying to the member's hidden-reply notice (or, for a
 * private ask, naming the member without a ping). Nothing pings anyone.
 *
 * Throws a VeilError, and nothing is posted, when the first message cannot be sent: the flag stays pending. Once
 * the first part is out the release has happened; a later part that fails is logged and counted, not retried,
 * so a second press can never post the answer twice.
 */
export async function postRelease(flag: FlagRecord, deps: { client: Client; log: Logger }): Promise<ReleaseResult> {
	if (flag.text === null) throw new VeilError({ code: 'release_erased', message: `flag ${flag.id} has no text`, userMessage: messages.moderation.releaseErased });
	const [first, ...rest] = answerMessages(
		flag.text,
		flag.finishReason === 'MAX_TOKENS',
		releaseHeader(flag.noticeMessageId ? undefined : flag.userId),
	);
	if (!first) return { posted: 0, parts: 0 };
	try {
		const channel = await deps.client.channels.fetch(flag.channelId);
		if (!channel?.isSendable()) throw new Error('the original channel is not one Veil can send to');
		await channel.send({
			...first,
			...(flag.noticeMessageId ? { reply: { messageReference: flag.noticeMessageId, failIfNotExists: false } } : {}),
		});
		let posted = 1;
		for (const part of rest) {
			try {
				await channel.send(part);
				posted += 1;
			} catch (error) {
				deps.log.warn({ err: error, flagId: flag.id, part: posted + 1 }, 'a later part of a released answer was not posted');
				break;
			}
		}
		return { posted, parts: rest.length + 1 };
	} catch (error) {
		const reason = describeSendFailure(error);
		deps.log.warn({ err: error, flagId: flag.id, channelId: flag.channelId }, 'release could not be posted');
		throw new VeilError({
			code: 'release_failed',
			message: `release of flag ${flag.id} failed: ${reason}`,
			userMessage: messages.moderation.releaseFailed(flag.channelId, reason),
			cause: error,
		});
	}
}
