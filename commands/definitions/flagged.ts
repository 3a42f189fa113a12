import { ApplicationCommandOptionType, ApplicationCommandType, ApplicationIntegrationType, InteractionContextType } from 'discord.js';
import type { SlashCommandData } from '../../src/app/commandData.js';
import { MANAGE_MESSAGES } from '../../src/discord/permissions.js';
import { FLAG_ID_MAX_LENGTH } from '../../src/moderation/flagRepository.js';

/** `/flagged list [page]`, `/flagged view id`, `/flagged stats [days]`; the words are the catalogues' `commands.flagged`. */
export const flaggedData = {
	type: ApplicationCommandType.ChatInput,
	name: 'flagged',
	contexts: [InteractionContextType.Guild],
	integration_types: [ApplicationIntegrationType.GuildInstall],
	default_member_permissions: MANAGE_MESSAGES.flag.toString(),
	options: [
		{
			type: ApplicationCommandOptionType.Subcommand,
			name: 'list',
			options: [{ type: ApplicationCommandOptionType.Integer, name: 'page', min_value: 1 }],
		},
		{
			type: ApplicationCommandOptionType.Subcommand,
			name: 'view',
			options: [{ type: ApplicationCommandOptionType.String, name: 'id', required: true, max_length: FLAG_ID_MAX_LENGTH }],
		},
		{
			type: ApplicationCommandOptionType.Subcommand,
			name: 'stats',
			options: [{ type: ApplicationCommandOptionType.Integer, name: 'days', min_value: 1, max_value: 365 }],
		},
	],
} as const satisfies SlashCommandData;
