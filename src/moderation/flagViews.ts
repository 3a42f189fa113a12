import { ActionRowBuilder, AttachmentBuilder, ButtonBuilder, ButtonStyle, EmbedBuilder, escapeMarkdown, time, TimestampStyles } from 'discord.js';
import type { CustomIdCodec } from '../discord/customId.js';
import type { FlagPage, FlagRecord } from './flagRepository.js';
import { ATTACHMENT_NAME } from '../replies/answerMessages.js';
import { truncate } from '../replies/truncate.js';
import { categoryLabel, flaggedRatings, upstreamLabel } from '../replies/ratingLabels.js';
import { describeStopReasons, flagPlace } from './flagLabels.js';
import type { SupportedLocale } from '../i18n/locales.js';
import { sentence, t, type Sentence } from '../i18n/translate.js';
import { filePart } from '../files/filePart.js';
import { caseCard, type CardMessage } from './caseCard.js';
import type { CaseNotesOf } from './caseNotes.js';
import { flagStatus, STATUS_COLOR } from './caseStatus.js';

export { flagStatus, STATUS_COLOR } from './caseStatus.js';

/** How long hidden replies are kept, in the largest unit that fits (`30 days`, `1.5 hours`). */
function keptFor(retentionDays: number): Sentence {
	const units = [
		[1, 'moderators.keptFor.days'],
		[1 / 24, 'moderators.keptFor.hours'],
		[1 / 1440, 'moderators.keptFor.minutes'],
		[1 / 86_400, 'moderators.keptFor.seconds'],
	] as const;
	const [size, key] = units.find(([size]) => retentionDays >= size) ?? units[3];
	return sentence(key, { count: Number((retentionDays / size).toFixed(1)) });
}

/** The ids of the buttons these views carry: `/flagged` handles them, and its caller passes them in. */
export interface FlagViewIds {
	readonly page: CustomIdCodec<[page: number, moderatorId: string]>;
	/** A mod-log card's View: the case's whole view, ephemeral. */
	readonly view: CustomIdCodec<[flagId: string]>;
	readonly release: CustomIdCodec<[flagId: string]>;
	readonly dismiss: CustomIdCodec<[flagId: string]>;
	readonly review: CustomIdCodec<[flagId: string]>;
	readonly remove: CustomIdCodec<[flagId: string]>;
	readonly keep: CustomIdCodec<[flagId: string]>;
}
const PROMPT_ATTACHMENT_NAME = 'prompt.md';

// The list's embed: description ≤ 4096, so ten lines of at most 380. A card's prompt preview: at most this much.
const PROMPT_PREVIEW = 1000;
const LIST_LINE_LIMIT = 380;

/** A message as the flag views send or edit it: every part given, so an edit also drops what is no longer there. */
export interface FlagMessage {
	content: string;
	embeds: EmbedBuilder[];
	components: ActionRowBuilder<ButtonBuilder>[];
	files: AttachmentBuilder[];
}

/** `**#12** · `, the case number a list line starts with; nothing for a flag from before cases were numbered. */
export function caseLabel(flag: FlagRecord): string {
	return flag.caseNumber === undefined ? '' : `**#${flag.caseNumber}** · `;
}

/** Why it was hidden in a few words: each flagged category with its probability, or the other reason. */
export function flagCategories(flag: FlagRecord, locale: SupportedLocale): string {
	if (flag.report) return t(locale, 'cases.reportedTag');
	const seen = new Set<string>();
	for (const line of flaggedRatings(flag.ratings)) {
		const label = `${categoryLabel(line.category, locale)} ${upstreamLabel(line.probability, locale)}`;
		seen.add(line.blocked ? t(locale, 'moderators.blockedLabel', { label }) : label);
	}
	for (const reason of describeStopReasons(flag, locale)) seen.add(reason);
	return seen.size > 0 ? [...seen].join(', ') : t(locale, 'moderators.ratingsIncomplete');
}

/** Where the member's hidden-reply notice is, when there is one (a private ask has none). */
export function noticeLink(flag: FlagRecord): string | undefined {
	if (!flag.noticeMessageId) return undefined;
	return `https://discord.com/channels/${flag.guildId}/${flag.channelId}/${flag.noticeMessageId}`;
}

/** One page of `/flagged list` (only channels the moderator moderates): a line per flag, and Previous/Next buttons that only `moderatorId` may use. */
export function flagListMessage(page: FlagPage, moderatorId: string, retentionDays: number, ids: FlagViewIds, locale: SupportedLocale): FlagMessage {
	if (page.total === 0) return message(t(locale, 'moderators.listEmpty', { keptFor: keptFor(retentionDays) }), [], []);
	const lines = page.flags.map((flag) =>
		truncate(
			`${caseLabel(flag)}${page.reviewAsked.has(flag.id) ? `📨 **${t(locale, 'cases.reviewAskedTag')}** · ` : ''}\`${flag.id}\` · <@${flag.userId}> · ${time(new Date(flag.createdAt), TimestampStyles.ShortDateTime)} · ` +
				`${flag.outside ? `${flagPlace(flag, locale)} · ` : ''}${flagCategories(flag, locale)} · **${flagStatus(flag, locale)}**`,
			LIST_LINE_LIMIT,
		),
	);
	const embed = new EmbedBuilder()
		.setTitle(t(locale, 'moderators.listTitle', { page: page.page, pageCount: page.pageCount }))
		.setColor(STATUS_COLOR.pending)
		.setDescription(lines.join('\n'))
		.setFooter({ text: t(locale, 'moderators.listFooter', { count: page.total, keptFor: keptFor(retentionDays) }) });
	const components =
		page.pageCount > 1
			? [
					new ActionRowBuilder<ButtonBuilder>().addComponents(
						pageButton(ids.page, t(locale, 'moderators.buttons.previous'), page.page - 1, moderatorId, page.page <= 1),
						pageButton(ids.page, t(locale, 'moderators.buttons.next'), page.page + 1, moderatorId, page.page >= page.pageCount),
					),
				]
			: [];
	return message('', [embed], components);
}

/**
 * The whole case for a moderator, as a Components V2 card (see caseCard): who, where, when, why, the member's
 * review request or the reports, the history, and the decision buttons while it is pending. Below the why, the words
 * of the case: a held answer's prompt and reply, or a reported answer as members saw it, each in a code block cut to
 * the room Discord's 4000 characters of text leave, and attached in full as a file (a File component) when cut or
 * when files went with the prompt. `note` opens the message, e.g. the outcome of the button just pressed.
 */
export function flagViewMessage(flag: FlagRecord, notes: CaseNotesOf, ids: FlagViewIds, locale: SupportedLocale, note = ''): CardMessage {
	const status = flag.decision?.kind ?? 'pending';
	return caseCard(flag, notes, locale, {
		note,
		body: (room) => caseWords(flag, room, locale),
		actions: status === 'pending' ? [decisionButtons(ids, flag, locale)] : [],
	});
}

/** The case's words for its card within `room` characters: the held prompt and reply, or the reported answer. */
function caseWords(flag: FlagRecord, room: number, locale: SupportedLocale): { texts: string[]; files: AttachmentBuilder[] } {
	const link = flag.report ? answerLink(flag) : noticeLink(flag);
	const meta = [
		flag.report
			? link && t(locale, 'cases.answerLink', { url: link })
			: t(locale, link ? 'moderators.noticeLink' : flag.outside ? 'moderators.noNoticeOutside' : 'moderators.noNotice', { url: link ?? '' }),
		`**${t(locale, 'moderators.fields.keptUntil')}** ${time(new Date(flag.expiresAt), TimestampStyles.ShortDateTime)}`,
		// Erased with the prompt on a dismissal: only a flag that still holds the words says whose they are.
		flag.quotedAuthor && flag.prompt !== null
			? `**${t(locale, 'moderators.quotedLabel')}** ${t(locale, 'moderators.quotedAuthor', { userId: flag.quotedAuthor.id, name: truncate(escapeMarkdown(flag.quotedAuthor.name), 100) })}`
			: undefined,
		flag.files?.length && flag.prompt !== null
			? `**${t(locale, 'moderators.filesField')}** ${truncate(flag.files.map((file) => `\`${file.name.replace(/`/g, "'")}\``).join(', '), 500)}`
			: undefined,
	]
		.filter((line): line is string => typeof line === 'string' && line !== '')
		.join('\n');
	if (flag.unopened !== undefined) return { texts: [meta, `*${t(locale, 'moderators.unreadable')}*`], files: [] };
	if (flag.report) {
		if (flag.text === null) return { texts: [meta, `*${t(locale, 'moderators.erased')}*`], files: [] };
		const answer = preview(flag.text, Math.max(200, room - meta.length - 200), locale);
		const files = answer.cut ? [new AttachmentBuilder(Buffer.from(flag.text, 'utf8'), { name: ATTACHMENT_NAME })] : [];
		const attached = answer.cut ? `\n-# ${t(locale, 'moderators.attachedInFull', { fileNames: [ATTACHMENT_NAME] })}` : '';
		return { texts: [meta, `${t(locale, 'cases.answerHeading')}\n${answer.block}${attached}`], files };
	}
	if (flag.prompt === null || flag.text === null) return { texts: [meta, `*${t(locale, 'moderators.erased')}*`], files: [] };
	const words = Math.max(300, room - meta.length - 300);
	const prompt = preview(flag.prompt, Math.min(PROMPT_PREVIEW, Math.floor(words / 3)), locale);
	const text = preview(flag.text, Math.max(100, words - prompt.block.length), locale);
	const files: AttachmentBuilder[] = [];
	// The files' text goes with the prompt, in full, as it went upstream; their names show above.
	const sentFiles = flag.files ?? [];
	if (prompt.cut || sentFiles.length > 0) {
		const whole = [flag.prompt, ...sentFiles.map((file) => filePart(file.name, file.text))].join('\n\n');
		files.push(new AttachmentBuilder(Buffer.from(whole, 'utf8'), { name: PROMPT_ATTACHMENT_NAME }));
	}
	if (text.cut) files.push(new AttachmentBuilder(Buffer.from(flag.text, 'utf8'), { name: ATTACHMENT_NAME }));
	const attached =
		prompt.cut || text.cut
			? `\n-# ${t(locale, 'moderators.attachedInFull', { fileNames: files.flatMap((file) => file.name ?? []) })}`
			: files.length > 0
				? `\n-# ${t(locale, 'moderators.filesAttached', { fileName: PROMPT_ATTACHMENT_NAME })}`
				: '';
	return {
		texts: [meta, `${t(locale, 'moderators.promptHeading')}\n${prompt.block}\n${t(locale, 'moderators.replyHeading')}\n${text.block}${attached}`],
		files,
	};
}

/** Where a reported answer is, in a server (outside, Discord has no link a moderator could open). */
export function answerLink(flag: FlagRecord): string | undefined {
	const messageId = flag.report?.messageIds[0];
	if (!messageId || flag.outside) return undefined;
	return `https://discord.com/channels/${flag.guildId}/${flag.channelId}/${messageId}`;
}

/** What a moderator reads after a press that found an earlier decision. */
export function alreadyDecidedNote(flag: FlagRecord, locale: SupportedLocale): string {
	return t(locale, 'moderators.alreadyDecided', { status: flagStatus(flag, locale) });
}

export function decisionButtons(ids: FlagViewIds, flag: FlagRecord, locale: SupportedLocale): ActionRowBuilder<ButtonBuilder> {
	const row = new ActionRowBuilder<ButtonBuilder>();
	if (flag.report) {
		return row.addComponents(
			new ButtonBuilder().setCustomId(ids.remove.build(flag.id)).setLabel(t(locale, 'cases.buttons.remove')).setStyle(ButtonStyle.Danger),
			new ButtonBuilder().setCustomId(ids.keep.build(flag.id)).setLabel(t(locale, 'cases.buttons.keep')).setStyle(ButtonStyle.Secondary),
		);
	}
	return row.addComponents(
		new ButtonBuilder().setCustomId(ids.release.build(flag.id)).setLabel(t(locale, 'moderators.buttons.release')).setStyle(ButtonStyle.Success),
		new ButtonBuilder().setCustomId(ids.dismiss.build(flag.id)).setLabel(t(locale, 'moderators.buttons.dismiss')).setStyle(ButtonStyle.Danger),
		new ButtonBuilder().setCustomId(ids.review.build(flag.id)).setLabel(t(locale, 'moderators.buttons.review')).setStyle(ButtonStyle.Secondary),
	);
}

function pageButton(id: FlagViewIds['page'], label: string, page: number, moderatorId: string, disabled: boolean): ButtonBuilder {
	return new ButtonBuilder().setCustomId(id.build(page, moderatorId)).setLabel(label).setStyle(ButtonStyle.Secondary).setDisabled(disabled);
}

/**
 * Model text in a code block, so nothing in it renders as markup, links or mentions; a fence inside it is
 * defused with look-alike characters (the attachment keeps the exact text).
 */
export function preview(text: string, limit: number, locale: SupportedLocale): { block: string; cut: boolean } {
	if (text === '') return { block: t(locale, 'moderators.emptyText'), cut: false };
	const shown = truncate(text, limit).replaceAll('```', 'ˋˋˋ');
	return { block: `\`\`\`\n${shown}\n\`\`\``, cut: text.length > limit };
}

function message(
	content: string,
	embeds: EmbedBuilder[],
	components: ActionRowBuilder<ButtonBuilder>[],
	files: AttachmentBuilder[] = [],
): FlagMessage {
	return { content, embeds, components, files };
}
