import {
	ButtonBuilder,
	ButtonStyle,
	ComponentType,
	type APIActionRowComponent,
	type APIButtonComponentWithCustomId,
	type JSONEncodable,
} from 'discord.js';
import { customIds } from '../app/customIds.js';
import type { SupportedLocale } from '../i18n/locales.js';
import { t } from '../i18n/translate.js';
import { sentAsIs } from '../discord/sentAsIs.js';

/** A button as Discord takes it, with the custom_id every one of Veil's carries. */
export type AnswerButton = APIButtonComponentWithCustomId;
/** A row of buttons, as an answer's message carries them. */
export type ButtonRow = APIActionRowComponent<AnswerButton>;

/** The versions a message keeps, oldest first (at most {@link MAX_VERSIONS}), and which of them is on screen. */
export interface Versions {
	readonly ids: readonly string[];
	readonly shownId: string;
}

/** A message keeps this many cleared versions of an answer; an older one is dropped when a newer one comes. */
export const MAX_VERSIONS = 3;

/** What decides a shown answer's buttons. */
export interface AnswerButtonsOf {
	/** The conversation saved after the version on screen: Follow up and the votes act on it. */
	readonly conversationId: string;
	/** Whether Regenerate is offered (not on an Ask Veil answer: the message it quoted is not kept to ask again). */
	readonly regenerate: boolean;
	/** The message's versions; one alone (or none given) shows no ◀ ▶. */
	readonly versions?: Versions;
	/** The language of the labels: the asking member's. */
	readonly locale: SupportedLocale;
	/** Report goes last in row 1: this one when given, else one for the conversation. */
	readonly report?: AnswerButton;
	/** Continue in a thread goes last in row 2 when given. */
	readonly continueInThread?: AnswerButton;
}

// Built and checked by the builders once, in each language at its first answer: each answer's buttons then differ
// only in the custom_id. (i18next's t() for the three labels took 74 µs of the 83 µs an answer's buttons cost, in a
// CPU profile of the bench at 200 asks a second.)
const RATE_UP = button(customIds.ask.rate.build('up', 'conversation'), ButtonStyle.Secondary, { emoji: '👍' });
const RATE_DOWN = button(customIds.ask.rate.build('down', 'conversation'), ButtonStyle.Secondary, { emoji: '👎' });
const PREVIOUS = button(customIds.ask.version.build('target', 'newest'), ButtonStyle.Secondary, { emoji: '◀️' });
const NEXT = button(customIds.ask.version.build('target', 'newest'), ButtonStyle.Secondary, { emoji: '▶️' });

/** The buttons whose label is a sentence, in one language. */
interface Labelled {
	readonly followUp: AnswerButton;
	readonly regenerate: AnswerButton;
	readonly report: AnswerButton;
	readonly cancel: AnswerButton;
}

const labelledByLocale = new Map<SupportedLocale, Labelled>();

function labelledIn(locale: SupportedLocale): Labelled {
	let labelled = labelledByLocale.get(locale);
	if (!labelled) {
		labelled = {
			followUp: button(customIds.ask.followUp.build('conversation'), ButtonStyle.Secondary, {
				label: t(locale, 'members.conversation.followUpButton'),
			}),
			regenerate: button(customIds.ask.regenerate.build('shown', 'newest'), ButtonStyle.Secondary, {
				emoji: '🔄',
				label: t(locale, 'answers.buttons.regenerate'),
			}),
			report: button(customIds.ask.report.build('conversation'), ButtonStyle.Secondary, { emoji: '🚩', label: t(locale, 'cases.buttons.report') }),
			cancel: button(customIds.ask.cancel.build('ask', 'asker'), ButtonStyle.Danger, { label: t(locale, 'answers.buttons.cancel') }),
		};
		labelledByLocale.set(locale, labelled);
	}
	return labelled;
}

function button(customId: string, style: ButtonStyle, { label, emoji }: { label?: string; emoji?: string }): AnswerButton {
	const builder = new ButtonBuilder().setCustomId(customId).setStyle(style);
	if (label !== undefined) builder.setLabel(label);
	if (emoji !== undefined) builder.setEmoji({ name: emoji });
	return builder.toJSON() as AnswerButton;
}

/**
 * A shown answer's buttons, on its last message. Row 1: Follow up, Regenerate, 👍, 👎 (and Report). Row 2, only when
 * needed: ◀ where ▶ (when the message keeps more than one version; the arrow with nowhere to go is disabled), and
 * Continue in a thread. Discord allows 5 buttons a row.
 */
export function answerButtonRows(of: AnswerButtonsOf): Array<JSONEncodable<ButtonRow>> {
	const { conversationId, versions } = of;
	const labelled = labelledIn(of.locale);
	const newestId = versions?.ids.at(-1) ?? conversationId;
	const first: AnswerButton[] = [{ ...labelled.followUp, custom_id: customIds.ask.followUp.build(conversationId) }];
	if (of.regenerate) first.push({ ...labelled.regenerate, custom_id: customIds.ask.regenerate.build(conversationId, newestId) });
	first.push(
		{ ...RATE_UP, custom_id: customIds.ask.rate.build('up', conversationId) },
		{ ...RATE_DOWN, custom_id: customIds.ask.rate.build('down', conversationId) },
	);
	// Report, for anyone who sees the answer: its conversation names the version on screen.
	first.push(of.report ?? { ...labelled.report, custom_id: customIds.ask.report.build(conversationId) });
	const rows: ButtonRow[] = [{ type: ComponentType.ActionRow, components: first }];
	const second: AnswerButton[] = versions && versions.ids.length > 1 ? versionButtons(versions) : [];
	if (of.continueInThread) second.push(of.continueInThread);
	if (second.length > 0) rows.push({ type: ComponentType.ActionRow, components: second });
	return rows.map(sentAsIs);
}

/** ◀ `n/N` ▶: each arrow names the version it shows, and the newest, whose record lists them all. */
function versionButtons({ ids, shownId }: Versions): AnswerButton[] {
	const newestId = ids.at(-1) ?? shownId;
	const at = Math.max(0, ids.indexOf(shownId));
	const previous = ids[at - 1];
	const next = ids[at + 1];
	return [
		{ ...PREVIOUS, custom_id: customIds.ask.version.build(previous ?? shownId, newestId), disabled: previous === undefined },
		{
			type: ComponentType.Button,
			style: ButtonStyle.Secondary,
			label: `${at + 1}/${ids.length}`,
			custom_id: customIds.ask.versionsAt.build(newestId),
			disabled: true,
		},
		// A disabled arrow names the version shown: the other arrow names another, so the ids stay apart.
		{ ...NEXT, custom_id: customIds.ask.version.build(next ?? `${shownId}`, newestId), disabled: next === undefined },
	];
}

/** The row of Cancel, on the message of an ask that waits in line or is being generated, for its asker alone. */
export function cancelRow(askId: string, askerId: string, locale: SupportedLocale): JSONEncodable<ButtonRow> {
	return sentAsIs({
		type: ComponentType.ActionRow,
		components: [{ ...labelledIn(locale).cancel, custom_id: customIds.ask.cancel.build(askId, askerId) }],
	});
}
