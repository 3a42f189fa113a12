import { RESTJSONErrorCodes, Routes, type Client } from 'discord.js';
import type { ConversationRepository } from '../conversations/conversationRepository.js';
import { sentence, type Sentence } from '../i18n/translate.js';
import type { Logger } from '../logging/logger.js';
import { describeSendFailure } from './modlog.js';
import type { FlagRecord } from './storedFlag.js';

/** What Remove did: the answer's messages deleted, or why they could not be (its conversation is erased either way). */
export type Removal = { readonly deleted: true } | { readonly deleted: false; readonly reason: Sentence | string };

/**
 * Remove, for a reported answer: its conversation erased, so its Follow up (and any button that reads it) answers
 * as for an expired one, then its messages deleted (the one with the buttons and the first part). A message already
 * gone counts as deleted. Where Veil is not a member (a group DM, a server without Veil) nothing can delete it: the
 * moderator is told why, and the conversation is erased all the same.
 */
export async function removeAnswer(flag: FlagRecord, deps: { client: Client; conversations: ConversationRepository; log: Logger }): Promise<Removal> {
	const report = flag.report;
	if (!report) return { deleted: false, reason: sentence('cases.wrongDecision') };
	if (report.conversationId !== undefined && report.scope !== undefined) {
		await deps.conversations.erase(report.scope, report.conversationId);
	}
	const channelId = report.channelId ?? (flag.outside ? undefined : flag.channelId);
	if (channelId === undefined) return { deleted: false, reason: sentence('cases.notMember') };
	try {
		for (const messageId of report.messageIds) {
			await deps.client.rest.delete(Routes.channelMessage(channelId, messageId)).catch((error: unknown) => {
				if ((error as { code?: unknown } | null)?.code !== RESTJSONErrorCodes.UnknownMessage) throw error;
			});
		}
		return { deleted: true };
	} catch (error) {
		deps.log.warn({ err: error, flagId: flag.id }, 'could not delete a removed answer');
		return { deleted: false, reason: describeSendFailure(error) };
	}
}
