import {
	ApplicationCommandOptionType,
	ApplicationCommandType,
	ApplicationIntegrationType,
	InteractionContextType,
	PermissionFlagsBits,
} from 'discord.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildProject, npmScript, procfileCommand, runCompiled, runScript, type BotProcess } from '../support/botProcess.js';
import { startTestServices, type TestServices } from '../support/harness.js';
import { safeResponse } from '../support/upstreamStandIn.js';
import { t } from '../../src/i18n/translate.js';

/** Where the members' commands may be used: servers, the bot's DMs, and other DMs and group DMs. */
const EVERYWHERE = [InteractionContextType.Guild, InteractionContextType.BotDM, InteractionContextType.PrivateChannel];
/** Installable to a server and to a member's account. */
const GUILD_AND_USER = [ApplicationIntegrationType.GuildInstall, ApplicationIntegrationType.UserInstall];

let services: TestServices | undefined;
let processes: BotProcess[] = [];

afterEach(async () => {
	for (const running of processes) running.kill();
	processes = [];
	await services?.stop();
	services = undefined;
});

function run(script: string, env: Record<string, string>): BotProcess {
	return track(runScript(script, env));
}

function track(started: BotProcess): BotProcess {
	processes.push(started);
	return started;
}

describe('starting the bot', () => {
	it('exits 1 on bad configuration, naming every problem and no value', async () => {
		const secret = 'c2hvcnQtc2VjcmV0LWtleQ==';
		const bot = run('src/main.ts', { GENERATION_API_KEY: 'api-key-canary', TOKEN_ENCRYPTION_KEY: secret, GENERATION_BASE_URL: 'nope' });
		expect(await bot.exited).toBe(1);
		const output = bot.stderr.join('\n');
		for (const name of ['DISCORD_TOKEN', 'GENERATION_BASE_URL', 'AUTH_BASE_URL', 'AUTH_PATH_PREFIX', 'TOKEN_ENCRYPTION_KEY']) {
			expect(output).toContain(name);
		}
		expect(output).not.toContain('GENERATION_API_KEY');
		expect(output).not.toContain(secret);
		expect(output).not.toContain('api-key-canary');
		expect(output).not.toMatch(/\n\s+at /);
	});

	it('reports a token Discord rejects in one plain line, without the token, and exits 1', async () => {
		services = await startTestServices();
		const wrongToken = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.wrong.token-canary';
		const bot = run('src/main.ts', { ...services.env, DISCORD_TOKEN: wrongToken });
		expect(await bot.exited).toBe(1);
		const lines = bot.stderr.filter((line) => line.trim() !== '');
		expect(lines).toEqual([expect.stringMatching(/^Discord rejected DISCORD_TOKEN/)]);
		expect([...bot.stdout, ...bot.stderr].join('\n')).not.toContain(wrongToken);
	});
});

describe('the production start', () => {
	beforeAll(buildProject, 60_000);

	it('runs compiled JavaScript with no TypeScript loader, the same for the Procfile worker and npm start', () => {
		const { env, argv } = procfileCommand('worker');
		expect(argv[0]).toBe('node');
		expect(argv.join(' ')).not.toMatch(/tsx|ts-node|--import|--loader|\.ts\b/);
		expect(argv.at(-1)).toMatch(/^dist\/.+\.js$/);
		// npm start stays one command every shell runs; the Procfile adds glibc's malloc setting (docs/operations.md).
		expect(npmScript('start')).toBe(argv.join(' '));
		expect(env).toEqual({ MALLOC_TRIM_THRESHOLD_: '131072' });
		// A fresh clone has no dist/: npm start compiles first.
		expect(npmScript('prestart')).toBe('npm run build');
	});

	it("answers /ask when started as the Procfile's worker, and on SIGTERM finishes the answer in flight and exits 0", async () => {
		services = await startTestServices({ REQUIRE_LINK: 'false', LOG_LEVEL: 'info' });
		const { discord, upstream } = services;
		const worker = procfileCommand('worker');
		const bot = track(runCompiled(worker.argv.slice(1), { ...services.env, ...worker.env }));
		await bot.waitForLine(/connected to Discord/);

		upstream.scriptGeneration({ json: safeResponse('slow answer'), delayMs: 800 });
		const inFlight = discord.slashCommand({
			name: 'ask',
			options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'take your time' }],
		});
		await inFlight.waitFor((state) => state.callbacks.length > 0);
		await upstream.waitForRequests(1);
		bot.child.kill('SIGTERM');
		await bot.waitForLine(/shutting down/);

		// A German member: the compiled build reads that catalogue, beside en-US, at its first sentence (catalogues.ts).
		const late = discord.slashCommand({
			name: 'ask',
			locale: 'de',
			options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'too late' }],
		});
		const lateState = await late.waitForAnswer();
		expect(t('de', 'members.general.restarting')).not.toBe(t('en-US', 'members.general.restarting'));
		expect(lateState.original?.content).toBe(t('de', 'members.general.restarting'));
		expect(lateState.ephemeral).toBe(true);

		const answered = await inFlight.waitForAnswer();
		expect(answered.original?.content).toBe('slow answer');
		expect(await bot.exited).toBe(0);
		expect(upstream.requests.filter((request) => request.endpoint === 'generate')).toHaveLength(1);
	});
});

describe('deploy-commands', () => {
	it("registers the registry's commands in one guild when DISCORD_GUILD_ID is set", async () => {
		services = await startTestServices();
		const guildId = services.discord.defaultGuild.id;
		const deploy = run('src/deployCommands.ts', { ...services.env, DISCORD_GUILD_ID: guildId });
		expect(await deploy.exited).toBe(0);
		expect(deploy.stdout.join('\n')).toMatch(/Registered \d+ commands \(guild/);
		// A guild's commands cannot be installed to a member's account: the operator is told to register globally.
		expect(deploy.stdout.join('\n')).toMatch(/without DISCORD_GUILD_ID/);
		const commands = services.discord.registeredCommands({ guildId });
		expect(services.discord.registeredCommands()).toEqual([]);
		const byName = new Map(commands.map((command) => [command.name, command as unknown as Record<string, unknown>]));
		expect([...byName.keys()]).toEqual(expect.arrayContaining(['ask', 'link', 'unlink']));

		const ask = byName.get('ask') as { options: Array<Record<string, unknown>>; contexts: number[] };
		expect(ask.options).toEqual([
			expect.objectContaining({ name: 'prompt', type: ApplicationCommandOptionType.String, required: true, min_length: 1, max_length: 4000 }),
			expect.objectContaining({ name: 'private', type: ApplicationCommandOptionType.Boolean }),
			expect.objectContaining({ name: 'file', type: ApplicationCommandOptionType.Attachment }),
		]);
		expect(ask.contexts).toEqual(EVERYWHERE);
		expect((byName.get('link') as { contexts: number[] }).contexts).toEqual(EVERYWHERE);
		// The message command beside the slash commands: no description or options, everywhere /ask is.
		const askVeil = commands.find((command) => command.name === 'Ask Veil');
		expect(askVeil).toMatchObject({ type: ApplicationCommandType.Message, description: '', contexts: EVERYWHERE });
		expect(askVeil?.options).toBeUndefined();
		expect(commands.filter((command) => command.type === ApplicationCommandType.ChatInput).map((command) => command.name)).toEqual(
			expect.arrayContaining(['ask', 'link', 'unlink']),
		);
		for (const [name, permission] of [
			['flagged', String(PermissionFlagsBits.ManageMessages)],
			['settings', String(PermissionFlagsBits.ManageGuild)],
		] as const) {
			if (byName.has(name)) expect(byName.get(name)?.default_member_permissions).toBe(permission);
		}
	});

	it("registers globally without DISCORD_GUILD_ID, the members' commands installable to accounts and usable in DMs", async () => {
		services = await startTestServices();
		const deploy = run('src/deployCommands.ts', services.env);
		expect(await deploy.exited).toBe(0);
		expect(deploy.stdout.join('\n')).toMatch(/Registered \d+ commands \(global\)/);
		expect(deploy.stdout.join('\n')).not.toMatch(/DISCORD_GUILD_ID/);
		// What deploy-commands sent, as Discord received it.
		const put = services.discord.requests.find(
			(request) => request.method === 'PUT' && request.path.endsWith(`/applications/${services?.discord.applicationId}/commands`),
		);
		const sent = new Map(
			(put?.json as Array<{ name: string; integration_types?: number[]; contexts?: number[] }>).map((command) => [command.name, command]),
		);
		for (const name of ['ask', 'Ask Veil', 'link', 'unlink']) {
			expect(sent.get(name), name).toMatchObject({ integration_types: GUILD_AND_USER, contexts: EVERYWHERE });
		}
		for (const name of ['flagged', 'settings']) {
			expect(sent.get(name), name).toMatchObject({
				integration_types: [ApplicationIntegrationType.GuildInstall],
				contexts: [InteractionContextType.Guild],
			});
		}
		expect(services.discord.registeredCommands().find((command) => command.name === 'ask')).toMatchObject({
			integration_types: GUILD_AND_USER,
			contexts: EVERYWHERE,
		});
	});

	it('explains a rejected token and exits 1', async () => {
		services = await startTestServices();
		const deploy = run('src/deployCommands.ts', { ...services.env, DISCORD_TOKEN: 'not-the-token' });
		expect(await deploy.exited).toBe(1);
		expect(deploy.stderr.join('\n')).toMatch(/Discord rejected DISCORD_TOKEN/);
		expect(deploy.stderr.join('\n')).not.toContain('not-the-token');
	});
});
