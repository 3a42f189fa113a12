import {
	ButtonBuilder,
	ContainerBuilder,
	escapeMarkdown,
	FileBuilder,
	MessageFlags,
	SectionBuilder,
	SeparatorSpacingSize,
	TextDisplayBuilder,
	time,
	TimestampStyles,
	type ActionRowBuilder,
	type AttachmentBuilder,
} from 'discord.js';
import type { SupportedLocale } from '../i18n/locales.js';
import { t } from '../i18n/translate.js';
import { categoryLabel, upstreamLabel } from '../replies/ratingLabels.js';
import { truncate } from '../replies/truncate.js';
import type { CaseNotesOf } from './caseNotes.js';
import { flagStatus, STATUS_COLOR } from './caseStatus.js';
import { describeStopReasons, flagPlace } from './flagLabels.js';
import type { FlagRecord } from './storedFlag.js';
import { SAFE_PROBABILITY } from '../generation/safetyVerdict.js';

/** Discord's cap on the text of all Text Displays of one message, and the room kept for what the card adds last. */
const TEXT_LIMIT = 4000;
const MARGIN = 40;
/** Reports a card lists by name; the others are counted. */
const REPORTS_SHOWN = 3;
const NOTE_LIMIT = 300;

/**
 * A Components V2 message: what `channel.send`, `editReply` and `messages.edit` take. No content and no embeds go
 * with it (Discord refuses them beside the flag); `attachments: []` makes an edit replace the files it had.
 */
export interface CardMessage {
	flags: MessageFlags.IsComponentsV2;
	components: Array<ContainerBuilder | TextDisplayBuilder>;
	files: AttachmentBuilder[];
	attachments: [];
}

/** What goes inside a case's card beside what every card shows. */
export interface CardParts {
	/** Read before the card, e.g. the outcome of the button just pressed. */
	readonly note?: string;
	/** A button beside the heading (the mod-log's View). */
	readonly accessory?: ButtonBuilder;
	/** The case's words as moderators read them here (the held prompt and reply, a reported answer): fitted into what room is left. */
	readonly body?: (room: number) => { readonly texts: readonly string[]; readonly files: readonly AttachmentBuilder[] };
	/** The decision buttons, while the case is pending. */
	readonly actions: ReadonlyArray<ActionRowBuilder<ButtonBuilder>>;
	/** A last small line. */
	readonly footer?: string;
}

/**
 * A case as a Components V2 card, in the reader's language: a container coloured by status, the case number and
 * status as a heading, who, where and when, why (each safety category with its probability, the AutoMod rule, or
 * the reports), the member's review request, the history of the case, and its buttons.
 */
export function caseCard(flag: FlagRecord, notes: CaseNotesOf, locale: SupportedLocale, parts: CardParts): CardMessage {
	const status = flag.decision?.kind ?? 'pending';
	const state = [t(locale, `cases.state.${status}`), ...(notes.reviewRequest && !flag.decision ? [t(locale, 'cases.reviewAskedTag')] : [])].join(
		' · ',
	);
	const heading = `## ${
		flag.caseNumber === undefined
			? t(locale, 'cases.headingNoCase', { id: flag.id, state })
			: t(locale, 'cases.heading', { caseNumber: flag.caseNumber, state })
	}`;
	const when = time(new Date(flag.createdAt), TimestampStyles.ShortDateTime);
	const who = [
		t(locale, flag.report ? 'cases.whoReported' : 'cases.who', { userId: flag.userId, place: flagPlace(flag, locale), when }),
		`-# ${t(locale, 'moderators.flagValue', { id: flag.id, model: truncate(flag.model, 100) })}`,
	].join('\n');
	const sections = [whyText(flag, notes, locale), reviewText(notes, locale), reportsText(notes, locale)].filter((text) => text !== '');
	const history = historyText(flag, notes, locale);
	const used = [parts.note ?? '', heading, who, ...sections, history, parts.footer ?? ''].reduce((sum, text) => sum + text.length, 0);
	const body = parts.body?.(Math.max(0, TEXT_LIMIT - used - MARGIN));

	const card = new ContainerBuilder().setAccentColor(STATUS_COLOR[status]);
	if (parts.accessory) {
		card.addSectionComponents(
			new SectionBuilder().addTextDisplayComponents(new TextDisplayBuilder().setContent(heading)).setButtonAccessory(parts.accessory),
		);
	} else {
		card.addTextDisplayComponents(new TextDisplayBuilder().setContent(heading));
	}
	card.addTextDisplayComponents(new TextDisplayBuilder().setContent(who));
	card.addSeparatorComponents((separator) => separator.setDivider(true).setSpacing(SeparatorSpacingSize.Small));
	card.addTextDisplayComponents(...sections.map((text) => new TextDisplayBuilder().setContent(text)));
	if (body && body.texts.length > 0) {
		card.addSeparatorComponents((separator) => separator.setDivider(true).setSpacing(SeparatorSpacingSize.Small));
		card.addTextDisplayComponents(...body.texts.map((text) => new TextDisplayBuilder().setContent(text)));
		// A file shows in a V2 message only through a File component that names it.
		for (const file of body.files) if (file.name) card.addFileComponents(new FileBuilder().setURL(`attachment://${file.name}`));
	}
	card.addSeparatorComponents((separator) => separator.setDivider(true).setSpacing(SeparatorSpacingSize.Small));
	card.addTextDisplayComponents(new TextDisplayBuilder().setContent(history));
	if (parts.actions.length > 0) card.addActionRowComponents(...parts.actions);
	if (parts.footer) card.addTextDisplayComponents(new TextDisplayBuilder().setContent(`-# ${parts.footer}`));
	return {
		flags: MessageFlags.IsComponentsV2,
		components: [...(parts.note ? [new TextDisplayBuilder().setContent(parts.note)] : []), card],
		files: [...(body?.files ?? [])],
		attachments: [],
	};
}

/**
 * Why the case exists: every safety category with its probability (`Harassment · HIGH`, the flagged ones in bold,
 * the rest `NEGLIGIBLE`), then the AutoMod rule or other reasons; for a reported answer, that a member reported it.
 */
function whyText(flag: FlagRecord, notes: CaseNotesOf, locale: SupportedLocale): string {
	const lines: string[] = [];
	if (flag.report) lines.push(t(locale, 'cases.reportedTag').replace(/^./u, (first) => first.toLocaleUpperCase(locale)));
	for (const rating of flag.ratings) {
		const flagged = rating.probability !== SAFE_PROBABILITY || rating.blocked;
		const label = [
			categoryLabel(rating.category, locale),
			upstreamLabel(rating.probability, locale),
			...(rating.blocked ? [t(locale, 'cases.blocked')] : []),
		].join(' · ');
		const line = rating.source === 'prompt' ? t(locale, 'cases.inPrompt', { line: label }) : label;
		lines.push(flagged ? `**${line}**` : line);
	}
	if (!flag.report) lines.push(...describeStopReasons(flag, locale));
	if (lines.length === 0 && notes.reports.length === 0) lines.push(t(locale, 'moderators.ratingsMissing'));
	return [t(locale, 'cases.why'), ...lines].join('\n');
}

function reviewText({ reviewRequest }: CaseNotesOf, locale: SupportedLocale): string {
	if (!reviewRequest) return '';
	const asked = t(locale, 'cases.reviewAsked', { when: time(new Date(reviewRequest.at), TimestampStyles.RelativeTime) });
	return reviewRequest.note ? `${asked}\n${quote(reviewRequest.note)}` : asked;
}

/** The reports, newest last: who (moderators alone read cards), when, and the note. */
function reportsText({ reports }: CaseNotesOf, locale: SupportedLocale): string {
	if (reports.length === 0) return '';
	const shown = reports.slice(-REPORTS_SHOWN);
	const lines = shown.map((report) => {
		const line = `- <@${report.by}> ${time(new Date(report.at), TimestampStyles.RelativeTime)}`;
		return report.note ? `${line}\n${quote(report.note)}` : line;
	});
	const more = reports.length - shown.length;
	return [
		t(locale, 'cases.reports', { count: reports.length }),
		...(more > 0 ? [`-# ${t(locale, 'cases.moreReports', { count: more })}`] : []),
		...lines,
	].join('\n');
}

/** What happened to the case, in order: held or first reported, the review request, the decision with its reason. */
function historyText(flag: FlagRecord, notes: CaseNotesOf, locale: SupportedLocale): string {
	const at = (iso: string) => time(new Date(iso), TimestampStyles.ShortDateTime);
	const lines = [`- ${t(locale, flag.report ? 'cases.historyReported' : 'cases.historyHeld', { when: at(flag.createdAt) })}`];
	if (notes.reviewRequest) lines.push(`- ${t(locale, 'cases.reviewAsked', { when: at(notes.reviewRequest.at) })}`);
	if (flag.decision) {
		lines.push(`- ${flagStatus(flag, locale)}`);
		if (flag.decision.reason) lines.push(quote(flag.decision.reason));
	} else {
		lines.push(`- ${t(locale, 'moderators.status.pending')}`);
	}
	return [t(locale, 'cases.history'), ...lines].join('\n');
}

/** A member's or moderator's words as a quote: markdown escaped, one line, within a note's length. */
function quote(text: string): string {
	return `> ${truncate(escapeMarkdown(text).replace(/\s*\n\s*/g, ' '), NOTE_LIMIT + 40)}`;
}
