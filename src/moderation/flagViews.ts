import { ActionRowBuilder, AttachmentBuilder, ButtonBuilder, ButtonStyle, EmbedBuilder, escapeMarkdown, time, TimestampStyles } from 'discord.js';
import type { CustomIdCodec } from '../discord/customId.js';
import type { FlagDecision, FlagPage, FlagRecord } from './flagRepository.js';
import { ATTACHMENT_NAME } from '../replies/answerMessages.js';
import { truncate } from '../replies/truncate.js';
import { categoryLabel, describeRatings, flaggedRatings, upstreamLabel } from '../replies/ratingLabels.js';
import { describeStopReasons, flagPlace } from './flagLabels.js';
import type { SupportedLocale } from '../i18n/locales.js';
import { sentence, t, type Sentence } from '../i18n/translate.js';
import { filePart } from '../files/filePart.js';

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
	readonly release: CustomIdCodec<[flagId: string]>;
	readonly dismiss: CustomIdCodec<[flagId: string]>;
	readonly review: CustomIdCodec<[flagId: string]>;
}
const PROMPT_ATTACHMENT_NAME = 'prompt.md';

// Embed budget: description ≤ 4096 and the whole embed ≤ 6000; the fields below stay well under the rest.
const PROMPT_PREVIEW = 1000;
const TEXT_PREVIEW = 2600;
const LIST_LINE_LIMIT = 380;

export const STATUS_COLOR: Readonly<Record<FlagDecision | 'pending', number>> = {
	pending: 0xe67e22,
	released: 0x2ecc71,
	dismissed: 0x95a5a6,
	reviewed: 0x3498db,
};

/** A message as the flag views send or edit it: every part given, so an edit also drops what is no longer there. */
export interface FlagMessage {
	content: string;
	embeds: EmbedBuilder[];
	components: ActionRowBuilder<ButtonBuilder>[];
	files: AttachmentBuilder[];
}

/** `pending`, or who decided what and when, e.g. `released by <@1> <t:…:R>`; mentions render and never ping in embeds. */
export function flagStatus(flag: FlagRecord, locale: SupportedLocale): string {
	if (!flag.decision) return t(locale, 'moderators.status.pending');
	return t(locale, `moderators.status.${flag.decision.kind}`, {
		userId: flag.decision.by,
		when: time(new Date(flag.decision.at), TimestampStyles.RelativeTime),
	});
}

/** `**#12** · `, the case number a list line starts with; nothing for a flag from before cases were numbered. */
export function caseLabel(flag: FlagRecord): string {
	return flag.caseNumber === undefined ? '' : `**#${flag.caseNumber}** · `;
}

/** Why it was hidden in a few words: each flagged category with its probability, or the other reason. */
export function flagCategories(flag: FlagRecord, locale: SupportedLocale): string {
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
			`${caseLabel(flag)}\`${flag.id}\` · <@${flag.userId}> · ${time(new Date(flag.createdAt), TimestampStyles.ShortDateTime)} · ` +
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
 * The whole record for a moderator: metadata, status, a jump link to the hidden-reply notice, the prompt and the
 * text (previewed in the embed, attached in full when longer), and the decision buttons while it is pending.
 * `note` opens the message, e.g. the outcome of the button just pressed.
 */
export function flagViewMessage(flag: FlagRecord, ids: FlagViewIds, locale: SupportedLocale, note = ''): FlagMessage {
	const status = flag.decision?.kind ?? 'pending';
	const link = noticeLink(flag);
	const reasons = describeStopReasons(flag, locale);
	const embed = new EmbedBuilder()
		.setTitle(
			flag.caseNumber === undefined
				? t(locale, 'moderators.viewTitle', { id: flag.id })
				: t(locale, 'moderators.viewTitleCase', { caseNumber: flag.caseNumber, id: flag.id }),
		)
		.setColor(STATUS_COLOR[status])
		.addFields(
			{ name: t(locale, 'moderators.fields.member'), value: `<@${flag.userId}>`, inline: true },
			{ name: t(locale, 'moderators.fields.channel'), value: flagPlace(flag, locale), inline: true },
			{ name: t(locale, 'moderators.fields.when'), value: time(new Date(flag.createdAt), TimestampStyles.ShortDateTime), inline: true },
			{ name: t(locale, 'moderators.fields.status'), value: flagStatus(flag, locale) },
			...(flag.decision?.reason ? [{ name: t(locale, 'moderators.reasonField'), value: truncate(escapeMarkdown(flag.decision.reason), 1024) }] : []),
			{
				name: t(locale, 'moderators.fields.ratings'),
				value: truncate(describeRatings(flaggedRatings(flag.ratings), locale).join('\n') || t(locale, 'moderators.ratingsMissing'), 600),
			},
			...(reasons.length > 0 ? [{ name: t(locale, 'moderators.fields.also'), value: truncate(reasons.join('\n'), 300) }] : []),
			{
				name: t(locale, 'moderators.fields.hiddenReply'),
				value: t(locale, link ? 'moderators.noticeLink' : flag.outside ? 'moderators.noNoticeOutside' : 'moderators.noNotice', { url: link ?? '' }),
			},
			{
				name: t(locale, 'moderators.fields.keptUntil'),
				value: t(locale, 'moderators.keptUntilValue', {
					when: time(new Date(flag.expiresAt), TimestampStyles.ShortDateTime),
					model: truncate(flag.model, 100),
				}),
			},
		);
	const files: AttachmentBuilder[] = [];
	// Erased with the prompt on a dismissal: only a flag that still holds the words says whose they are.
	if (flag.quotedAuthor && flag.prompt !== null) {
		embed.addFields({
			name: t(locale, 'moderators.quotedLabel'),
			value: t(locale, 'moderators.quotedAuthor', { userId: flag.quotedAuthor.id, name: truncate(escapeMarkdown(flag.quotedAuthor.name), 100) }),
		});
	}
	if (flag.unopened !== undefined) {
		embed.setDescription(`*${t(locale, 'moderators.unreadable')}*`);
	} else if (flag.prompt === null || flag.text === null) {
		embed.setDescription(`*${t(locale, 'moderators.erased')}*`);
	} else {
		const prompt = preview(flag.prompt, PROMPT_PREVIEW, locale);
		const text = preview(flag.text, TEXT_PREVIEW, locale);
		// The files' text goes with the prompt, in full, as it went upstream; their names show in the embed.
		const sentFiles = flag.files ?? [];
		if (sentFiles.length > 0) {
			embed.addFields({
				name: t(locale, 'moderators.filesField'),
				value: truncate(sentFiles.map((file) => `\`${file.name.replace(/`/g, "'")}\``).join(', '), 1000),
			});
		}
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
		embed.setDescription(
			`${t(locale, 'moderators.promptHeading')}\n${prompt.block}\n${t(locale, 'moderators.replyHeading')}\n${text.block}${attached}`,
		);
	}
	return message(note, [embed], status === 'pending' ? [decisionButtons(ids, flag.id, locale)] : [], files);
}

/** What a moderator reads after a press that found an earlier decision. */
export function alreadyDecidedNote(flag: FlagRecord, locale: SupportedLocale): string {
	return t(locale, 'moderators.alreadyDecided', { status: flagStatus(flag, locale) });
}

function decisionButtons(ids: FlagViewIds, flagId: string, locale: SupportedLocale): ActionRowBuilder<ButtonBuilder> {
	return new ActionRowBuilder<ButtonBuilder>().addComponents(
		new ButtonBuilder().setCustomId(ids.release.build(flagId)).setLabel(t(locale, 'moderators.buttons.release')).setStyle(ButtonStyle.Success),
		new ButtonBuilder().setCustomId(ids.dismiss.build(flagId)).setLabel(t(locale, 'moderators.buttons.dismiss')).setStyle(ButtonStyle.Danger),
		new ButtonBuilder().setCustomId(ids.review.build(flagId)).setLabel(t(locale, 'moderators.buttons.review')).setStyle(ButtonStyle.Secondary),
	);
}

function pageButton(id: FlagViewIds['page'], label: string, page: number, moderatorId: string, disabled: boolean): ButtonBuilder {
	return new ButtonBuilder().setCustomId(id.build(page, moderatorId)).setLabel(label).setStyle(ButtonStyle.Secondary).setDisabled(disabled);
}

/**
 * Model text in a code block, so nothing in it renders as markup, links or mentions; a fence inside it is
 * defused with look-alike characters (the attachment keeps the exact text).
 */
function preview(text: string, limit: number, locale: SupportedLocale): { block: string; cut: boolean } {
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
