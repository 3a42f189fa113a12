import { ApplicationCommandOptionType, ApplicationCommandType } from 'discord.js';
import type { SlashCommandData } from '../../src/app/commandData.js';
import { EVERYWHERE } from '../../src/discord/installs.js';

/**
 * `/usage [server] [days]`: a member's own usage, anywhere Veil answers; with `server` (or `days`), the server's, for
 * Manage Server (checked at each use: the command itself is everyone's). Its words are the catalogues' `commands.usage`.
 */
export const usageData = {
	type: ApplicationCommandType.ChatInput,
	name: 'usage',
	contexts: EVERYWHERE.contexts,
	integration_types: EVERYWHERE.integrationTypes,
	options: [
		{ type: ApplicationCommandOptionType.Boolean, name: 'server' },
		{ type: ApplicationCommandOptionType.Integer, name: 'days', min_value: 1, max_value: 365 },
	],
} as const satisfies SlashCommandData;
