import { ApplicationIntegrationType, InteractionContextType } from 'discord.js';

/**
 * Where the commands members use may be installed and run: to a server or to a member's own account, and in
 * servers, DMs with Veil and group DMs. Only a global registration can be installed to a member's account.
 */
export const EVERYWHERE = {
	integrationTypes: [ApplicationIntegrationType.GuildInstall, ApplicationIntegrationType.UserInstall],
	contexts: [InteractionContextType.Guild, InteractionContextType.BotDM, InteractionContextType.PrivateChannel],
} as const;
