import { EmbedBuilder, MessageFlags, time, TimestampStyles, type ChatInputCommandInteraction } from 'discord.js';
import type { Command } from '../src/app/command.js';
import { runSubcommand, type SubcommandArguments, type SubcommandHandlers, type SubcommandName } from '../src/app/commandData.js';
import type { InteractionContext } from '../src/app/context.js';
import { UserInputError } from '../src/errors/veilError.js';
import { missingInModlogChannel, rememberedFailure } from '../src/moderation/modlog.js';
import { fenced } from '../src/text/fenced.js';
import { MANAGE_SERVER, type InServer } from '../src/discord/permissions.js';
import type { GuildSettings } from '../src/settings/settingsRepository.js';
import { isSupportedLocale, resolveServerLocale, type SupportedLocale } from '../src/i18n/locales.js';
import { languageName } from '../src/i18n/languageNames.js';
import { sentence, t } from '../src/i18n/translate.js';
import { inlineKeyword } from '../src/moderation/flagLabels.js';
import { checkInstructions } from '../src/settings/checkInstructions.js';
import { truncate } from '../src/replies/truncate.js';
import { mayReadRules } from '../src/automod/ruleCache.js';
import { SERVER_OWN, settingsData } from './definitions/settings.js';

type ManagerInteraction = ChatInputCommandInteraction<InServer>;
type Args<Name extends SubcommandName<typeof settingsData>> = SubcommandArguments<typeof settingsData, Name>;

/** Each subcommand's handler: a subcommand added to the data fails the type check until it has one. */
const subcommands = {
	modlog: setModlog,
	limits: setLimits,
	instructions: setInstructions,
	notify: setNotify,
	language: setLanguage,
	mentions: setMentions,
} satisfies SubcommandHandlers<typeof settingsData, ManagerInteraction>;

async function execute(interaction: ManagerInteraction, ctx: InteractionContext): Promise<void> {
	await runSubcommand(interaction, settingsData, subcommands, ctx);
}

/**
 * `/settings modlog [channel]`: with a channel, checks that Veil can view, send and embed there and saves it;
 * without, turns the reports off (the flags are kept either way). The answer shows the setting as it now is and,
 * once, the last mod-log post that failed.
 */
async function setModlog(interaction: ManagerInteraction, { channel: chosen }: Args<'modlog'>, ctx: InteractionContext): Promise<void> {
	const { guildId } = interaction;
	await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	if (chosen) {
		const missing = await missingInModlogChannel(ctx.client, guildId, chosen.id);
		if (missing.length > 0) {
			throw new UserInputError({
				answer: sentence('moderators.settings.modlogMissingPermissions', { channelId: chosen.id, missing }),
				code: 'modlog_permissions',
			});
		}
	}
	let before: GuildSettings = {};
	await ctx.settings.update(guildId, (current) => {
		before = current;
		// The other settings (the daily limit) stay as they are; the failure note has been read, once.
		return { ...current, modlogChannelId: chosen?.id, modlogFailure: undefined };
	});
	ctx.log.info({ modlogChannelId: chosen?.id ?? null }, 'mod-log setting changed');
	await interaction.editReply({ content: describeChange(chosen?.id, before, ctx.locale) });
}

/**
 * `/settings limits [asks_per_day] [role]`: with a number, sets each member's daily asks in this server (0: no
 * limit); with a role too, that role's own limit, which replaces the server's for its members (0: none for them);
 * a role alone gives it back the server's. With neither, shows the settings, and whether the server's AutoMod rules
 * apply. Members with Manage Server are never limited.
 */
async function setLimits(
	interaction: ManagerInteraction,
	{ asks_per_day: asksPerDay, role }: Args<'limits'>,
	ctx: InteractionContext,
): Promise<void> {
	const { guildId } = interaction;
	const reader = ctx.locale;
	if (asksPerDay !== undefined && asksPerDay < 0)
		throw new UserInputError({ answer: sentence('moderators.settings.limitsNegative'), code: 'limits_negative' });
	await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	if (role) {
		await ctx.settings.update(guildId, (current) => {
			const roleAsksPerDay = { ...current.roleAsksPerDay };
			if (asksPerDay === undefined) delete roleAsksPerDay[role.id];
			else roleAsksPerDay[role.id] = asksPerDay;
			return { ...current, roleAsksPerDay: Object.keys(roleAsksPerDay).length > 0 ? roleAsksPerDay : undefined };
		});
		ctx.log.info({ roleId: role.id, asksPerDay: asksPerDay ?? null }, "a role's daily limit changed");
		const content =
			asksPerDay === undefined
				? t(reader, 'usage.limits.roleCleared', { roleId: role.id })
				: asksPerDay === 0
					? t(reader, 'usage.limits.roleOff', { roleId: role.id })
					: t(reader, 'usage.limits.roleChanged', { roleId: role.id, limit: asksPerDay });
		await interaction.editReply({ content });
		return;
	}
	if (asksPerDay === undefined) {
		const { asksPerDay: current, roleAsksPerDay = {} } = await ctx.settings.get(guildId);
		const lines = [
			current === undefined ? t(reader, 'moderators.settings.limitsNone') : t(reader, 'moderators.settings.limitsShown', { count: current }),
			automodLine(interaction, ctx, reader),
		];
		const roles = Object.entries(roleAsksPerDay);
		if (roles.length > 0) {
			lines.push(t(reader, 'usage.limits.roles'));
			for (const [roleId, limit] of roles)
				lines.push(limit === 0 ? t(reader, 'usage.limits.roleLineNone', { roleId }) : `<@&${roleId}>: **${limit}**`);
		}
		await interaction.editReply({ content: truncate(lines.join('\n'), 2000) });
		return;
	}
	await ctx.settings.update(guildId, (current) => ({ ...current, asksPerDay: asksPerDay > 0 ? asksPerDay : undefined }));
	ctx.log.info({ asksPerDay }, 'daily limit changed');
	await interaction.editReply({
		content: asksPerDay > 0 ? t(reader, 'moderators.settings.limitsChanged', { count: asksPerDay }) : t(reader, 'moderators.settings.limitsOff'),
	});
}

/** `/settings notify [dismissals]`: with a value, whether members are told of a dismissal by DM; without, shows it. */
async function setNotify(interaction: ManagerInteraction, { dismissals }: Args<'notify'>, ctx: InteractionContext): Promise<void> {
	const { guildId } = interaction;
	const reader = ctx.locale;
	await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	if (dismissals === undefined) {
		const { notifyDismissals } = await ctx.settings.get(guildId);
		await interaction.editReply({
			content: t(reader, notifyDismissals === true ? 'moderators.settings.notifyOn' : 'moderators.settings.notifyOff'),
		});
		return;
	}
	await ctx.settings.update(guildId, (current) => ({ ...current, notifyDismissals: dismissals || undefined }));
	ctx.log.info({ notifyDismissals: dismissals }, 'dismissal notices changed');
	await interaction.editReply({
		content: t(reader, dismissals ? 'moderators.settings.notifyChangedOn' : 'moderators.settings.notifyChangedOff'),
	});
}

/**
 * `/settings mentions [state] [channel]`: whether a mention of Veil (or a reply to it) is a turn, in the whole server
 * or in one channel and its threads; on by default. Without a state, shows the setting. In threads Veil started,
 * members talk to it whatever this says.
 */
async function setMentions(interaction: ManagerInteraction, { state, channel }: Args<'mentions'>, ctx: InteractionContext): Promise<void> {
	const { guildId } = interaction;
	const reader = ctx.locale;
	await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	const current =
		state === undefined
			? ((await ctx.settings.get(guildId)).mentions ?? {})
			: ((
					await ctx.settings.update(guildId, (settings) => ({
						...settings,
						mentions: changedMentions(settings.mentions ?? {}, state === 'on', channel?.id),
					}))
				).mentions ?? {});
	if (state !== undefined) ctx.log.info({ mentions: state, channel: channel?.id ?? 'server' }, 'mentions changed');
	const lines = channel
		? [t(reader, current.offIn?.includes(channel.id) ? 'talk.mentions.channelOff' : 'talk.mentions.channelOn', { channel: `<#${channel.id}>` })]
		: [t(reader, current.off === true ? 'talk.mentions.serverOff' : 'talk.mentions.serverOn')];
	if (!channel && current.offIn?.length) lines.push(t(reader, 'talk.mentions.offIn', { channels: current.offIn.map((id) => `<#${id}>`).join(', ') }));
	await interaction.editReply({ content: lines.join('\n') });
}

/** The mentions setting after turning them on or off in the server (no channel) or in one channel. */
function changedMentions(current: NonNullable<GuildSettings['mentions']>, on: boolean, channelId: string | undefined): GuildSettings['mentions'] {
	const offIn = new Set(current.offIn ?? []);
	let off = current.off;
	if (channelId === undefined) off = on ? undefined : true;
	else if (on) offIn.delete(channelId);
	else offIn.add(channelId);
	const changed = { ...(off ? { off } : {}), ...(offIn.size > 0 ? { offIn: [...offIn] } : {}) };
	return Object.keys(changed).length > 0 ? changed : undefined;
}

/**
 * `/settings language [locale]`: with a language, the one Veil writes this server's mod-log posts and released
 * answers in (the server's own: Discord's `guild_locale` again); without, shows it. Each reader's own answers
 * follow their own language whatever this says.
 */
async function setLanguage(interaction: ManagerInteraction, { locale: chosen }: Args<'language'>, ctx: InteractionContext): Promise<void> {
	const { guildId } = interaction;
	// Discord offers only the choices, but what reaches Veil is checked all the same.
	if (chosen !== undefined && chosen !== SERVER_OWN && !isSupportedLocale(chosen)) {
		throw new UserInputError({
			answer: sentence('moderators.settings.languageUnknown', { locale: inlineKeyword(truncate(chosen, 40)) }),
			code: 'language_unknown',
		});
	}
	const reader = ctx.locale;
	const serverOwn = languageName(resolveServerLocale(interaction.guildLocale, undefined), reader);
	await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	let content: string;
	if (chosen === undefined) {
		const { locale } = await ctx.settings.get(guildId);
		content =
			locale === undefined
				? t(reader, 'moderators.settings.languageServer', { language: serverOwn })
				: t(reader, 'moderators.settings.languageChosen', { language: languageName(locale, reader), serverLanguage: serverOwn });
	} else {
		const locale = chosen === SERVER_OWN ? undefined : chosen;
		await ctx.settings.update(guildId, (current) => ({ ...current, locale }));
		ctx.log.info({ locale: locale ?? null }, 'server language changed');
		content =
			locale === undefined
				? t(reader, 'moderators.settings.languageReset', { language: serverOwn })
				: t(reader, 'moderators.settings.languageChanged', { language: languageName(locale, reader) });
	}
	await interaction.editReply({ content });
}

/** Whether the server's AutoMod rules apply to asks: Veil needs Manage Server, which `app_permissions` tells. */
function automodLine(interaction: ManagerInteraction, ctx: InteractionContext, reader: SupportedLocale): string {
	if (!mayReadRules(interaction.appPermissions)) return t(reader, 'moderators.automod.notApplied');
	const count = ctx.automod.appliedCount(interaction.guildId);
	return count === undefined ? t(reader, 'moderators.automod.appliedUncounted') : t(reader, 'moderators.automod.applied', { count });
}

/**
 * `/settings instructions [text] [channel] [clear]`: sets, removes (`clear:true`) or shows (neither) the server's
 * standing instructions, or one channel's, which replace the server's there.
 */
async function setInstructions(
	interaction: ManagerInteraction,
	{ text, channel, clear = false }: Args<'instructions'>,
	ctx: InteractionContext,
): Promise<void> {
	const { guildId } = interaction;
	const channelId = channel?.id;
	const reader = ctx.locale;
	const where = channelId === undefined ? sentence('moderators.settings.instructionsServer') : `<#${channelId}>`;
	checkInstructions(text, clear);
	await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	let content: string;
	let shown: string | undefined;
	if (text !== undefined || clear) {
		await ctx.settings.instructions.set(guildId, channelId, text);
		ctx.log.info({ channelId: channelId ?? null, cleared: clear }, 'instructions changed');
		content = t(reader, text === undefined ? 'moderators.settings.instructionsCleared' : 'moderators.settings.instructionsSet', { where });
		shown = text;
	} else {
		const record = await ctx.settings.instructions.get(guildId);
		shown = channelId === undefined ? record.server : record.channels[channelId];
		const lines = [t(reader, shown === undefined ? 'moderators.settings.instructionsNone' : 'moderators.settings.instructionsShown', { where })];
		if (channelId !== undefined && shown === undefined) {
			lines.push(
				t(reader, record.server === undefined ? 'moderators.settings.instructionsServerNone' : 'moderators.settings.instructionsServerApplies'),
			);
		}
		const channels = Object.keys(record.channels);
		if (channelId === undefined && channels.length > 0)
			lines.push(truncate(t(reader, 'moderators.settings.instructionsChannels', { channels: channels.map((id) => `<#${id}>`).join(', ') }), 1500));
		content = lines.join('\n');
	}
	// The text in an embed (up to 4,096 characters): whole, beside a sentence of its own.
	const embeds = shown === undefined ? [] : [new EmbedBuilder().setDescription(fenced(shown))];
	await interaction.editReply({ content, embeds });
}

function describeChange(channelId: string | undefined, before: GuildSettings, reader: SupportedLocale): string {
	const lines = [
		channelId
			? t(reader, 'moderators.settings.modlogOn', { channelId })
			: before.modlogChannelId
				? t(reader, 'moderators.settings.modlogOffWas', { channelId: before.modlogChannelId })
				: t(reader, 'moderators.settings.modlogOff'),
	];
	if (before.modlogFailure) {
		const when = time(new Date(before.modlogFailure.at), TimestampStyles.RelativeTime);
		lines.push(t(reader, 'moderators.settings.modlogFailed', { when, reason: rememberedFailure(before.modlogFailure) }));
	}
	return lines.join('\n');
}

// Every setting is the server's, for its managers alone.
export default { data: settingsData, requires: { permission: MANAGE_SERVER }, execute } satisfies Command;
