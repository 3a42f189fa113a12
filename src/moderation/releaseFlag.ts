import { RESTJSONErrorCodes, type Client, type SendableChannels } from 'discord.js';
import { VeilError } from '../errors/veilError.js';
import { FETCH_TO_SEND } from '../discord/clientCache.js';
import { askedPrivately, type FlagRecord } from './flagRepository.js';
import type { Logger } from '../logging/logger.js';
import { ChannelNotSendable, describeSendFailure, inLocale } from './modlog.js';
import { answerMessages, type OutgoingMessage } from '../replies/answerMessages.js';
import { SOURCE_LOCALE, type SupportedLocale } from '../i18n/locales.js';
import { render, sentence, t } from '../i18n/translate.js';
import type { PermissionLookup } from '../discord/permissionLookup.js';
import { missingPermissions, releaseNeeds } from './flagAccess.js';

/** How much of a released answer reached the member, and where. */
export interface ReleaseResult {
	readonly posted: number;
	readonly parts: number;
	readonly privately: boolean;
}

interface ReleaseDeps {
	readonly client: Client;
	readonly log: Logger;
	/** For Veil's own rights in the flag's channel. */
	readonly permissions: PermissionLookup;
	/** What a release posted in the channel is headed in (see serverLocaleOf). */
	readonly serverLocale: SupportedLocale;
}

/** The language of what reaches the member alone: the one they asked in, or for a flag kept without it, the server's. */
export function memberLocaleOf(flag: FlagRecord, serverLocale: SupportedLocale): SupportedLocale {
	return flag.locale ?? serverLocale;
}

/**
 * Delivers a held answer as a moderator's release of a false positive, split like any answer and headed as
 * released. A public ask's answer is posted in its channel, replying to the member's hidden-reply notice; a private
 * ask's goes to the member alone, in a direct message, since posting it would show everyone what they asked in
 * private. Nothing pings anyone.
 *
 * Throws a VeilError, and nothing is delivered, when the first message cannot be sent (Veil lacks a permission in
 * the channel, the member's DMs are closed): the flag stays pending. Once the first part is out the release has
 * happened; a later part that fails is logged and counted, not retried, so a second press never sends it twice.
 */
export async function postRelease(flag: FlagRecord, deps: ReleaseDeps): Promise<ReleaseResult> {
	if (flag.text === null)
		throw new VeilError({ code: 'release_erased', message: `flag ${flag.id} has no text`, answer: sentence('moderators.releaseErased') });
	return askedPrivately(flag) ? releasePrivately(flag, flag.text, deps) : releaseInChannel(flag, flag.text, deps);
}

async function releaseInChannel(flag: FlagRecord, text: string, deps: ReleaseDeps): Promise<ReleaseResult> {
	const replying = flag.noticeMessageId !== undefined;
	const missing = missingPermissions(await deps.permissions.botIn(flag.channelId), releaseNeeds(replying));
	if (missing.length > 0) {
		throw new VeilError({
			code: 'release_forbidden',
			message: `release of flag ${flag.id} refused: Veil lacks ${missing.map((name) => render(SOURCE_LOCALE, name)).join(', ')} in its channel`,
			answer: sentence('moderators.releaseFailed', { channelId: flag.channelId, reason: sentence('moderators.veilLacks', { missing }) }),
		});
	}
	const parts = answerMessages(
		text,
		flag.finishReason === 'MAX_TOKENS',
		deps.serverLocale,
		replying ? t(deps.serverLocale, 'moderators.releasedHeader') : t(deps.serverLocale, 'moderators.releasedHeaderFor', { userId: flag.userId }),
	);
	const reply = flag.noticeMessageId ? { reply: { messageReference: flag.noticeMessageId, failIfNotExists: false } } : {};
	try {
		const channel = await deps.client.channels.fetch(flag.channelId, FETCH_TO_SEND);
		if (!channel?.isSendable()) throw new ChannelNotSendable(sentence('moderators.sendFailure.channelNotSendable'));
		return await sendParts(channel, parts, reply, flag, deps.log, false);
	} catch (error) {
		const reason = describeSendFailure(error);
		deps.log.warn({ err: error, flagId: flag.id, channelId: flag.channelId }, 'release could not be posted');
		throw new VeilError({
			code: 'release_failed',
			message: `release of flag ${flag.id} failed: ${inLocale(reason, SOURCE_LOCALE)}`,
			answer: sentence('moderators.releaseFailed', { channelId: flag.channelId, reason }),
			cause: error,
		});
	}
}

async function releasePrivately(flag: FlagRecord, text: string, deps: ReleaseDeps): Promise<ReleaseResult> {
	const locale = memberLocaleOf(flag, deps.serverLocale);
	const header = flag.outside
		? t(locale, 'moderators.releasedOutsideHeader')
		: t(locale, 'moderators.releasedPrivatelyHeader', { channelId: flag.channelId });
	const parts = answerMessages(text, flag.finishReason === 'MAX_TOKENS', locale, header);
	try {
		const channel = await deps.client.users.createDM(flag.userId);
		return await sendParts(channel, parts, {}, flag, deps.log, true);
	} catch (error) {
		const closed = (error as { code?: unknown } | null)?.code === RESTJSONErrorCodes.CannotSendMessagesToThisUser;
		deps.log.warn({ err: error, flagId: flag.id, closed }, 'private release could not be sent');
		throw new VeilError({
			code: closed ? 'release_dms_closed' : 'release_dm_failed',
			message: `private release of flag ${flag.id} failed${closed ? ': the member does not accept direct messages' : ''}`,
			answer: closed
				? sentence('moderators.directMessagesClosed', { userId: flag.userId })
				: sentence('moderators.directMessageFailed', { userId: flag.userId, reason: describeSendFailure(error) }),
			cause: error,
		});
	}
}

/** Sends the first part (whose failure the caller reports), then the rest, stopping at the first that fails. */
async function sendParts(
	channel: SendableChannels,
	parts: readonly OutgoingMessage[],
	firstExtras: object,
	flag: FlagRecord,
	log: Logger,
	privately: boolean,
): Promise<ReleaseResult> {
	const [first, ...rest] = parts;
	if (!first) return { posted: 0, parts: 0, privately };
	await channel.send({ ...first, ...firstExtras });
	let posted = 1;
	for (const part of rest) {
		try {
			await channel.send(part);
			posted += 1;
		} catch (error) {
			log.warn({ err: error, flagId: flag.id, part: posted + 1 }, 'a later part of a released answer was not sent');
			break;
		}
	}
	return { posted, parts: parts.length, privately };
}
