import { ApplicationCommandType } from 'discord.js';
import type { SlashCommandData } from '../../src/app/commandData.js';
import { EVERYWHERE } from '../../src/discord/installs.js';

/** `/link`: opens a private form; its words are the catalogues' `commands.link`. */
export const linkData = {
	type: ApplicationCommandType.ChatInput,
	name: 'link',
	contexts: EVERYWHERE.contexts,
	integration_types: EVERYWHERE.integrationTypes,
} as const satisfies SlashCommandData;

/** `/unlink`; its words are the catalogues' `commands.unlink`. */
export const unlinkData = {
	type: ApplicationCommandType.ChatInput,
	name: 'unlink',
	contexts: EVERYWHERE.contexts,
	integration_types: EVERYWHERE.integrationTypes,
} as const satisfies SlashCommandData;
