import {
	AttachmentBuilder,
	escapeMarkdown,
	MessageFlags,
	RateLimitError,
	type ActionRowBuilder,
	type APIActionRowComponent,
	type APIButtonComponentWithCustomId,
	type ButtonBuilder,
	type RepliableInteraction,
} from 'discord.js';
import type { Logger } from '../logging/logger.js';
import type { HideReason, Verdict } from '../generation/safetyVerdict.js';
import { describeRatings, flaggedRatings, upstreamLabel } from './ratingLabels.js';
import { isDiscordAutomodHold } from './discordAutomodHold.js';
import { MESSAGE_LIMIT, splitReply } from './splitReply.js';
import { truncate } from './truncate.js';
import type { SupportedLocale } from '../i18n/locales.js';
import { t, type MessageKey } from '../i18n/translate.js';

/** Past this many messages' worth, the answer goes as one message plus the whole text as a file. */
const MAX_MESSAGES = 4;
export const ATTACHMENT_NAME = 'reply.md';

/** One message of an answer; it pings no one by the client's default (see app/bot.ts). */
export interface OutgoingMessage {
	content: string;
	files?: AttachmentBuilder[];
}

/**
 * The messages of a shown answer, in order: split at paragraph, line or word boundaries within Discord's 2000
 * characters, or, past four messages, the first part plus the whole text as `reply.md`. `header` (for example a
 * moderator's release line) opens the first message. Veil's own lines (cut short, attached) are in `locale`; the
 * model's text is never translated.
 */
export function answerMessages(text: string, cutShort: boolean, locale: SupportedLocale, header = '', maxMessages = MAX_MESSAGES): OutgoingMessage[] {
	const prefix = header ? `${header}\n` : '';
	const suffix = cutShort ? `\n-# ${t(locale, 'members.ask.cutShort')}` : '';
	if (text.trim() === '') return [{ content: `${prefix}${t(locale, 'members.ask.emptyAnswer')}${suffix}` }];

	const chunks = splitReply(text, MESSAGE_LIMIT - prefix.length - suffix.length);
	if (chunks.length > maxMessages) {
		const attachedNote = `\n-# ${t(locale, 'members.ask.attached', { fileName: ATTACHMENT_NAME })}`;
		const [first = ''] = splitReply(text, MESSAGE_LIMIT - prefix.length - suffix.length - attachedNote.length);
		return [
			{
				content: `${prefix}${first}${suffix}${attachedNote}`,
				files: [new AttachmentBuilder(Buffer.from(text, 'utf8'), { name: ATTACHMENT_NAME })],
			},
		];
	}
	return chunks.map((chunk, index) => ({
		content: `${index === 0 ? prefix : ''}${chunk}${index === chunks.length - 1 ? suffix : ''}`,
	}));
}

/**
 * A version of an answer as one message, for the message that carries its buttons (Regenerate, ◀ ▶): the whole text
 * when it fits, else its beginning with the whole text attached as `reply.md`, as a very long answer goes.
 */
export function oneAnswerMessage(text: string, cutShort: boolean, locale: SupportedLocale): OutgoingMessage {
	const [message] = answerMessages(text, cutShort, locale, '', 1);
	return message ?? { content: t(locale, 'members.ask.emptyAnswer') };
}

/** What a refusal says: its sentence, and the button it may carry (the link-first one). */
export interface Refusal {
	readonly content: string;
	readonly components?: ActionRowBuilder<ButtonBuilder>[];
}

/** An answer in a deferral's place: text, a row of buttons at most, and a file (a long answer's reply.md). */
export interface InPlace {
	readonly content: string;
	readonly components?: APIActionRowComponent<APIButtonComponentWithCustomId>[];
	readonly files?: AttachmentBuilder[];
}

/**
 * Puts an answer in the deferral's place. When Discord holds the edit route longer than Veil waits (a long rate
 * limit, see rateLimits.ts), the answer goes by the follow-up route, which Discord limits apart: the member gets
 * the answer itself rather than an apology for it.
 */
export async function answerInPlace(interaction: RepliableInteraction, message: InPlace, ephemeral: boolean, log: Logger): Promise<void> {
	try {
		await interaction.editReply(message);
	} catch (error) {
		if (!(error instanceof RateLimitError)) throw error;
		log.warn({ retryAfterMs: error.retryAfter }, 'the edit route is rate limited: the answer goes as a follow-up');
		await interaction.followUp({ ...message, flags: ephemeral ? MessageFlags.Ephemeral : undefined });
	}
}

/**
 * Answers in a landed deferral's place, to the member alone: a public "thinking…" must not turn into a public
 * refusal. Once edited it is an ordinary message, which can go, and the follow-up after it then keeps its own
 * (ephemeral) flag instead of the deferral's.
 */
export async function answerAlone(interaction: RepliableInteraction, ephemeral: boolean, refusal: Refusal): Promise<void> {
	const { content, components = [] } = refusal;
	if (ephemeral) {
		await interaction.editReply({ content, components });
		return;
	}
	await interaction.editReply({ content: '…' });
	await interaction.deleteReply();
	await interaction.followUp({ content, components, flags: MessageFlags.Ephemeral });
}

type ReasonText = (verdict: HiddenVerdict, locale: SupportedLocale) => string;
const plainReason =
	(key: MessageKey): ReasonText =>
	(_verdict, locale) =>
		t(locale, key);
const REASON_TEXT: Partial<Record<HideReason, ReasonText>> = {
	'no-candidate': plainReason('members.ask.hiddenReasons.no-candidate'),
	'prompt-ratings-missing': plainReason('members.ask.hiddenReasons.prompt-ratings-missing'),
	'reply-ratings-missing': plainReason('members.ask.hiddenReasons.reply-ratings-missing'),
	'category-missing': plainReason('members.ask.hiddenReasons.category-missing'),
	'category-duplicated': plainReason('members.ask.hiddenReasons.category-duplicated'),
	'unknown-category': plainReason('members.ask.hiddenReasons.unknown-category'),
	'block-reason': (verdict, locale) =>
		t(locale, 'members.ask.hiddenReasons.block-reason', { label: upstreamLabel(verdict.blockReason ?? '', locale) }),
	'finish-reason': (verdict, locale) =>
		verdict.finishReason === undefined
			? t(locale, 'members.ask.hiddenReasons.finish-reason-none')
			: t(locale, 'members.ask.hiddenReasons.finish-reason', { label: upstreamLabel(verdict.finishReason, locale) }),
	// The rule's name, never the keyword: the word is the moderators' business.
	automod: (verdict, locale) => t(locale, 'members.ask.hiddenReasons.automod', { ruleName: escapeMarkdown(verdict.rule?.ruleName ?? '') }),
};

type HiddenVerdict = Extract<Verdict, { kind: 'hidden' }>;

/** Why a reply was hidden, in a member's words: the flagged ratings by category and probability, then other reasons. */
function hiddenReasons(verdict: HiddenVerdict, locale: SupportedLocale): string[] {
	const ratings = describeRatings(flaggedRatings(verdict.ratings), locale);
	const others = verdict.reasons.flatMap((reason) => REASON_TEXT[reason]?.(verdict, locale) ?? []);
	return [...ratings, ...others];
}

/** The notice's first line: hidden by the model's checks or a rule, and whether someone reviews it. */
function headline(verdict: HiddenVerdict, flagId: string | undefined, reviewers: Reviewers): MessageKey {
	if (isDiscordAutomodHold(verdict.rule)) {
		if (flagId === undefined) return 'members.ask.hidden.blockedNotKept';
		return reviewers === 'server' ? 'members.ask.hidden.blockedForServer' : 'members.ask.hidden.blockedForOperators';
	}
	if (reviewers === 'none') return 'members.ask.hidden.withheld';
	if (verdict.rule) return flagId === undefined ? 'members.ask.hidden.byRuleNotKept' : 'members.ask.hidden.byRuleForServer';
	if (flagId === undefined) return 'members.ask.hidden.notKept';
	return reviewers === 'server' ? 'members.ask.hidden.forServer' : 'members.ask.hidden.forOperators';
}

/** Who reviews a held answer, as its notice says: the server's moderators, the operators, or no one. */
export type Reviewers = 'server' | 'operators' | 'none';

/**
 * The member's answer when the reply is hidden, in the asking member's language (where it is public too: it answers
 * them): why, by category and probability, never the text. `reviewers`: who reviews its flag (this server's
 * moderators, Veil's operators), or `none` where nothing is kept (outside Veil's servers without an operators' server).
 */
export function hiddenNotice(verdict: HiddenVerdict, flagId: string | undefined, reviewers: Reviewers, locale: SupportedLocale): OutgoingMessage {
	const reasons = hiddenReasons(verdict, locale).join(' · ');
	const lines = [t(locale, headline(verdict, flagId, reviewers))];
	// Discord names no rule: the headline is the whole why.
	if (!isDiscordAutomodHold(verdict.rule)) lines.push(t(locale, 'members.ask.hidden.why', { reasons }));
	if (flagId) lines.push(`-# ${t(locale, 'members.ask.hidden.reference', { flagId })}`);
	return { content: truncate(lines.join('\n'), MESSAGE_LIMIT) };
}
