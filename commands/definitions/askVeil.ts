import { ApplicationCommandType } from 'discord.js';
import type { MessageCommandData } from '../../src/app/commandData.js';
import { EVERYWHERE } from '../../src/discord/installs.js';

/** `Ask Veil`, in a message's Apps menu; its name in each language is the catalogues' `commands["Ask Veil"]`. */
export const askVeilData = {
	type: ApplicationCommandType.Message,
	name: 'Ask Veil',
	contexts: EVERYWHERE.contexts,
	integration_types: EVERYWHERE.integrationTypes,
} as const satisfies MessageCommandData;
