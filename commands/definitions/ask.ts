import { ApplicationCommandOptionType, ApplicationCommandType } from 'discord.js';
import type { SlashCommandData } from '../../src/app/commandData.js';
import { EVERYWHERE } from '../../src/discord/installs.js';
import { PROMPT_MAX_LENGTH } from '../../src/asking/checkPrompt.js';

/** `/ask prompt [private] [file]`; its words are the catalogues' `commands.ask`. */
export const askData = {
	type: ApplicationCommandType.ChatInput,
	name: 'ask',
	contexts: EVERYWHERE.contexts,
	integration_types: EVERYWHERE.integrationTypes,
	options: [
		{ type: ApplicationCommandOptionType.String, name: 'prompt', required: true, min_length: 1, max_length: PROMPT_MAX_LENGTH },
		{ type: ApplicationCommandOptionType.Boolean, name: 'private' },
		{ type: ApplicationCommandOptionType.Attachment, name: 'file' },
	],
} as const satisfies SlashCommandData;
