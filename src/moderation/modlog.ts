import {
	ActionRowBuilder,
	ButtonBuilder,
	ButtonStyle,
	EmbedBuilder,
	escapeMarkdown,
	time,
	TimestampStyles,
	type Client,
	type PermissionsBitField,
} from 'discord.js';
import { FETCH_TO_SEND } from '../discord/clientCache.js';
import type { FlagRecord, FlagRepository } from './flagRepository.js';
import { answerLink, decisionButtons, preview, type FlagViewIds } from './flagViews.js';
import { flagStatus, STATUS_COLOR } from './caseStatus.js';
import { caseCard, type CardMessage } from './caseCard.js';
import type { CaseNotesOf } from './caseNotes.js';
import type { Logger } from '../logging/logger.js';
import { truncate } from '../replies/truncate.js';
import { describeRatings, flaggedRatings } from '../replies/ratingLabels.js';
import { describeStopReasons, flagPlace } from './flagLabels.js';
import { resolveServerLocale, SOURCE_LOCALE, type SupportedLocale } from '../i18n/locales.js';
import { render, sentence, t, type Sentence } from '../i18n/translate.js';
import type { SettingsRepository } from '../settings/settingsRepository.js';
import { serverLocaleOf } from './serverLocale.js';
import { UserInputError } from '../errors/veilError.js';
import { EMBED_LINKS, missingPermissions, SEND_MESSAGES, VIEW_CHANNEL } from './flagAccess.js';
import { BlockedByAutomod } from '../discord/automodRefusal.js';

/** A channel found to be one Veil cannot send to, before anything was sent; `reason` is what a moderator reads. */
export class ChannelNotSendable extends Error {
	readonly reason: Sentence;

	constructor(reason: Sentence) {
		super(render(SOURCE_LOCALE, reason));
		this.reason = reason;
	}
}

/** A reported answer's text in its mod-log card: members saw it already, so its start is shown (never a held one's). */
const REPORTED_PREVIEW = 1200;

/**
 * A case's mod-log post, in the server's language, as a Components V2 card: who, where, when and why, the review
 * request or reports, the history, the decision buttons while pending and View beside the heading. A held answer's
 * prompt and text never go here; a reported answer's text, public already, is shown from its start.
 */
export function modlogCard(flag: FlagRecord, notes: CaseNotesOf, ids: FlagViewIds, locale: SupportedLocale): CardMessage {
	const text = flag.report ? flag.text : null;
	return caseCard(flag, notes, locale, {
		accessory: new ButtonBuilder()
			.setCustomId(ids.view.build(flag.id))
			.setLabel(t(locale, 'moderators.buttons.viewReply'))
			.setStyle(ButtonStyle.Secondary),
		body:
			text === null
				? undefined
				: (room) => {
						const link = answerLink(flag);
						const shown = preview(text, Math.max(100, Math.min(REPORTED_PREVIEW, room - 200)), locale).block;
						return {
							texts: [[t(locale, 'cases.answerHeading'), shown, ...(link ? [t(locale, 'cases.answerLink', { url: link })] : [])].join('\n')],
							files: [],
						};
					},
		actions: flag.decision ? [] : [decisionButtons(ids, flag, locale)],
		footer: t(locale, 'moderators.modlog.footer'),
	});
}

/**
 * A post made before case cards, edited after a decision as it was made: an embed, never the held text. Its View
 * reply button works as ever.
 */
function legacyFlagEmbed(flag: FlagRecord, locale: SupportedLocale): EmbedBuilder {
	const flagged = describeRatings(flaggedRatings(flag.ratings), locale);
	const reasons = describeStopReasons(flag, locale);
	return new EmbedBuilder()
		.setTitle(
			flag.caseNumber === undefined
				? t(locale, 'moderators.modlog.title')
				: t(locale, 'moderators.modlog.titleCase', { caseNumber: flag.caseNumber }),
		)
		.setColor(STATUS_COLOR[flag.decision?.kind ?? 'pending'])
		.addFields(
			{ name: t(locale, 'moderators.fields.member'), value: `<@${flag.userId}>`, inline: true },
			{ name: t(locale, 'moderators.fields.channel'), value: flagPlace(flag, locale), inline: true },
			{ name: t(locale, 'moderators.fields.when'), value: time(new Date(flag.createdAt), TimestampStyles.ShortDateTime), inline: true },
			{ name: t(locale, 'moderators.fields.ratings'), value: truncate(flagged.join('\n') || t(locale, 'moderators.ratingsMissing'), 1024) },
			...(reasons.length > 0 ? [{ name: t(locale, 'moderators.fields.also'), value: truncate(reasons.join('\n'), 1024) }] : []),
			{ name: t(locale, 'moderators.fields.flag'), value: t(locale, 'moderators.flagValue', { id: flag.id, model: truncate(flag.model, 200) }) },
			...(flag.decision ? [{ name: t(locale, 'moderators.fields.status'), value: flagStatus(flag, locale) }] : []),
			...(flag.decision?.reason ? [{ name: t(locale, 'moderators.reasonField'), value: truncate(escapeMarkdown(flag.decision.reason), 1024) }] : []),
		)
		.setFooter({ text: t(locale, 'moderators.modlog.footer') });
}

/** The "View reply" button of a post made before case cards; it carries the flag id, the server comes from the click. */
function legacyViewReplyRow(viewId: FlagViewIds['view'], flagId: string, locale: SupportedLocale): ActionRowBuilder<ButtonBuilder> {
	return new ActionRowBuilder<ButtonBuilder>().addComponents(
		new ButtonBuilder().setCustomId(viewId.build(flagId)).setLabel(t(locale, 'moderators.buttons.viewReply')).setStyle(ButtonStyle.Secondary),
	);
}

/** What posting to, and updating, a server's mod-log needs; `guildLocale` is Discord's, from the interaction. */
interface ModlogDeps {
	readonly client: Client;
	readonly settings: SettingsRepository;
	readonly flags: FlagRepository;
	readonly log: Logger;
	/** The ids of the card's buttons: /flagged handles them, and the caller passes them in. */
	readonly ids: FlagViewIds;
	readonly guildLocale: string | null;
}

/**
 * Posts a hidden reply's metadata to the server's mod-log, when one is set, in the server's language. A failure is
 * logged and remembered for the next `/settings modlog`, and never reaches the member: the flag is already stored.
 */
export async function postFlagToModlog(flag: FlagRecord, deps: ModlogDeps): Promise<void> {
	let modlogChannelId: string | undefined;
	let locale: SupportedLocale;
	try {
		const settings = await deps.settings.get(flag.guildId);
		modlogChannelId = settings.modlogChannelId;
		locale = resolveServerLocale(deps.guildLocale, settings.locale);
	} catch (error) {
		// The flag is stored and the member answered; without the setting there is nothing to post, or to report.
		deps.log.warn({ err: error, flagId: flag.id }, 'could not read the mod-log setting');
		return;
	}
	if (!modlogChannelId) return;
	try {
		const channel = await deps.client.channels.fetch(modlogChannelId, FETCH_TO_SEND);
		if (!channel?.isSendable()) throw new ChannelNotSendable(sentence('moderators.sendFailure.modlogNotSendable'));
		const notes = await deps.flags.notes.of(flag.guildId, flag.id).catch(() => ({ reports: [] }));
		const posted = await channel.send(modlogCard(flag, notes, deps.ids, locale));
		// Without it the post stays as posted when the flag is decided; its buttons work either way.
		await deps.flags.notePost(flag, { channelId: modlogChannelId, messageId: posted.id, card: true }).catch((error: unknown) => {
			deps.log.warn({ err: error, flagId: flag.id }, 'could not remember the mod-log post; a decision will not update it');
		});
	} catch (error) {
		// For whichever admin runs /settings modlog next: by its kind, to be read in their language, and as text.
		const failure = describeSendFailure(error);
		const kind = typeof failure === 'string' ? undefined : SEND_FAILURES.find((known) => failure.key === `moderators.sendFailure.${known}`);
		const modlogFailure = { at: new Date().toISOString(), reason: inLocale(failure, locale), ...(kind ? { kind } : {}) };
		const noted = await deps.settings
			.update(flag.guildId, (current) => ({ ...current, modlogFailure }))
			.then(
				() => true,
				(storeError: unknown) => {
					deps.log.warn({ err: storeError }, 'could not record the mod-log failure');
					return false;
				},
			);
		deps.log.warn({ err: error, flagId: flag.id, modlogChannelId, noted }, 'mod-log post failed');
	}
}

/**
 * Brings a case's mod-log post up to date (a decision, a review request, another report). A card is drawn again; a
 * post from before case cards stays an embed, edited as it was made; a post from before posts were remembered, or
 * one Veil can no longer edit, stays as it was; that is logged, and nothing fails.
 */
export async function updateModlogPost(flag: FlagRecord, deps: ModlogDeps): Promise<void> {
	try {
		const post = await deps.flags.postOf(flag);
		if (!post) return;
		const channel = await deps.client.channels.fetch(post.channelId, FETCH_TO_SEND);
		if (!channel?.isTextBased()) return;
		const locale = await serverLocaleOf(flag.guildId, deps.guildLocale, deps);
		if (post.card) {
			const notes = await deps.flags.notes.of(flag.guildId, flag.id).catch(() => ({ reports: [] }));
			await channel.messages.edit(post.messageId, modlogCard(flag, notes, deps.ids, locale));
			return;
		}
		await channel.messages.edit(post.messageId, {
			embeds: [legacyFlagEmbed(flag, locale)],
			components: [legacyViewReplyRow(deps.ids.view, flag.id, locale)],
		});
	} catch (error) {
		deps.log.warn({ err: error, flagId: flag.id }, 'could not update the mod-log post');
	}
}

/** The kinds of failed post a moderator is told of in their own words (`moderators.sendFailure.*`). */
const SEND_FAILURES = [
	'channelGone',
	'lostAccess',
	'noPermission',
	'unknown',
	'modlogNotSendable',
	'channelNotSendable',
	'blockedByAutomod',
] as const;

/** A remembered mod-log failure, as the admin reads it: its kind in their language, else the text kept. */
export function rememberedFailure(failure: { reason: string; kind?: string | undefined }): Sentence | string {
	const kind = SEND_FAILURES.find((known) => known === failure.kind);
	return kind ? sentence(`moderators.sendFailure.${kind}`) : failure.reason;
}

/**
 * A failed post to a channel in a moderator's words, from Discord's error code when there is one: a sentence, to be
 * read in whoever's language, or failing that the error's own message as it came.
 */
export function describeSendFailure(error: unknown): Sentence | string {
	if (error instanceof ChannelNotSendable) return error.reason;
	const code = (error as { code?: unknown } | null)?.code;
	if (code === 10003) return sentence('moderators.sendFailure.channelGone');
	if (code === 50001) return sentence('moderators.sendFailure.lostAccess');
	if (code === 50013) return sentence('moderators.sendFailure.noPermission');
	// Discord's own AutoMod: the post would be refused again, so it stays held.
	if (BlockedByAutomod.from(error)) return sentence('moderators.sendFailure.blockedByAutomod');
	return error instanceof Error ? truncate(error.message, 200) : sentence('moderators.sendFailure.unknown');
}

/** A failure's words in `locale`: a sentence rendered, an error's own message as it is. */
export function inLocale(reason: Sentence | string, locale: SupportedLocale): string {
	return typeof reason === 'string' ? reason : render(locale, reason);
}

/** What Veil needs in a mod-log channel. */
const MODLOG_PERMISSIONS = [VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS];

/** The mod-log permissions Veil lacks, by name, given its permissions in the channel (null: none at all). */
export function missingModlogPermissions(permissions: Readonly<PermissionsBitField> | null): Sentence[] {
	return missingPermissions(permissions, MODLOG_PERMISSIONS);
}

/**
 * Veil's own permissions in a channel chosen for the mod-log, computed from the server's roles, the channel's
 * overwrites and Veil's member, fetched now: Veil keeps no server data from the gateway, so nothing cached can be stale.
 */
export async function missingInModlogChannel(client: Client, guildId: string, channelId: string): Promise<Sentence[]> {
	const guild = await client.guilds.fetch({ guild: guildId, force: true });
	const channel = await guild.channels.fetch(channelId, { force: true }).catch(() => null);
	if (!channel) throw new UserInputError({ answer: sentence('moderators.settings.modlogUnknownChannel'), code: 'modlog_unknown_channel' });
	const me = await guild.members.fetchMe({ force: true });
	return missingModlogPermissions(channel.permissionsFor(me));
}
