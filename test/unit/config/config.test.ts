import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { problemsOf, VALID_ENV } from '../../support/configFixture.js';
import { parseConfig, parseDeployConfig } from '../../../src/config/config.js';

const key = VALID_ENV.TOKEN_ENCRYPTION_KEY;
const valid = VALID_ENV;

describe('parseConfig', () => {
	it("reads the operators' server and the daily asks outside Veil's servers (default 50, 0: none)", () => {
		expect(parseConfig(valid)).toMatchObject({ operatorGuildId: undefined, askUserPerDay: 50 });
		expect(parseConfig({ ...valid, OPERATOR_GUILD_ID: '123456789012345678', ASK_USER_PER_DAY: '0' })).toMatchObject({
			operatorGuildId: '123456789012345678',
			askUserPerDay: 0,
		});
		expect(parseConfig({ ...valid, OPERATOR_GUILD_ID: '', ASK_USER_PER_DAY: '' })).toMatchObject({ operatorGuildId: undefined, askUserPerDay: 50 });
		const problems = problemsOf({ ...valid, OPERATOR_GUILD_ID: 'ops', ASK_USER_PER_DAY: '-1' });
		expect(problems.some((problem) => problem.startsWith('OPERATOR_GUILD_ID'))).toBe(true);
		expect(problems.some((problem) => problem.startsWith('ASK_USER_PER_DAY'))).toBe(true);
	});

	it('applies the documented defaults', () => {
		const config = parseConfig(valid);
		expect(config).toMatchObject({
			discordApiUrl: 'https://discord.com/api',
			generationModel: 'textmodel-pro',
			generationTimeoutMs: 60_000,
			storeUrl: 'sqlite://data/bot.sqlite',
			requireLink: true,
			flagRetentionDays: 30,
			conversationTtlHours: 24,
			logLevel: 'info',
			discordGuildId: undefined,
		});
		expect(config.tokenEncryptionKey.equals(Buffer.from(key, 'base64'))).toBe(true);
		expect(Object.isFrozen(config)).toBe(true);
	});

	it('reads every optional name', () => {
		const config = parseConfig({
			...valid,
			DISCORD_GUILD_ID: '123456789012345678',
			DISCORD_API_URL: 'http://127.0.0.1:4000/api/',
			GENERATION_MODEL: 'other-model',
			GENERATION_TIMEOUT_MS: '1500',
			STORE_URL: 'redis://127.0.0.1:6379',
			REQUIRE_LINK: 'false',
			FLAG_RETENTION_DAYS: '7',
			LOG_LEVEL: 'debug',
		});
		expect(config).toMatchObject({
			discordGuildId: '123456789012345678',
			discordApiUrl: 'http://127.0.0.1:4000/api',
			generationModel: 'other-model',
			generationTimeoutMs: 1500,
			storeUrl: 'redis://127.0.0.1:6379',
			requireLink: false,
			flagRetentionDays: 7,
			logLevel: 'debug',
		});
	});

	it('lists every missing required name at once', () => {
		const problems = problemsOf({});
		for (const name of ['DISCORD_TOKEN', 'GENERATION_BASE_URL', 'GENERATION_API_KEY', 'AUTH_BASE_URL', 'AUTH_PATH_PREFIX', 'TOKEN_ENCRYPTION_KEY']) {
			expect(problems.some((problem) => problem.startsWith(`${name}: missing`))).toBe(true);
		}
		expect(problems).toHaveLength(6);
	});

	it('treats blank values as missing', () => {
		expect(problemsOf({ ...valid, DISCORD_TOKEN: '  ' })).toEqual([expect.stringMatching(/^DISCORD_TOKEN: missing/)]);
	});

	it('says what is expected of an invalid value and never echoes it', () => {
		const env = {
			...valid,
			GENERATION_BASE_URL: 'not a url secret-one',
			TOKEN_ENCRYPTION_KEY: 'c2hvcnQtc2VjcmV0LWtleQ==',
			GENERATION_TIMEOUT_MS: '-5',
			STORE_URL: 'postgres://x',
			REQUIRE_LINK: 'maybe',
			AUTH_PATH_PREFIX: 'a/b',
			DISCORD_GUILD_ID: 'abc',
		};
		const problems = problemsOf(env);
		expect(problems.map((problem) => problem.split(':')[0]).sort()).toEqual(
			[
				'AUTH_PATH_PREFIX',
				'DISCORD_GUILD_ID',
				'GENERATION_BASE_URL',
				'GENERATION_TIMEOUT_MS',
				'REQUIRE_LINK',
				'STORE_URL',
				'TOKEN_ENCRYPTION_KEY',
			].sort(),
		);
		expect(problems.find((p) => p.startsWith('TOKEN_ENCRYPTION_KEY'))).toMatch(/npm run keygen/);
		const message = problems.join('\n');
		for (const value of Object.values(env)) expect(message).not.toContain(value === 'postgres://x' ? 'postgres://x' : value);
	});

	it('reads CONVERSATION_TTL_HOURS as hours, fractions allowed, and refuses zero or words', () => {
		expect(parseConfig({ ...valid, CONVERSATION_TTL_HOURS: '0.5' }).conversationTtlHours).toBe(0.5);
		expect(parseConfig({ ...valid, CONVERSATION_TTL_HOURS: '' }).conversationTtlHours).toBe(24);
		for (const bad of ['0', '-1', 'a day']) {
			expect(problemsOf({ ...valid, CONVERSATION_TTL_HOURS: bad })).toEqual([
				expect.stringMatching(/^CONVERSATION_TTL_HOURS: invalid; expected a number of hours above 0/),
			]);
		}
	});

	it('reads the admission limits: 32 at once, 500 waiting, 6 a minute by default; 0 allowed but for concurrency', () => {
		expect(parseConfig(valid)).toMatchObject({ askConcurrency: 32, askQueueMax: 500, askMemberPerMinute: 6 });
		expect(parseConfig({ ...valid, ASK_CONCURRENCY: '4', ASK_QUEUE_MAX: '0', ASK_MEMBER_PER_MINUTE: '0' })).toMatchObject({
			askConcurrency: 4,
			askQueueMax: 0,
			askMemberPerMinute: 0,
		});
		expect(parseConfig({ ...valid, ASK_CONCURRENCY: '', ASK_QUEUE_MAX: ' ', ASK_MEMBER_PER_MINUTE: '' })).toMatchObject({
			askConcurrency: 32,
			askQueueMax: 500,
			askMemberPerMinute: 6,
		});
		const problems = problemsOf({ ...valid, ASK_CONCURRENCY: '0', ASK_QUEUE_MAX: '-1', ASK_MEMBER_PER_MINUTE: '2.5' });
		expect(problems.map((problem) => problem.split(':')[0]).sort()).toEqual(['ASK_CONCURRENCY', 'ASK_MEMBER_PER_MINUTE', 'ASK_QUEUE_MAX']);
	});

	it('caps /link at 30 submits a minute per process by default; 0 turns the cap off', () => {
		expect(parseConfig(valid).linkPerProcessPerMinute).toBe(30);
		expect(parseConfig({ ...valid, LINK_PER_PROCESS_PER_MINUTE: '0' }).linkPerProcessPerMinute).toBe(0);
		expect(problemsOf({ ...valid, LINK_PER_PROCESS_PER_MINUTE: '-1' }).map((problem) => problem.split(':')[0])).toEqual([
			'LINK_PER_PROCESS_PER_MINUTE',
		]);
	});

	it("fetches attachments from Discord's two CDN hosts, or the one base of DISCORD_CDN_URL", () => {
		expect(parseConfig(valid).discordCdnBases).toEqual(['https://cdn.discordapp.com/', 'https://media.discordapp.net/']);
		expect(parseConfig({ ...valid, DISCORD_CDN_URL: 'http://127.0.0.1:4000/cdn' }).discordCdnBases).toEqual(['http://127.0.0.1:4000/cdn/']);
		expect(parseConfig({ ...valid, DISCORD_CDN_URL: '' }).discordCdnBases).toHaveLength(2);
		expect(parseConfig(valid).fileDownloadTimeoutMs).toBe(15_000);
	});

	const urlNames = ['GENERATION_BASE_URL', 'AUTH_BASE_URL', 'DISCORD_API_URL', 'DISCORD_CDN_URL'] as const;

	it.each([
		'https://api.example.com/v1',
		'http://127.0.0.1:8080',
		'http://127.45.6.7/x',
		'http://[::1]:4000/api',
		'http://localhost:3000',
		'http://LOCALHOST',
		'http://127.1',
	])('accepts %s for every service address', (url) => {
		const config = parseConfig({ ...valid, GENERATION_BASE_URL: url, AUTH_BASE_URL: url, DISCORD_API_URL: url });
		expect(config.generationBaseUrl).toBe(url);
		expect(config.authBaseUrl).toBe(url);
	});

	it.each([
		'http://api.example.com/secret-path-canary',
		'http://10.0.0.1:8080',
		'http://192.168.1.2',
		'http://127.0.0.1.nip.io',
		'http://localhost.example.com',
		'http://[::ffff:127.0.0.1]',
		'http://0.0.0.0:8080',
		'ftp://127.0.0.1',
		'ws://localhost',
	])('refuses %s for each service address, naming the variable and never the value', (url) => {
		for (const name of urlNames) {
			const problems = problemsOf({ ...valid, [name]: url });
			expect(problems).toEqual([`${name}: invalid; expected an https:// URL (http:// only for a loopback host: 127.0.0.0/8, [::1] or localhost)`]);
			expect(problems.join('\n')).not.toContain(url);
		}
	});

	it('refuses plain http to a remote host for deploy-commands too', () => {
		expect(() =>
			parseDeployConfig({ DISCORD_TOKEN: 't', DISCORD_APPLICATION_ID: '123456789012345678', DISCORD_API_URL: 'http://discord.example' }),
		).toThrow(/DISCORD_API_URL: invalid; expected an https:\/\/ URL/);
	});

	it('reads a previous sealing key beside the current one, blank meaning none, and never echoes a bad one', () => {
		const previous = randomBytes(32).toString('base64');
		expect(parseConfig(valid).tokenEncryptionKeyPrevious).toBeUndefined();
		expect(parseConfig({ ...valid, TOKEN_ENCRYPTION_KEY_PREVIOUS: ' ' }).tokenEncryptionKeyPrevious).toBeUndefined();
		expect(
			parseConfig({ ...valid, TOKEN_ENCRYPTION_KEY_PREVIOUS: previous }).tokenEncryptionKeyPrevious?.equals(Buffer.from(previous, 'base64')),
		).toBe(true);
		const bad = randomBytes(31).toString('base64');
		const problems = problemsOf({ ...valid, TOKEN_ENCRYPTION_KEY_PREVIOUS: bad });
		expect(problems).toEqual([expect.stringMatching(/^TOKEN_ENCRYPTION_KEY_PREVIOUS: invalid; expected 32 random bytes/)]);
		expect(problems.join('\n')).not.toContain(bad);
	});

	it('rejects a key of the wrong length', () => {
		expect(problemsOf({ ...valid, TOKEN_ENCRYPTION_KEY: randomBytes(31).toString('base64') })).toEqual([
			expect.stringMatching(/^TOKEN_ENCRYPTION_KEY: invalid; expected 32 random bytes/),
		]);
	});
});

describe('parseDeployConfig', () => {
	it('needs only the token and the application id', () => {
		expect(parseDeployConfig({ DISCORD_TOKEN: 't', DISCORD_APPLICATION_ID: '123456789012345678' })).toEqual({
			discordToken: 't',
			discordApplicationId: '123456789012345678',
			discordGuildId: undefined,
			discordApiUrl: 'https://discord.com/api',
		});
	});

	it('names both when both are missing', () => {
		expect(() => parseDeployConfig({})).toThrow(/DISCORD_TOKEN: missing[\s\S]*DISCORD_APPLICATION_ID: missing/);
	});
});
