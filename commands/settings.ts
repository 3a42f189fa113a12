import {
	ApplicationIntegrationType,
	ChannelType,
	EmbedBuilder,
	InteractionContextType,
	MessageFlags,
	SlashCommandBuilder,
	time,
	TimestampStyles,
	type ChatInputCommandInteraction,
} from 'discord.js';
import type { Command } from '../src/app/command.js';
import type { InteractionContext } from '../src/app/context.js';
import { UserInputError } from '../src/errors/veilError.js';
import { missingInModlogChannel, rememberedFailure } from '../src/moderation/modlog.js';
import { fenced } from '../src/text/fenced.js';
import { MANAGE_SERVER, type InServer } from '../src/discord/permissions.js';
import { NO_MENTIONS } from '../src/discord/mentions.js';
import type { GuildSettings } from '../src/settings/settingsRepository.js';
import { isSupportedLocale, resolveLocale, SOURCE_LOCALE, SUPPORTED_LOCALES, type SupportedLocale } from '../src/i18n/locales.js';
import { languageName } from '../src/i18n/languageNames.js';
import { sentence, t } from '../src/i18n/translate.js';
import { inlineKeyword } from '../src/moderation/flagLabels.js';
import { INSTRUCTIONS_MAX_LENGTH } from '../src/settings/instructions.js';
import { characterCount } from '../src/text/characterCount.js';
import { truncate } from '../src/replies/truncate.js';
import { mayReadRules } from '../src/automod/ruleCache.js';

const MODLOG_CHANNEL_TYPES = [ChannelType.GuildText, ChannelType.GuildAnnouncement] as const;
/** Where members ask: text, announcement and voice channels' chats, and forums (their posts' threads). */
const INSTRUCTION_CHANNEL_TYPES = [ChannelType.GuildText, ChannelType.GuildAnnouncement, ChannelType.GuildVoice, ChannelType.GuildForum] as const;
/** The `locale` choice that goes back to Discord's `guild_locale`. */
const SERVER_OWN = 'server';
const LANGUAGE_CHOICES = [
	{ name: "The server's own language", value: SERVER_OWN },
	...SUPPORTED_LOCALES.map((locale) => ({ name: languageName(locale, SOURCE_LOCALE), value: locale })),
];

const data = new SlashCommandBuilder()
	.setName('settings')
	.setDescription("Veil's settings for this server")
	.setContexts(InteractionContextType.Guild)
	.setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
	.setDefaultMemberPermissions(MANAGE_SERVER.flag)
	.addSubcommand((sub) =>
		sub
			.setName('modlog')
			.setDescription('Where Veil reports the replies it hides; leave the channel out to turn reports off')
			.addChannelOption((option) =>
				option
					.setName('channel')
					.setDescription('A text channel only moderators can read')
					.addChannelTypes(...MODLOG_CHANNEL_TYPES),
			),
	)
	.addSubcommand((sub) =>
		sub
			.setName('limits')
			.setDescription('How many questions each member may ask Veil a day here; leave it out to see the setting')
			.addIntegerOption((option) => option.setName('asks_per_day').setDescription('Questions per member per UTC day; 0 for no limit').setMinValue(0)),
	)
	.addSubcommand((sub) =>
		sub
			.setName('instructions')
			.setDescription('Standing instructions sent ahead of every question here; leave everything out to see them')
			.addStringOption((option) =>
				option
					.setName('text')
					.setDescription('How Veil should answer (at most 2,000 characters)')
					.setMinLength(1)
					.setMaxLength(INSTRUCTIONS_MAX_LENGTH),
			)
			.addChannelOption((option) =>
				option
					.setName('channel')
					.setDescription("One channel's instructions, which replace the server's there")
					.addChannelTypes(...INSTRUCTION_CHANNEL_TYPES),
			)
			.addBooleanOption((option) => option.setName('clear').setDescription('Remove the instructions (of the channel, if given)')),
	)
	.addSubcommand((sub) =>
		sub
			.setName('notify')
			.setDescription('Whether members are told by DM when their held answer is dismissed; leave it out to see')
			.addBooleanOption((option) => option.setName('dismissals').setDescription('Tell the member, with the reason if any (default: no)')),
	)
	.addSubcommand((sub) =>
		sub
			.setName('language')
			.setDescription('The language of mod-log posts and released answers here; leave it out to see it')
			.addStringOption((option) =>
				option
					.setName('locale')
					.setDescription("A language Veil speaks, or the server's own (Discord's Community setting)")
					.addChoices(...LANGUAGE_CHOICES),
			),
	)
	.toJSON();

async function execute(interaction: ChatInputCommandInteraction<InServer>, ctx: InteractionContext): Promise<void> {
	if (interaction.options.getSubcommand() === 'instructions') return setInstructions(interaction, ctx);
	if (interaction.options.getSubcommand() === 'limits') return setLimits(interaction, ctx);
	if (interaction.options.getSubcommand() === 'notify') return setNotify(interaction, ctx);
	if (interaction.options.getSubcommand() === 'language') return setLanguage(interaction, ctx);
	return setModlog(interaction, ctx);
}

/**
 * `/settings modlog [channel]`: with a channel, checks that Veil can view, send and embed there and saves it;
 * without, turns the reports off (the flags are kept either way). The answer shows the setting as it now is and,
 * once, the last mod-log post that failed.
 */
async function setModlog(interaction: ChatInputCommandInteraction<InServer>, ctx: InteractionContext): Promise<void> {
	const { guildId } = interaction;
	const chosen = interaction.options.getChannel('channel', false, [...MODLOG_CHANNEL_TYPES]);
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
	await interaction.editReply({ content: describeChange(chosen?.id, before, resolveLocale(interaction.locale)), allowedMentions: NO_MENTIONS });
}

/**
 * `/settings limits [asks_per_day]`: with a number, sets each member's daily asks in this server (0: no limit);
 * without, shows the setting, and whether the server's AutoMod rules apply. Members with Manage Server are never limited.
 */
async function setLimits(interaction: ChatInputCommandInteraction<InServer>, ctx: InteractionContext): Promise<void> {
	const { guildId } = interaction;
	const asksPerDay = interaction.options.getInteger('asks_per_day', false);
	const reader = resolveLocale(interaction.locale);
	await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	if (asksPerDay === null) {
		const { asksPerDay: current } = await ctx.settings.get(guildId);
		await interaction.editReply({
			content: `${current === undefined ? t(reader, 'moderators.settings.limitsNone') : t(reader, 'moderators.settings.limitsShown', { count: current })}\n${automodLine(interaction, ctx, reader)}`,
			allowedMentions: NO_MENTIONS,
		});
		return;
	}
	if (asksPerDay < 0) throw new UserInputError({ answer: sentence('moderators.settings.limitsNegative'), code: 'limits_negative' });
	await ctx.settings.update(guildId, (current) => ({ ...current, asksPerDay: asksPerDay > 0 ? asksPerDay : undefined }));
	ctx.log.info({ asksPerDay }, 'daily limit changed');
	await interaction.editReply({
		content: asksPerDay > 0 ? t(reader, 'moderators.settings.limitsChanged', { count: asksPerDay }) : t(reader, 'moderators.settings.limitsOff'),
		allowedMentions: NO_MENTIONS,
	});
}

/** `/settings notify [dismissals]`: with a value, whether members are told of a dismissal by DM; without, shows it. */
async function setNotify(interaction: ChatInputCommandInteraction<InServer>, ctx: InteractionContext): Promise<void> {
	const { guildId } = interaction;
	const dismissals = interaction.options.getBoolean('dismissals', false);
	const reader = resolveLocale(interaction.locale);
	await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	if (dismissals === null) {
		const { notifyDismissals } = await ctx.settings.get(guildId);
		await interaction.editReply({
			content: t(reader, notifyDismissals === true ? 'moderators.settings.notifyOn' : 'moderators.settings.notifyOff'),
			allowedMentions: NO_MENTIONS,
		});
		return;
	}
	await ctx.settings.update(guildId, (current) => ({ ...current, notifyDismissals: dismissals || undefined }));
	ctx.log.info({ notifyDismissals: dismissals }, 'dismissal notices changed');
	await interaction.editReply({
		content: t(reader, dismissals ? 'moderators.settings.notifyChangedOn' : 'moderators.settings.notifyChangedOff'),
		allowedMentions: NO_MENTIONS,
	});
}

/**
 * `/settings language [locale]`: with a language, the one Veil writes this server's mod-log posts and released
 * answers in (the server's own: Discord's `guild_locale` again); without, shows it. Each reader's own answers
 * follow their own language whatever this says.
 */
async function setLanguage(interaction: ChatInputCommandInteraction<InServer>, ctx: InteractionContext): Promise<void> {
	const { guildId } = interaction;
	const chosen = interaction.options.getString('locale', false);
	// Discord offers only the choices, but what reaches Veil is checked all the same.
	if (chosen !== null && chosen !== SERVER_OWN && !isSupportedLocale(chosen)) {
		throw new UserInputError({
			answer: sentence('moderators.settings.languageUnknown', { locale: inlineKeyword(truncate(chosen, 40)) }),
			code: 'language_unknown',
		});
	}
	const reader = resolveLocale(interaction.locale);
	const serverOwn = languageName(resolveLocale(interaction.guildLocale), reader);
	await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	let content: string;
	if (chosen === null) {
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
	await interaction.editReply({ content, allowedMentions: NO_MENTIONS });
}

/** Whether the server's AutoMod rules apply to asks: Veil needs Manage Server, which `app_permissions` tells. */
function automodLine(interaction: ChatInputCommandInteraction<InServer>, ctx: InteractionContext, reader: SupportedLocale): string {
	if (!mayReadRules(interaction.appPermissions)) return t(reader, 'moderators.automod.notApplied');
	const count = ctx.automod.appliedCount(interaction.guildId);
	return count === undefined ? t(reader, 'moderators.automod.appliedUncounted') : t(reader, 'moderators.automod.applied', { count });
}

/**
 * `/settings instructions [text] [channel] [clear]`: sets, removes (`clear:true`) or shows (neither) the server's
 * standing instructions, or one channel's, which replace the server's there.
 */
async function setInstructions(interaction: ChatInputCommandInteraction<InServer>, ctx: InteractionContext): Promise<void> {
	const { guildId } = interaction;
	const text = interaction.options.getString('text', false);
	const channelId = interaction.options.getChannel('channel', false)?.id;
	const clear = interaction.options.getBoolean('clear', false) ?? false;
	const reader = resolveLocale(interaction.locale);
	const where = channelId === undefined ? sentence('moderators.settings.instructionsServer') : `<#${channelId}>`;
	if (text !== null && clear)
		throw new UserInputError({ answer: sentence('moderators.settings.instructionsTextAndClear'), code: 'instructions_text_and_clear' });
	if (text !== null && text.trim() === '')
		throw new UserInputError({ answer: sentence('moderators.settings.instructionsEmpty'), code: 'instructions_empty' });
	// Discord counts characters, as checkPrompt does; its own check of the option could be bypassed.
	if (text !== null && characterCount(text) > INSTRUCTIONS_MAX_LENGTH) {
		throw new UserInputError({
			answer: sentence('moderators.settings.instructionsTooLong', { count: INSTRUCTIONS_MAX_LENGTH }),
			code: 'instructions_too_long',
		});
	}
	await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	let content: string;
	let shown: string | undefined;
	if (text !== null || clear) {
		await ctx.settings.instructions.set(guildId, channelId, text ?? undefined);
		ctx.log.info({ channelId: channelId ?? null, cleared: clear }, 'instructions changed');
		content = t(reader, text === null ? 'moderators.settings.instructionsCleared' : 'moderators.settings.instructionsSet', { where });
		shown = text ?? undefined;
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
	await interaction.editReply({ content, embeds, allowedMentions: NO_MENTIONS });
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
export default { data, requires: { permission: MANAGE_SERVER }, execute } satisfies Command;
