import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DiscordEmulator } from './discord/emulator.js';
import { LocalModel, VEIL_TIMEOUT_MS } from './model/localModel.js';
import { buildVeil, runToEnd, startNode, stopAll, type StartedProcess } from './processes.js';
import type { SandboxSettings } from './settings.js';
import { startPageServer } from './web/server.js';
import { startWorld, type SandboxWorld } from './world.js';

/** How long Veil may take to connect to the local Discord; a compiled start takes a second or two. */
const READY_TIMEOUT_MS = 60_000;

export interface RunningSandbox {
	readonly url: string;
	readonly veil: StartedProcess;
	readonly logFile: string;
}

/** The servers and files made so far, closed in reverse order after the processes (see stopSandbox). */
const closers: Array<() => Promise<void>> = [];
let keptLog: string | undefined;

/** Where Veil's log is written, once Veil has started: it is kept when the sandbox stops. */
export function veilLogPath(): string | undefined {
	return keptLog;
}

/** Builds Veil, starts the local Discord, the local model (unless the real one is set), Veil and the page. */
export async function startSandbox(settings: SandboxSettings, say: (line: string) => void): Promise<RunningSandbox> {
	const directory = mkdtempSync(join(tmpdir(), 'veil-sandbox-'));
	closers.push(async () => rmSync(directory, { recursive: true, force: true }));
	// The ports first: a taken one is said at once, not after the build.
	const { discord, world } = await startWorld(settings.discordPort);
	closers.push(() => discord.stop());
	const model = settings.realModel ? undefined : await LocalModel.start();
	if (model) closers.push(() => model.stop());
	const page = await startPageServer({ discord, world, model, port: settings.port }).catch((error: unknown) => {
		const code = (error as { code?: string }).code;
		throw code === 'EADDRINUSE' ? new Error(`Port ${settings.port} of 127.0.0.1 is taken: set SANDBOX_PORT to another.`) : error;
	});
	closers.push(() => page.stop());
	const env = veilEnvironment(discord, world, model, settings, directory);

	say('Building Veil (npm run build)…');
	await buildVeil();

	say("Registering Veil's commands with the local Discord (npm run deploy-commands)…");
	await runToEnd('deploy-commands', ['dist/src/deployCommands.js'], { env, cwd: directory });

	// Beside the throwaway directory, not in it: the log outlives the sandbox, for a look at what happened.
	const logFile = join(tmpdir(), `veil-sandbox-${new Date().toISOString().replace(/[:.]/g, '-')}.log`);
	keptLog = logFile;
	const log = createWriteStream(logFile, { mode: 0o600 });
	closers.push(() => new Promise((resolve) => log.end(resolve)));
	const veil = startNode('veil', ['--max-semi-space-size=2', '--v8-pool-size=1', 'dist/src/main.js'], {
		env,
		cwd: directory,
		onLine: (line) => {
			log.write(`${line}\n`);
			const problem = problemOf(line);
			if (problem) say(`[veil] ${problem}`);
		},
	});
	say(`Starting Veil (node dist/src/main.js, pid ${veil.child.pid ?? '?'}); its log: ${logFile}`);
	const ready = discord.waitForReady(READY_TIMEOUT_MS);
	const exited = veil.exited.then((code) =>
		Promise.reject(new Error(`Veil exited (${code}) before it connected:\n${veil.output.slice(-10).join('\n')}`)),
	);
	await Promise.race([ready, exited]);
	exited.catch(() => undefined);
	await setUpModlog(discord, world);
	return { url: page.url, veil, logFile };
}

/** Stops everything the sandbox started, each by its own handle (children by pid); safe to call at any point. */
export async function stopSandbox(): Promise<void> {
	// Processes first: Veil finishes its interactions in flight on the local Discord, which must still answer.
	await stopAll();
	while (closers.length > 0) {
		const close = closers.pop() as () => Promise<void>;
		await close().catch(() => undefined);
	}
}

/**
 * Veil's whole environment, built here and nothing inherited: the local Discord's generated (fake) token, a
 * throwaway SQLite file and a fresh sealing key. A real token in the sandbox's own environment never reaches it.
 */
export function veilEnvironment(
	discord: DiscordEmulator,
	world: SandboxWorld,
	model: LocalModel | undefined,
	settings: SandboxSettings,
	directory: string,
): Record<string, string> {
	const modelEnv = model
		? {
				GENERATION_BASE_URL: model.baseUrl,
				GENERATION_API_KEY: model.apiKey,
				GENERATION_MODEL: model.model,
				GENERATION_TIMEOUT_MS: String(VEIL_TIMEOUT_MS),
				AUTH_BASE_URL: model.baseUrl,
				AUTH_PATH_PREFIX: model.pathPrefix,
			}
		: (settings.realModel?.env ?? {});
	return {
		DISCORD_TOKEN: discord.token,
		DISCORD_APPLICATION_ID: discord.applicationId,
		DISCORD_GUILD_ID: world.guild.id,
		DISCORD_API_URL: discord.apiUrl,
		// Files picked in the page are served by the local Discord's CDN.
		DISCORD_CDN_URL: discord.cdnUrl,
		...modelEnv,
		TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
		STORE_URL: `sqlite://${join(directory, 'veil.sqlite')}`,
		LOG_LEVEL: 'info',
		// One server: one shard, whatever the local Discord recommends.
		SHARD_COUNT: '1',
		// Two answers at once, so a few slow ones (a delay in the model panel) show the line and its positions.
		ASK_CONCURRENCY: '2',
		// One person plays every member here, and tries each action in turn (a Regenerate is an ask): six asks a
		// minute a member, the default, would turn a newcomer away in the middle of the tour.
		ASK_MEMBER_PER_MINUTE: '20',
	};
}

/** The manager points Veil's mod-log at #mod-log with /settings, as a server would, so held answers show there. */
async function setUpModlog(discord: DiscordEmulator, world: SandboxWorld): Promise<void> {
	const manager = world.person('manager');
	const staff = world.channels.find((c) => c.key === 'staff');
	const modlog = world.channels.find((c) => c.key === 'mod-log');
	if (!manager || !staff || !modlog) return;
	const handle = discord.slashCommand({
		user: manager.user,
		channelId: staff.id,
		memberPermissions: manager.permissions,
		name: 'settings',
		options: [{ type: 1, name: 'modlog', options: [{ type: 7, name: 'channel', value: modlog.id }] }],
	});
	await handle.waitForAnswer(15_000);
}

/** A warning or error line of Veil's JSON log, in a few words; other lines stay in the log file. */
function problemOf(line: string): string | undefined {
	try {
		const entry = JSON.parse(line) as { level?: number; msg?: string };
		return typeof entry.level === 'number' && entry.level >= 40 ? `${entry.level >= 50 ? 'error' : 'warning'}: ${entry.msg ?? ''}` : undefined;
	} catch {
		return line;
	}
}
