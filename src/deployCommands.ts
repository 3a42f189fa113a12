import { DiscordAPIError, REST, Routes } from 'discord.js';
import { commandData } from '../commands/definitions/index.js';
import { parseDeployConfig, type DeployConfig } from './config/config.js';
import { loadConfigOrExit } from './config/loadConfigOrExit.js';
import { operatorMessages } from './operations/operatorMessages.js';
import { commandRegistrations } from './i18n/commandLocalizations.js';
import { proxySecretHeaders } from './discord/restProxySecret.js';

/**
 * Registers every command's data (commands/definitions: no handler is loaded), worded and localized from the catalogues, the
 * same data the bot's registry routes by; guild-scoped when
 * DISCORD_GUILD_ID is set. That one is for development (it takes effect at once): a guild's commands cannot be
 * installed to a member's account, so user installs need the global registration, and registering both would list
 * every command twice in that guild.
 */
async function deployCommands(config: DeployConfig): Promise<{ scope: string; count: number }> {
	const body = commandRegistrations(commandData);
	const rest = new REST({ api: config.discordApiUrl, headers: proxySecretHeaders(config.restProxySecret) }).setToken(config.discordToken);
	const route = config.discordGuildId
		? Routes.applicationGuildCommands(config.discordApplicationId, config.discordGuildId)
		: Routes.applicationCommands(config.discordApplicationId);
	await rest.put(route, { body });
	return { scope: config.discordGuildId ? `guild ${config.discordGuildId}` : 'global', count: body.length };
}

function explain(error: unknown, config: DeployConfig): string {
	if (error instanceof DiscordAPIError) {
		if (error.status === 401) return operatorMessages.tokenRejected;
		if (error.status === 403) {
			return config.discordGuildId
				? `Discord refused (403): is the bot in guild ${config.discordGuildId}, invited with the applications.commands scope?`
				: 'Discord refused (403): does DISCORD_APPLICATION_ID belong to this bot token?';
		}
		if (error.status === 404) return 'Discord answered 404: check DISCORD_APPLICATION_ID (and DISCORD_GUILD_ID if set).';
		return `Discord refused the commands (${error.status}): ${error.message}`;
	}
	return `Could not reach Discord: ${error instanceof Error ? error.message : String(error)}`;
}

const config = loadConfigOrExit(parseDeployConfig);
try {
	const { scope, count } = await deployCommands(config);
	process.stdout.write(`Registered ${count} commands (${scope}).\n`);
	if (config.discordGuildId) process.stdout.write(`${operatorMessages.guildOnlyRegistration}\n`);
} catch (error) {
	process.stderr.write(`${explain(error, config)}\n`);
	process.exit(1);
}
