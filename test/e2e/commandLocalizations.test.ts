import { ApplicationCommandOptionType, ApplicationCommandType } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { DiscordEmulator } from '../../sandbox/discord/emulator.js';
import { LOCALIZED_LOCALES } from '../../src/i18n/commandLocalizations.js';
import { runScript, type BotProcess } from '../support/botProcess.js';
import { startTestServices, type TestServices } from '../support/harness.js';

interface RegisteredNode {
	name: string;
	type?: number;
	name_localizations?: Record<string, string> | null;
	description_localizations?: Record<string, string> | null;
	options?: RegisteredNode[];
}

let services: TestServices | undefined;
let deploy: BotProcess | undefined;
let emulator: DiscordEmulator | undefined;

afterEach(async () => {
	deploy?.kill();
	deploy = undefined;
	await services?.stop();
	services = undefined;
	await emulator?.stop();
	emulator = undefined;
});

/** Every command and option Discord holds, by its path; `command` for the commands themselves. */
function walk(nodes: readonly RegisteredNode[], prefix = ''): Array<{ path: string; node: RegisteredNode; command: boolean }> {
	return nodes.flatMap((node) => [
		{ path: `${prefix}${node.name}`, node, command: prefix === '' },
		...walk(node.options ?? [], `${prefix}${node.name} `),
	]);
}

describe('localized commands', () => {
	it('deploy-commands registers every command and option with a name and description in every supported locale', async () => {
		services = await startTestServices();
		const guildId = services.discord.defaultGuild.id;
		deploy = runScript('src/deployCommands.ts', { ...services.env, DISCORD_GUILD_ID: guildId });
		expect(await deploy.exited).toBe(0);

		const registered = services.discord.registeredCommands({ guildId }) as unknown as RegisteredNode[];
		expect(registered.length).toBeGreaterThanOrEqual(6);
		const missing: string[] = [];
		for (const { path, node, command } of walk(registered)) {
			// A message command has no description; every option has one, whatever its type.
			const described = !(command && node.type === ApplicationCommandType.Message);
			for (const locale of LOCALIZED_LOCALES) {
				if (!node.name_localizations?.[locale]) missing.push(`${path}: name ${locale}`);
				if (described && !node.description_localizations?.[locale]) missing.push(`${path}: description ${locale}`);
			}
		}
		expect(missing).toEqual([]);
		// What a German or Japanese member sees in the command picker.
		const ask = registered.find((command) => command.name === 'ask');
		expect(ask?.name_localizations).toMatchObject({ de: 'fragen', ja: '質問', 'pt-BR': 'perguntar' });
		expect(ask?.options?.find((option) => option.name === 'prompt')?.description_localizations?.de).toBe('Deine Frage');
		expect(registered.find((command) => command.name === 'Ask Veil')?.name_localizations?.fr).toBe('Demander à Veil');
		// `/settings language` and its option read differently in every language, as they do in English.
		const language = registered.find((command) => command.name === 'settings')?.options?.find((option) => option.name === 'language');
		const locale = language?.options?.find((option) => option.name === 'locale');
		for (const code of LOCALIZED_LOCALES) expect(locale?.name_localizations?.[code], code).not.toBe(language?.name_localizations?.[code]);
		expect(locale?.name_localizations?.de).toBe('wahl');
	});

	it('the local Discord refuses a localization Discord refuses, as deploy-commands would hear it', async () => {
		emulator = await DiscordEmulator.start();
		const put = (command: Record<string, unknown>) =>
			fetch(`${emulator?.apiUrl}/v10/applications/${emulator?.applicationId}/commands`, {
				method: 'PUT',
				headers: { authorization: `Bot ${emulator?.token}`, 'content-type': 'application/json' },
				body: JSON.stringify([{ name: 'ask', description: 'Ask', ...command }]),
			});
		const capitalised = await put({ name_localizations: { de: 'Fragen' } });
		expect(capitalised.status).toBe(400);
		expect(await capitalised.json()).toMatchObject({
			errors: { 0: { name_localizations: { de: { _errors: [{ code: 'APPLICATION_COMMAND_INVALID_NAME' }] } } } },
		});
		const unknownLocale = await put({ description_localizations: { 'de-DE': 'Frag' } });
		expect(unknownLocale.status).toBe(400);
		const spaced = await put({
			options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', description: 'Q', name_localizations: { fr: 'ta question' } }],
		});
		expect(spaced.status).toBe(400);
		expect(emulator.registeredCommands()).toEqual([]);
		expect((await put({ name_localizations: { de: 'fragen' }, description_localizations: { de: 'Frag' } })).status).toBe(200);
		expect(emulator.registeredCommands()[0]).toMatchObject({ name_localizations: { de: 'fragen' } });
	});
});
