import {
	LabelBuilder,
	MessageFlags,
	ModalBuilder,
	TextInputBuilder,
	TextInputStyle,
	type ChatInputCommandInteraction,
	type ModalSubmitInteraction,
} from 'discord.js';
import { button, modal, type ButtonHandler, type Command } from '../src/app/command.js';
import { runSubcommand, type SubcommandArguments, type SubcommandHandlers, type SubcommandName } from '../src/app/commandData.js';
import type { InteractionContext } from '../src/app/context.js';
import { customIds } from '../src/app/customIds.js';
import type { CustomIdCodec } from '../src/discord/customId.js';
import { UserInputError } from '../src/errors/veilError.js';
import type { FlagDecision, FlagPage, FlagRecord } from '../src/moderation/flagRepository.js';
import { alreadyDecidedNote, flagListMessage, flagViewMessage } from '../src/moderation/flagViews.js';
import { flagStatsMessage } from '../src/moderation/flagStatsView.js';
import { MANAGE_MESSAGES, type InServer } from '../src/discord/permissions.js';
import { PermissionLookup } from '../src/discord/permissionLookup.js';
import { canModerateIn, moderatedChannels } from '../src/moderation/flagAccess.js';
import { postRelease, type ReleaseResult } from '../src/moderation/releaseFlag.js';
import { tellMemberDismissed } from '../src/moderation/dismissalNotice.js';
import { inLocale, updateModlogPost } from '../src/moderation/modlog.js';
import { removeAnswer, type Removal } from '../src/moderation/removeAnswer.js';
import { REPORT_DECISIONS } from '../src/moderation/storedFlag.js';
import type { SupportedLocale } from '../src/i18n/locales.js';
import { render, sentence, t, type Sentence } from '../src/i18n/translate.js';
import { serverLocaleOf } from '../src/moderation/serverLocale.js';
import { decidedNote } from '../src/moderation/decidedNote.js';
import { flaggedData } from './definitions/flagged.js';

/** Every part of /flagged is for those who moderate here: the command, its buttons and its form. */
const MODERATOR = { permission: MANAGE_MESSAGES };

/** The buttons /flagged owns: list pages, the mod-log's View reply, and a flag's three decisions. */
const ids = customIds.flagged;

/** The reason's text input in a decision's form, and its longest. */
const REASON_INPUT = 'reason';
const REASON_MAX_LENGTH = 300;

/*
 * Two checks, both from Discord's own permissions. The command (or button) needs Manage Messages where it is used,
 * as its default permissions say, so a member who moderates nowhere gets the plain refusal. Then each flag needs
 * View Channel and Manage Messages in the channel it was asked in (see flagAccess): a flag from any other channel
 * is left out of the list and answers exactly like an unknown id.
 */
type ModeratorInteraction = ChatInputCommandInteraction<InServer>;
type Args<Name extends SubcommandName<typeof flaggedData>> = SubcommandArguments<typeof flaggedData, Name>;

const subcommands = {
	async list(interaction, { page }: Args<'list'>, ctx) {
		await interaction.deferReply({ flags: MessageFlags.Ephemeral });
		const listed = await listPage(interaction.guildId, page ?? 1, PermissionLookup.forInteraction(interaction, interaction.guildId), ctx);
		await interaction.editReply(flagListMessage(listed, interaction.user.id, ctx.flags.retentionDays, ids, ctx.locale));
	},
	async view(interaction, { id }: Args<'view'>, ctx) {
		await interaction.deferReply({ flags: MessageFlags.Ephemeral });
		const flag = await findFlag(interaction.guildId, id, PermissionLookup.forInteraction(interaction, interaction.guildId), ctx);
		await interaction.editReply(flagViewMessage(flag, await ctx.flags.notes.of(flag.guildId, flag.id), ids, ctx.locale));
	},
	async stats(interaction, { days }: Args<'stats'>, ctx) {
		await interaction.deferReply({ flags: MessageFlags.Ephemeral });
		// Within the retention: the counters of older days are gone with their flags.
		const within = Math.min(days ?? 7, Math.max(1, Math.ceil(ctx.flags.retentionDays)));
		const [summary, ratings] = await Promise.all([
			ctx.flags.stats.summary(interaction.guildId, within),
			// The votes are a summary beside the held answers': a store that fails them costs only their line.
			ctx.ratings.summary(interaction.guildId, within).catch((error: unknown) => {
				ctx.log.warn({ err: error }, 'could not read the ratings for the stats');
				return undefined;
			}),
		]);
		await interaction.editReply(flagStatsMessage(summary, ctx.locale, ratings));
	},
} satisfies SubcommandHandlers<typeof flaggedData, ModeratorInteraction>;

async function execute(interaction: ModeratorInteraction, ctx: InteractionContext): Promise<void> {
	await runSubcommand(interaction, flaggedData, subcommands, ctx);
}

/** Previous/Next: only the moderator who listed turns the pages, updated in place. */
const turnPage = button({
	id: ids.page,
	requires: MODERATOR,
	async handle(interaction, [page, moderatorId], ctx) {
		if (interaction.user.id !== moderatorId) {
			throw new UserInputError({ answer: sentence('moderators.notPageOwner'), code: 'not_owner' });
		}
		await interaction.deferUpdate();
		const lookup = PermissionLookup.forInteraction(interaction, interaction.guildId);
		const listed = await listPage(interaction.guildId, page, lookup, ctx);
		await interaction.editReply(flagListMessage(listed, moderatorId, ctx.flags.retentionDays, ids, ctx.locale));
	},
});

/** The mod-log's View (a card's, or "View reply" on an older post): the same view as `/flagged view`, ephemeral. */
const viewFromModlog = button({
	id: ids.view,
	requires: MODERATOR,
	async handle(interaction, [id], ctx) {
		await interaction.deferReply({ flags: MessageFlags.Ephemeral });
		const lookup = PermissionLookup.forInteraction(interaction, interaction.guildId);
		const flag = await findFlag(interaction.guildId, normaliseId(id), lookup, ctx);
		await interaction.editReply(flagViewMessage(flag, await ctx.flags.notes.of(flag.guildId, flag.id), ids, ctx.locale));
	},
});

/**
 * Release, Dismiss and Mark reviewed (a held answer), Remove and Keep (a reported one) open a short form with an
 * optional reason; its submit decides (see decisionForm). Only a moderator gets the form: anyone else gets the plain
 * refusal at once.
 */
function decisionButton(id: CustomIdCodec<[flagId: string]>, kind: FlagDecision): ButtonHandler {
	return button({
		id,
		requires: MODERATOR,
		async handle(interaction, [flagId], ctx) {
			const reader = ctx.locale;
			await interaction.showModal(
				new ModalBuilder()
					.setCustomId(ids.decide.build(kind, normaliseId(flagId)))
					.setTitle(
						kind === 'removed' || kind === 'kept'
							? t(reader, `cases.decisionForm.title.${kind}`)
							: t(reader, `moderators.decisionForm.title.${kind}`),
					)
					.addLabelComponents(
						new LabelBuilder()
							.setLabel(t(reader, 'moderators.decisionForm.label'))
							.setDescription(
								kind === 'removed' || kind === 'kept'
									? t(reader, `cases.decisionForm.hint.${kind}`)
									: t(reader, `moderators.decisionForm.hint.${kind}`),
							)
							.setTextInputComponent(
								new TextInputBuilder()
									.setCustomId(REASON_INPUT)
									.setStyle(TextInputStyle.Paragraph)
									.setMaxLength(REASON_MAX_LENGTH)
									.setRequired(false),
							),
					),
			);
		},
	});
}

/**
 * A decision's form submitted: the flag's one decision (see FlagRepository.decide), with its reason. From a view, the
 * view is updated in place with the outcome and without buttons, and a decided flag says who decided what. From a
 * mod-log card (a message everyone there sees), the outcome goes to the moderator alone and the card is redrawn.
 */
const decisionForm = modal({
	id: ids.decide,
	requires: MODERATOR,
	async handle(interaction, [kind, id], ctx) {
		const { guildId } = interaction;
		const reason = interaction.fields.getTextInputValue(REASON_INPUT).trim().slice(0, REASON_MAX_LENGTH) || undefined;
		// A mod-log card is everyone's there: the outcome goes to the moderator alone, and the card is redrawn.
		const fromModlog =
			interaction.isFromMessage() &&
			interaction.message.flags.has(MessageFlags.IsComponentsV2) &&
			!interaction.message.flags.has(MessageFlags.Ephemeral);
		if (!interaction.isFromMessage() || fromModlog) {
			await interaction.deferReply({ flags: MessageFlags.Ephemeral });
			return decide(interaction, guildId, kind, id, reason, ctx);
		}
		// As after a button: should it fail, the view the form came from keeps its buttons.
		await interaction.deferUpdate();
		await decide(interaction, guildId, kind, id, reason, ctx);
	},
});

/**
 * Decides a flag, and shows the view with the outcome in the moderator's language; what is posted in the server
 * follows the server's, and what reaches the member alone, the member's.
 */
async function decide(
	interaction: ModalSubmitInteraction,
	guildId: string,
	kind: FlagDecision,
	id: string,
	reason: string | undefined,
	ctx: InteractionContext,
): Promise<void> {
	const lookup = PermissionLookup.forInteraction(interaction, guildId);
	const found = await findFlag(guildId, normaliseId(id), lookup, ctx);
	const flagId = found.id;
	// Remove and Keep decide a reported answer, the others a held one: a crafted id mixing them does nothing.
	if (REPORT_DECISIONS.has(kind) !== (found.report !== undefined)) {
		throw new UserInputError({ answer: sentence('cases.wrongDecision'), code: 'wrong_decision' });
	}
	const reader = ctx.locale;
	const serverLocale = await serverLocaleOf(guildId, interaction.guildLocale, ctx);
	let release: ReleaseResult | undefined;
	let removal: Removal | undefined;
	const act =
		kind === 'released'
			? async (flag: FlagRecord) => {
					release = await postRelease(flag, { client: ctx.client, log: ctx.log, permissions: lookup, serverLocale });
				}
			: kind === 'removed'
				? async (flag: FlagRecord) => {
						removal = await removeAnswer(flag, ctx);
					}
				: undefined;
	const outcome = await ctx.flags.decide(guildId, flagId, { kind, by: interaction.user.id, reason }, act);
	if (outcome.kind === 'not-found') throw new UserInputError({ answer: sentence('moderators.noSuchFlag'), code: 'flag_not_found' });
	const notes = await ctx.flags.notes.of(guildId, flagId);
	if (outcome.kind === 'already-decided') {
		await interaction.editReply(flagViewMessage(outcome.flag, notes, ids, reader, alreadyDecidedNote(outcome.flag, reader)));
		return;
	}
	ctx.log.info({ flagId: outcome.flag.id, decision: kind, withReason: reason !== undefined }, 'flag decided');
	// A dismissal, and a review the member asked for, reach the member where the server chose so.
	const tell = kind === 'dismissed' || (kind === 'reviewed' && notes.reviewRequest !== undefined);
	const [notSent] = await Promise.all([
		tell ? tellIfChosen(outcome.flag, serverLocale, ctx) : undefined,
		updateModlogPost(outcome.flag, { ...ctx, ids, guildLocale: interaction.guildLocale }),
	]);
	const outcomeNote =
		removal?.deleted === false
			? t(reader, 'cases.removedNotDeleted', { reason: inLocale(removal.reason, reader) })
			: decidedNote(outcome.flag, release, reader);
	const note = [outcomeNote, notSent && render(reader, notSent)].filter(Boolean).join('\n');
	await interaction.editReply(flagViewMessage(outcome.flag, notes, ids, reader, note));
}

/** A dismissal told to the member where the server chose so; the moderator's note when it could not be. */
async function tellIfChosen(flag: FlagRecord, serverLocale: SupportedLocale, ctx: InteractionContext): Promise<Sentence | undefined> {
	const chosen = await ctx.settings.get(flag.guildId).then(
		(settings) => settings.notifyDismissals === true,
		(error: unknown) => {
			ctx.log.warn({ err: error }, 'could not read whether to tell the member of a dismissal; not told');
			return false;
		},
	);
	return chosen ? tellMemberDismissed(flag, { ...ctx, serverLocale }) : undefined;
}

/** A page of the flags asked in channels the moderator may moderate; the others are neither shown nor counted. */
function listPage(guildId: string, page: number, lookup: PermissionLookup, ctx: InteractionContext): Promise<FlagPage> {
	const channels = (channelIds: readonly string[]) => moderatedChannels(lookup, channelIds, () => outsideModerationChannel(guildId, ctx));
	return ctx.flags.list(guildId, page, { channels });
}

/**
 * The flag by case number (`#12`) or id, if it exists in this server and the moderator may moderate its channel;
 * otherwise one same answer.
 */
async function findFlag(guildId: string, reference: string, lookup: PermissionLookup, ctx: InteractionContext): Promise<FlagRecord> {
	const flag = await ctx.flags.findByReference(guildId, reference);
	const moderatedFrom = flag?.outside ? await outsideModerationChannel(guildId, ctx) : flag?.channelId;
	if (!flag || moderatedFrom === undefined || !(await canModerateIn(lookup, moderatedFrom))) {
		throw new UserInputError({ answer: sentence('moderators.noSuchFlag'), code: 'flag_not_found' });
	}
	return flag;
}

/**
 * Where the flags from outside Veil's servers are moderated from: the operators' server's mod-log channel (its
 * View Channel and Manage Messages decide), in that server only; none when it has no mod-log.
 */
async function outsideModerationChannel(guildId: string, ctx: InteractionContext): Promise<string | undefined> {
	if (guildId !== ctx.config.operatorGuildId) return undefined;
	return (await ctx.settings.get(guildId)).modlogChannelId;
}

// Ids are lower-case; a moderator copying one from a screenshot may not be.
function normaliseId(id: string): string {
	return id.trim().toLowerCase();
}

export default {
	data: flaggedData,
	requires: MODERATOR,
	execute,
	buttons: [
		turnPage,
		viewFromModlog,
		decisionButton(ids.release, 'released'),
		decisionButton(ids.dismiss, 'dismissed'),
		decisionButton(ids.review, 'reviewed'),
		decisionButton(ids.remove, 'removed'),
		decisionButton(ids.keep, 'kept'),
	],
	modals: [decisionForm],
} satisfies Command;
