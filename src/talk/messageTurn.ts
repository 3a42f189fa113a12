import { createHash, randomUUID } from 'node:crypto';
import type { PermissionsBitField } from 'discord.js';
import type { AdmittedAsk } from '../admission/admission.js';
import { DailyLimitError } from '../admission/admissionErrors.js';
import type { KeyedLock } from '../storage/keyedLock.js';
import type { BotContext } from '../app/context.js';
import { customIds } from '../app/customIds.js';
import type { Place } from '../app/place.js';
import { linkFirstMessage } from '../app/linkFirst.js';
import { linkOf, mustLinkFirst, readLinkGate } from '../accounts/accountRepository.js';
import { blockedPromptMessage, judgeWithRules, screenPrompt, type Asker } from '../automod/applyRules.js';
import { contentsFor, type Turn } from '../conversations/buildContents.js';
import { filesToKeep } from '../conversations/keepFiles.js';
import { VeilError } from '../errors/veilError.js';
import { readAttachments, type FileText } from '../files/readAttachments.js';
import { candidateText, type GenerationResponse } from '../generation/generationResponse.js';
import type { Verdict } from '../generation/safetyVerdict.js';
import type { SupportedLocale } from '../i18n/locales.js';
import { render, t } from '../i18n/translate.js';
import type { Logger } from '../logging/logger.js';
import { postFlagToModlog } from '../moderation/modlog.js';
import { answerMessages, hiddenNotice } from '../replies/answerMessages.js';
import { countAsk, heldReasonOf, type AskProgress, type UsageOutcome } from '../usage/usageOutcome.js';
import { attachmentsOf, type TalkMessage } from './talkMessage.js';
import type { TalkReplies } from './talkReplies.js';

/** Where a message talked to Veil, as the router found it. */
export interface TalkPlace {
	/** The Veil server, or null in a DM (outside Veil's servers, SPEC §11). */
	readonly guildId: string | null;
	readonly channelId: string;
	/** A thread's parent channel, whose instructions and AutoMod exemptions serve the thread. */
	readonly parentId: string | undefined;
	/** Veil's permissions in the channel (server-wide bits decide whether it reads the AutoMod rules). */
	readonly botPermissions: Readonly<PermissionsBitField> | null;
	/** The language Veil speaks there: the server's, or English in a DM (a message carries no locale). */
	readonly locale: SupportedLocale;
	/** What differs between a server and a DM (its limit, instructions, reviewers), answered as for an /ask. */
	readonly where: Place;
}

/** What one turn needs beside the bot's context. */
export interface TurnDeps extends BotContext {
	readonly log: Logger;
	readonly signal: AbortSignal;
	/**
	 * Turns in one conversation, one at a time (its place's turns all reach the process of its shard): a turn asked
	 * beside another would not know what that one said, and saving both would lose one.
	 */
	readonly conversationTurns: KeyedLock;
}

/** What became of the member's message while its answer was on its way. */
export interface TurnWatch {
	/** True once the member deleted their message, or the thread was archived or deleted: nothing more is posted. */
	readonly dropped: boolean;
	/** Veil's messages posted for this turn, for a deletion that comes later to take back. */
	readonly posted: string[];
}

/**
 * The conversation of a place where members talk to Veil: one record per channel, thread or DM (a DM's under the
 * member, outside the servers' scope), always under the same id, so each answer adds to what was said there.
 */
export function talkConversationId(place: Pick<TalkPlace, 'channelId'>): string {
	const hash = createHash('sha256').update(`talk:${place.channelId}`).digest();
	return [...hash.subarray(0, 12)].map((byte) => 'abcdefghijklmnopqrstuvwxyz234567'[byte & 31]).join('');
}

/**
 * One turn by message, under every rule of /ask in its order: admission (the member's one ask, pace, breaker), the
 * link, the daily limit and the line; then typing while it reads the files, the instructions and the AutoMod rules,
 * screens the prompt, asks, judges and answers as a reply. A refusal is a short reply only that member can act on
 * (messages have no ephemeral replies; see docs/using.md). Counted once, by how it ended, in the metrics and in the
 * member's and the server's usage, as an /ask is (see countAsk).
 */
export async function answerTurn(
	message: TalkMessage,
	prompt: string,
	place: TalkPlace,
	replies: TalkReplies,
	watch: TurnWatch,
	deps: TurnDeps,
): Promise<void> {
	const progress: AskProgress = { countsForMember: false };
	const where = { guildId: place.guildId, channelId: place.channelId, memberId: message.author.id };
	const outcome = await (async () => {
		// Admission first (the member's one ask and pace): a member waits behind others in a place, never behind
		// themself, so the turns waiting there are at most its members.
		const admission = deps.admission.admit(message.author.id);
		// A message has no acknowledgement to wait for: the turn counts as acknowledged at once, so no /ask holds back
		// for it, and goes on once the asks still waiting for theirs have had them (admission/acksFirst.ts).
		await admission.acknowledged(deps.signal);
		// Then the conversation's turns one at a time, before the line: a turn waiting for another must hold no place
		// there the other needs.
		const turn = () => turnOnce(message, prompt, place, replies, watch, progress, admission, deps);
		return deps.conversationTurns.run(talkConversationId(place), turn).finally(() => admission.end());
	})().catch(async (error: unknown) => {
		countAsk(deps, where, { error }, progress);
		await refuse(error, place, replies, watch, deps);
		return undefined;
	});
	if (outcome) countAsk(deps, where, outcome, progress);
}

async function turnOnce(
	message: TalkMessage,
	prompt: string,
	place: TalkPlace,
	replies: TalkReplies,
	watch: TurnWatch,
	progress: AskProgress,
	admission: AdmittedAsk,
	deps: TurnDeps,
): Promise<UsageOutcome> {
	const userId = message.author.id;
	let stopTyping = () => undefined as void;
	try {
		const [gate, limit] = await Promise.all([readLinkGate(userId, deps), place.where.dailyLimit(deps)]);
		if (mustLinkFirst(gate)) {
			await post(replies, watch, linkFirstMessage(place.locale));
			return 'refused:link';
		}
		const ticket = admission.enterLine(deps.signal);
		try {
			await admission.countDaily({ guildId: place.guildId, limit, exempt: false });
		} catch (error) {
			if (error instanceof DailyLimitError) throw error;
			deps.log.warn({ err: error }, 'could not count the turn against the daily limit; answering without it');
		}
		// Past the daily limit: the turn is one of the member's asks of the day, however it ends.
		progress.countsForMember = true;
		admission.started();
		stopTyping = replies.typing((error) => deps.log.debug({ err: error }, 'could not show typing'));
		await ticket.granted;

		const attachments = attachmentsOf(message);
		const { scope } = place.where;
		const conversationId = talkConversationId(place);
		const [files, instructions, rules, account, conversation] = await Promise.all([
			attachments && readAttachments(attachments, deps.config),
			place.where.instructions(deps, place.parentId),
			deps.automod.rulesFor(place.guildId, place.botPermissions),
			linkOf(userId, gate, deps),
			deps.conversations.find(scope, conversationId).catch((error: unknown) => {
				deps.log.warn({ err: error }, 'could not read the conversation; answering the message alone');
				return undefined;
			}),
		]);
		// A message carries no server locale: an alert about it is in the server's chosen language, or English.
		const asker: Asker = { guildId: place.guildId, guildLocale: null, user: { id: userId } };
		const context = {
			roleIds: message.member?.roles ?? [],
			channelIds: [place.channelId, place.parentId].filter((id): id is string => id !== undefined),
		};
		if (rules) {
			const text = [prompt, ...(files ?? []).map((file) => file.text)].join('\n');
			const blocked = await screenPrompt(rules, text, asker, context, deps);
			if (blocked) {
				await post(replies, watch, { content: blockedPromptMessage(blocked, place.locale) });
				return 'refused:other';
			}
		}
		const history = conversation?.turns ?? [];
		const turn: Turn | string = files ? { role: 'user', text: prompt, files } : prompt;
		const input = contentsFor(history.length > 0 ? history : undefined, turn, instructions);
		const response = await admission.callUpstream(() => deps.generation.generate(input, { credentials: account?.credentials, signal: deps.signal }));
		const verdict = await judgeWithRules(response, rules && { server: rules, context }, asker, deps);
		stopTyping();
		if (verdict.kind === 'shown') {
			const parts = answerMessages(verdict.text, verdict.cutShort, place.locale);
			for (const part of parts) {
				if (!(await post(replies, watch, part))) {
					deps.log.info('the turn’s message was deleted, or its thread archived or deleted: its answer is dropped');
					return 'shown';
				}
			}
			if (!watch.dropped && verdict.text.trim() !== '') {
				const kept = files ? { files: filesToKeep(files, prompt, verdict.text) } : {};
				const turns: Turn[] = [...history, { role: 'user', text: prompt, by: userId, ...kept }, { role: 'model', text: verdict.text }];
				await deps.conversations
					.save(scope, { id: conversationId, ownerId: userId, ephemeral: false, turns })
					.catch((error: unknown) => deps.log.error({ err: error }, 'could not save the conversation of a turn'));
			}
			return 'shown';
		}
		await hide(message, prompt, verdict, response, files, place, replies, watch, deps);
		return `held:${heldReasonOf(verdict.reasons)}`;
	} finally {
		stopTyping();
	}
}

/**
 * A held answer: a case for whoever reviews answers held there (the server's moderators; outside, the operators'
 * server or no one), and a notice as the reply. Nothing of it enters the conversation.
 */
async function hide(
	message: TalkMessage,
	prompt: string,
	verdict: Extract<Verdict, { kind: 'hidden' }>,
	response: GenerationResponse,
	files: readonly FileText[] | undefined,
	place: TalkPlace,
	replies: TalkReplies,
	watch: TurnWatch,
	deps: TurnDeps,
): Promise<void> {
	// A turn's notice is posted after its flag is kept: a release names the member rather than replying to it.
	const review = await place.where.review(deps, false);
	const flag =
		review &&
		(await deps.flags
			.create({
				...review.where,
				userId: message.author.id,
				noticeMessageId: undefined,
				locale: place.locale,
				private: review.private,
				prompt,
				...(files?.length ? { files: files.map(({ name, text }) => ({ name, text })) } : {}),
				text: candidateText(response),
				ratings: verdict.ratings,
				finishReason: verdict.finishReason,
				blockReason: verdict.blockReason,
				...(verdict.rule ? { automod: verdict.rule } : {}),
				model: deps.config.generationModel,
			})
			.catch((error: unknown) => {
				deps.log.error({ err: error }, 'could not store the flag of a held turn');
				return undefined;
			}));
	try {
		await post(replies, watch, hiddenNotice(verdict, flag?.id, place.where.reviewers(deps), place.locale));
	} finally {
		if (flag && review) {
			const { client, settings, flags, log } = deps;
			await postFlagToModlog(flag, { client, settings, flags, log, ids: customIds.flagged, guildLocale: review.guildLocale });
		}
	}
}

/** Posts one reply unless the turn was dropped; false when it was. A message posted after a drop is taken back. */
async function post(replies: TalkReplies, watch: TurnWatch, message: Parameters<TalkReplies['reply']>[0]): Promise<boolean> {
	if (watch.dropped) return false;
	const sent = await replies.reply(message);
	watch.posted.push(sent.id);
	if (watch.dropped) {
		await replies.delete(sent.id).catch(() => undefined);
		return false;
	}
	return true;
}

/** A refusal or a fault, as a short reply: the member's sentence, or a line with an incident id matching the log. */
async function refuse(error: unknown, place: TalkPlace, replies: TalkReplies, watch: TurnWatch, deps: TurnDeps): Promise<void> {
	if (isGone(error)) {
		deps.log.info('the turn’s channel or thread is gone or archived: its answer is dropped');
		return;
	}
	let content: string;
	if (error instanceof VeilError) {
		content = render(place.locale, error.answer);
		deps.log.info({ code: error.code }, 'a turn ended with a refusal');
	} else {
		const incident = randomUUID().slice(0, 8);
		content = t(place.locale, 'members.general.incident', { incident });
		deps.log.error({ err: error, incident }, 'a turn failed');
	}
	await post(replies, watch, { content }).catch((failure: unknown) => deps.log.warn({ err: failure }, 'could not send a turn’s refusal'));
}

/** Discord's answer when the place is gone (10003 Unknown Channel) or an archived thread refuses the post (50083). */
export function isGone(error: unknown): boolean {
	const code = (error as { code?: unknown } | null)?.code;
	return code === 10003 || code === 50083;
}
