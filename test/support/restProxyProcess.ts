import { runScript, type BotProcess } from './botProcess.js';

export interface RestProxyProcess {
	readonly process: BotProcess;
	/** For a bot's DISCORD_API_URL. */
	readonly apiUrl: string;
	readonly port: number;
}

/**
 * Runs `npm run rest-proxy`'s script as its own process on a free port, in front of `discordApiUrl`; `env` adds to
 * its environment (REST_PROXY_SECRET, say).
 */
export async function startRestProxy(discordApiUrl: string, token: string, env: Record<string, string> = {}): Promise<RestProxyProcess> {
	const proxy = runScript('src/restProxy.ts', {
		DISCORD_TOKEN: token,
		DISCORD_API_URL: discordApiUrl,
		REST_PROXY_PORT: '0',
		LOG_LEVEL: 'info',
		...env,
	});
	try {
		const { port } = JSON.parse(await proxy.waitForLine(/REST proxy listening/)) as { port: number };
		return { process: proxy, apiUrl: `http://127.0.0.1:${port}/api`, port };
	} catch (error) {
		proxy.kill();
		throw error;
	}
}
