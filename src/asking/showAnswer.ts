import {
	ButtonBuilder,
	ButtonStyle,
	ComponentType,
	MessageFlags,
	type APIActionRowComponent,
	type APIButtonComponentWithCustomId,
	type InteractionWebhook,
	type JSONEncodable,
	type Message,
} from 'discord.js';
import type { InteractionContext } from '../app/context.js';
import { customIds } from '../app/customIds.js';
import { newConversationId } from '../conversations/conversationRepository.js';
import { filesToKeep } from '../conversations/keepFiles.js';
import { BlockedByAutomod } from '../discord/automodRefusal.js';
import { sentAsIs } from '../discord/sentAsIs.js';
import type { Verdict } from '../generation/safetyVerdict.js';
import type { SupportedLocale } from '../i18n/locales.js';
import { t } from '../i18n/translate.js';
import type { Logger } from '../logging/logger.js';
import { answerInPlace, answerMessages } from '../replies/answerMessages.js';
import type { AskInteraction, Gathered } from './askRequest.js';
import { continueInThreadButton } from './continueInThread.js';

type ShownVerdict = Extract<Verdict, { kind: 'shown' }>;

/**
 * Sends a shown answer in the deferral's place: split like any answer, the last message carrying its buttons
 * (below: Follow up, Regenerate, the votes, Report) for the conversation saved with it. The save starts before
 * the answer goes out (Discord shows the button before the bot hears back, and a quick press's read waits for the
 * save), but neither the member nor the ask waits for it: should it fail, the button is taken off again. A longer
 * answer's last message alone waits for it. Throws what Discord refused a part with; a refusal of its AutoMod (see
 * BlockedByAutomod) once what went out is taken back.
 */
export async function showAnswer(interaction: AskInteraction, verdict: ShownVerdict, gathered: Gathered, ctx: InteractionContext): Promise<void> {
	const { ephemeral } = gathered.question;
	// An empty answer starts nothing: there is nothing to follow up.
	const conversationId = verdict.text.trim() === '' ? undefined : newConversationId();
	// The asking member's language, public answers too: the notes and the button answer them.
	const [first, ...rest] = answerMessages(verdict.text, verdict.cutShort, ctx.locale);
	if (!first) return;
	// saveConversation never rejects: its failure is `false`.
	const saving = conversationId === undefined ? Promise.resolve(false) : saveConversation(interaction, conversationId, verdict, gathered, ctx);
	const withButton = <T extends object>(part: T) =>
		conversationId === undefined
			? part
			: {
					...part,
					components: answerButtonRows({
						conversationId,
						regenerate: offersRegenerate(gathered),
						locale: ctx.locale,
						continueInThread: continueInThreadButton(
							conversationId,
							{ ephemeral, guildId: ctx.place.guildId, appPermissions: interaction.appPermissions },
							ctx.locale,
						),
					}),
				};
	const posted: Message[] = [];
	try {
		if (rest.length === 0) {
			await answerInPlace(interaction, withButton(first), ephemeral, ctx.log);
			// The answer is out, and the ask ends (and is counted: a /usage sent the moment it shows counts it) without
			// waiting for the save. Should the save fail, the buttons come off later; should that fail too, a press
			// answers that the conversation expired.
			if (conversationId !== undefined) void takeButtonsOffUnlessSaved(saving, interaction.webhook, ctx.log);
			return;
		}
		await answerInPlace(interaction, first, ephemeral, ctx.log);
		for (const [index, message] of rest.entries()) {
			const part = index === rest.length - 1 && (await saving) ? withButton(message) : message;
			posted.push(await interaction.followUp({ ...part, flags: ephemeral ? MessageFlags.Ephemeral : undefined }));
		}
	} catch (error) {
		if (BlockedByAutomod.from(error))
			await withdraw(interaction, posted, conversationId !== undefined && (await saving) ? conversationId : undefined, ctx);
		throw error;
	}
}

/** Holds only the interaction's webhook, so the ask's own objects go once its answer is out. */
async function takeButtonsOffUnlessSaved(saving: Promise<boolean>, webhook: InteractionWebhook, log: Logger): Promise<void> {
	if (await saving) return;
	await webhook
		.editMessage('@original', { components: [] })
		.catch((error: unknown) => log.warn({ err: error }, 'could not take the Follow up button off'));
}

/** Regenerate asks the same turn again: not an Ask Veil answer's, whose quoted message is not kept to ask again. */
export function offersRegenerate({ question }: Gathered): boolean {
	return question.source !== 'askVeil';
}

/**
 * Takes back what went out of an answer Discord's AutoMod then refused, since it is held whole: the parts posted
 * after the first (the first, in the deferral's place, gives way to the notice), and the conversation saved with it,
 * whose Follow up button never reached anyone.
 */
async function withdraw(
	interaction: AskInteraction,
	posted: readonly Message[],
	conversationId: string | undefined,
	ctx: InteractionContext,
): Promise<void> {
	const failed = (what: string) => (error: unknown) => ctx.log.warn({ err: error }, `could not take back ${what} of a refused answer`);
	await Promise.all([
		...posted.map((message) => interaction.deleteReply(message).catch(failed('a part'))),
		conversationId === undefined ? undefined : ctx.conversations.erase(ctx.place.scope, conversationId).catch(failed('the conversation')),
	]);
}

/**
 * Saves the conversation as it stands after this answer; false when the store failed, which costs the Follow up
 * button, not the answer (the log says so).
 */
async function saveConversation(
	interaction: AskInteraction,
	id: string,
	verdict: ShownVerdict,
	{ question, files }: Gathered,
	ctx: InteractionContext,
): Promise<boolean> {
	const askerId = interaction.user.id;
	// An Ask Veil prompt is kept without the message (another member's words), and so without its files.
	const kept = files && question.source !== 'askVeil' ? { files: filesToKeep(files, question.prompt, verdict.text) } : {};
	try {
		await ctx.conversations.save(ctx.place.scope, {
			id,
			ownerId: askerId,
			ephemeral: question.ephemeral,
			turns: [...(question.history ?? []), { role: 'user', text: question.savedPrompt, by: askerId, ...kept }, { role: 'model', text: verdict.text }],
		});
		return true;
	} catch (error) {
		ctx.log.error({ err: error }, 'could not save the conversation; the answer goes without Follow up');
		return false;
	}
}

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
