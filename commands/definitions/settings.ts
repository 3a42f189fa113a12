import { ApplicationCommandOptionType, ApplicationCommandType, ApplicationIntegrationType, ChannelType, InteractionContextType } from 'discord.js';
import type { SlashCommandData } from '../../src/app/commandData.js';
import { MANAGE_SERVER } from '../../src/discord/permissions.js';
import { SUPPORTED_LOCALES } from '../../src/i18n/locales.js';
import { INSTRUCTIONS_MAX_LENGTH } from '../../src/settings/instructions.js';

/** Where the mod-log may be: channels Veil can post to. */
export const MODLOG_CHANNEL_TYPES = [ChannelType.GuildText, ChannelType.GuildAnnouncement] as const;
/** Where members ask: text, announcement and voice channels' chats, and forums (their posts' threads). */
const INSTRUCTION_CHANNEL_TYPES = [ChannelType.GuildText, ChannelType.GuildAnnouncement, ChannelType.GuildVoice, ChannelType.GuildForum] as const;
/** Where members mention Veil: text and announcement channels, voice channels' chats, forums (their posts). */
const MENTION_CHANNEL_TYPES = [ChannelType.GuildText, ChannelType.GuildAnnouncement, ChannelType.GuildVoice, ChannelType.GuildForum] as const;
/** The `locale` choice that goes back to Discord's `guild_locale`. */
export const SERVER_OWN = 'server';

/** `/settings modlog|limits|instructions|notify|language|mentions`; the words are the catalogues' `commands.settings`. */
export const settingsData = {
	type: ApplicationCommandType.ChatInput,
	name: 'settings',
	contexts: [InteractionContextType.Guild],
	integration_types: [ApplicationIntegrationType.GuildInstall],
	default_member_permissions: MANAGE_SERVER.flag.toString(),
	options: [
		{
			type: ApplicationCommandOptionType.Subcommand,
			name: 'modlog',
			options: [{ type: ApplicationCommandOptionType.Channel, name: 'channel', channel_types: MODLOG_CHANNEL_TYPES }],
		},
		{
			type: ApplicationCommandOptionType.Subcommand,
			name: 'limits',
			options: [
				{ type: ApplicationCommandOptionType.Integer, name: 'asks_per_day', min_value: 0 },
				{ type: ApplicationCommandOptionType.Role, name: 'role' },
			],
		},
		{
			type: ApplicationCommandOptionType.Subcommand,
			name: 'instructions',
			options: [
				{ type: ApplicationCommandOptionType.String, name: 'text', min_length: 1, max_length: INSTRUCTIONS_MAX_LENGTH },
				{ type: ApplicationCommandOptionType.Channel, name: 'channel', channel_types: INSTRUCTION_CHANNEL_TYPES },
				{ type: ApplicationCommandOptionType.Boolean, name: 'clear' },
			],
		},
		{
			type: ApplicationCommandOptionType.Subcommand,
			name: 'notify',
			options: [{ type: ApplicationCommandOptionType.Boolean, name: 'dismissals' }],
		},
		{
			type: ApplicationCommandOptionType.Subcommand,
			name: 'language',
			options: [
				{
					type: ApplicationCommandOptionType.String,
					name: 'locale',
					choices: [{ value: SERVER_OWN }, ...SUPPORTED_LOCALES.map((locale) => ({ value: locale }))],
				},
			],
		},
		{
			type: ApplicationCommandOptionType.Subcommand,
			name: 'mentions',
			options: [
				{ type: ApplicationCommandOptionType.String, name: 'state', choices: [{ value: 'on' }, { value: 'off' }] },
				{ type: ApplicationCommandOptionType.Channel, name: 'channel', channel_types: MENTION_CHANNEL_TYPES },
			],
		},
	],
} as const satisfies SlashCommandData;
