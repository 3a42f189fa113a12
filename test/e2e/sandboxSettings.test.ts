import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { parseConfig } from '../../src/config/config.js';
import { LocalModel } from '../../sandbox/model/localModel.js';
import { veilEnvironment } from '../../sandbox/sandbox.js';
import { readSettings, SandboxRefusal } from '../../sandbox/settings.js';
import { startWorld } from '../../sandbox/world.js';
import { startSandboxProcess } from '../support/sandboxProcess.js';

describe('the sandbox refuses a Discord that is not its own', () => {
	test('npm run sandbox with DISCORD_API_URL at discord.com exits 1 with one clear line, before building or starting anything', async () => {
		const sandbox = startSandboxProcess({ DISCORD_API_URL: 'https://discord.com/api', DISCORD_TOKEN: 'a-real-looking-token', SANDBOX_PORT: '0' });
		try {
			expect(await sandbox.exited).toBe(1);
			const stderr = sandbox.stderr.join('\n');
			expect(stderr).toContain('The sandbox refuses DISCORD_API_URL (https://discord.com)');
			expect(stderr).toContain('never talks to another');
			expect(stderr).not.toContain('a-real-looking-token');
			expect(sandbox.stdout.join('\n')).not.toContain('Building Veil');
		} finally {
			sandbox.kill();
		}
	}, 30_000);

	test('a taken SANDBOX_PORT is said at once, before the build, and the sandbox exits 1', async () => {
		const taken = createServer();
		await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
		const sandbox = startSandboxProcess({ SANDBOX_PORT: String((taken.address() as AddressInfo).port) });
		try {
			expect(await sandbox.exited).toBe(1);
			expect(sandbox.stderr.join('\n')).toMatch(/Port \d+ of 127\.0\.0\.1 is taken: set SANDBOX_PORT to another\./);
			expect(sandbox.stdout.join('\n')).not.toContain('Building Veil');
		} finally {
			sandbox.kill();
			taken.close();
		}
	}, 30_000);

	test.each([
		['https://discord.com/api'],
		['http://10.0.0.5:8080/api'],
		['http://127.0.0.1.example.com:3001/api'],
		['https://127.0.0.1:3001/api'],
		['http://127.0.0.1/api'],
		['http://127.0.0.1:3001/other'],
		['not a url'],
	])('refuses %s', (url) => {
		expect(() => readSettings({ DISCORD_API_URL: url })).toThrow(SandboxRefusal);
	});

	test('a loopback address with a port names the local Discord itself; none means a free port', () => {
		expect(readSettings({ DISCORD_API_URL: 'http://127.0.0.1:3901/api' }).discordPort).toBe(3901);
		expect(readSettings({ DISCORD_API_URL: 'http://localhost:3902/api/' }).discordPort).toBe(3902);
		expect(readSettings({}).discordPort).toBe(0);
	});

	test('a URL with credentials is refused without showing them', () => {
		expect(() => readSettings({ DISCORD_API_URL: 'https://user:secret@proxy.example/api' })).toThrow(/proxy\.example/);
		try {
			readSettings({ DISCORD_API_URL: 'https://user:secret@proxy.example/api' });
		} catch (error) {
			expect((error as Error).message).not.toContain('secret');
		}
	});

	test('SANDBOX_PORT defaults to 3000 and must be a port', () => {
		expect(readSettings({}).port).toBe(3000);
		expect(readSettings({ SANDBOX_PORT: '4100' }).port).toBe(4100);
		expect(() => readSettings({ SANDBOX_PORT: 'http' })).toThrow(SandboxRefusal);
		expect(() => readSettings({ SANDBOX_PORT: '70000' })).toThrow(SandboxRefusal);
	});

	test('the real model service needs its four names together', () => {
		expect(readSettings({}).realModel).toBeUndefined();
		expect(() => readSettings({ GENERATION_BASE_URL: 'https://model.example' })).toThrow(/GENERATION_API_KEY, AUTH_BASE_URL, AUTH_PATH_PREFIX/);
		const real = readSettings({
			GENERATION_BASE_URL: 'https://model.example',
			GENERATION_API_KEY: 'k',
			AUTH_BASE_URL: 'https://auth.example',
			AUTH_PATH_PREFIX: 'p',
		}).realModel;
		expect(real?.env).toEqual({
			GENERATION_BASE_URL: 'https://model.example',
			GENERATION_API_KEY: 'k',
			AUTH_BASE_URL: 'https://auth.example',
			AUTH_PATH_PREFIX: 'p',
		});
	});
});

describe("Veil's environment in the sandbox", () => {
	test('is built whole: the local Discord and its fake token, a fresh key, a throwaway SQLite file; Veil accepts it', async () => {
		const { discord, world } = await startWorld();
		const model = await LocalModel.start();
		try {
			const env = veilEnvironment(discord, world, model, readSettings({}), '/tmp/veil-sandbox-test');
			expect(env).toMatchObject({
				DISCORD_TOKEN: discord.token,
				DISCORD_API_URL: discord.apiUrl,
				DISCORD_GUILD_ID: world.guild.id,
				GENERATION_BASE_URL: model.baseUrl,
				AUTH_BASE_URL: model.baseUrl,
				STORE_URL: 'sqlite:///tmp/veil-sandbox-test/veil.sqlite',
			});
			expect(Buffer.from(env.TOKEN_ENCRYPTION_KEY as string, 'base64')).toHaveLength(32);
			expect(() => parseConfig(env)).not.toThrow();
		} finally {
			await Promise.all([discord.stop(), model.stop()]);
		}
	});

	test('with the real service named, its names pass through and only Discord is local', async () => {
		const { discord, world } = await startWorld();
		try {
			const real = {
				GENERATION_BASE_URL: 'https://model.example',
				GENERATION_API_KEY: 'key',
				AUTH_BASE_URL: 'https://auth.example',
				AUTH_PATH_PREFIX: 'tenant',
			};
			const env = veilEnvironment(discord, world, undefined, readSettings({ ...real, DISCORD_TOKEN: 'a-real-bot-token' }), '/tmp/x');
			expect(env).toMatchObject({ ...real, DISCORD_TOKEN: discord.token, DISCORD_API_URL: discord.apiUrl });
			expect(Object.values(env)).not.toContain('a-real-bot-token');
			expect(() => parseConfig(env)).not.toThrow();
		} finally {
			await discord.stop();
		}
	});
});
