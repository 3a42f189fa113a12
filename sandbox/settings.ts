/** A reason the sandbox will not start, in the words it prints. */
export class SandboxRefusal extends Error {
	override readonly name = 'SandboxRefusal';
}

/** The real model service, when its names are set: then only Discord is local. */
export interface RealModel {
	env: Record<string, string>;
	baseUrl: string;
}

export interface SandboxSettings {
	/** The page's port on 127.0.0.1 (0: a free one). */
	port: number;
	/** The local Discord's port (0: a free one); set by a DISCORD_API_URL that names the sandbox's own address. */
	discordPort: number;
	realModel: RealModel | undefined;
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost']);
const REAL_MODEL_NAMES = [
	'GENERATION_BASE_URL',
	'GENERATION_API_KEY',
	'GENERATION_MODEL',
	'GENERATION_TIMEOUT_MS',
	'AUTH_BASE_URL',
	'AUTH_PATH_PREFIX',
];

/**
 * Reads the sandbox's few names from the environment (never from a `.env`, which may hold a real bot's token).
 * DISCORD_API_URL may only name the sandbox's own Discord, http://127.0.0.1:PORT/api; anything else is refused.
 */
export function readSettings(env: NodeJS.ProcessEnv): SandboxSettings {
	return { port: readPort(env.SANDBOX_PORT), discordPort: readOwnDiscordPort(env.DISCORD_API_URL), realModel: readRealModel(env) };
}

function readPort(value: string | undefined): number {
	if (value === undefined || value === '') return 3000;
	const port = Number(value);
	if (!/^\d+$/.test(value) || port > 65_535) throw new SandboxRefusal(`SANDBOX_PORT must be a port number (0-65535), not "${value.slice(0, 20)}".`);
	return port;
}

function readOwnDiscordPort(value: string | undefined): number {
	if (value === undefined || value === '') return 0;
	let url: URL | undefined;
	try {
		url = new URL(value);
	} catch {
		url = undefined;
	}
	const local = url?.protocol === 'http:' && LOOPBACK_NAMES.has(url.hostname);
	if (!local || url === undefined || url.port === '' || url.pathname.replace(/\/$/, '') !== '/api') {
		// The origin only: a URL may carry credentials, which never reach a message.
		const shown = url ? `${url.protocol}//${url.hostname}` : 'not a URL';
		throw new SandboxRefusal(
			`The sandbox refuses DISCORD_API_URL (${shown}): it runs its own Discord on 127.0.0.1 and never talks to another. ` +
				"Unset DISCORD_API_URL, or set it to http://127.0.0.1:PORT/api to pick the local Discord's port.",
		);
	}
	return Number(url.port);
}

function readRealModel(env: NodeJS.ProcessEnv): RealModel | undefined {
	const baseUrl = env.GENERATION_BASE_URL ?? '';
	const apiKey = env.GENERATION_API_KEY ?? '';
	if (baseUrl === '' && apiKey === '') return undefined;
	const missing = ['GENERATION_BASE_URL', 'GENERATION_API_KEY', 'AUTH_BASE_URL', 'AUTH_PATH_PREFIX'].filter((name) => !env[name]);
	if (missing.length > 0) {
		throw new SandboxRefusal(`To use the real model service, set ${missing.join(', ')} too (or none of the GENERATION_ names for the local model).`);
	}
	const real: Record<string, string> = {};
	for (const name of REAL_MODEL_NAMES) if (env[name]) real[name] = env[name] as string;
	return { env: real, baseUrl };
}
