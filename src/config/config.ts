import { z } from 'zod';
import { KEY_FORMAT, parseEncryptionKey } from '../crypto/sealing.js';
import { DISCORD_CDN_BASES } from '../files/fetchAttachment.js';
import { readShardSettings, type ShardSettings } from './shardIds.js';

/** The bot's configuration, parsed once from the environment. The core never reads `process.env`. */
export interface Config extends ShardSettings {
	readonly discordToken: string;
	readonly discordApplicationId: string | undefined;
	readonly discordGuildId: string | undefined;
	readonly discordApiUrl: string;
	/** Where attachments are fetched from: Discord's two CDN hosts, or the one base of `DISCORD_CDN_URL`. */
	readonly discordCdnBases: readonly string[];
	/** Time-out of one attachment's download. */
	readonly fileDownloadTimeoutMs: number;
	readonly generationBaseUrl: string;
	readonly generationApiKey: string;
	readonly generationModel: string;
	readonly generationTimeoutMs: number;
	readonly authBaseUrl: string;
	readonly authPathPrefix: string;
	readonly tokenEncryptionKey: Buffer;
	/** The key before the last rotation: it still opens what it sealed, and nothing is sealed with it. */
	readonly tokenEncryptionKeyPrevious: Buffer | undefined;
	readonly storeUrl: string;
	readonly requireLink: boolean;
	readonly flagRetentionDays: number;
	/** How long a conversation can be followed up after its last turn. */
	readonly conversationTtlHours: number;
	/** Generation calls in flight at once in this process; more asks wait in line. */
	readonly askConcurrency: number;
	/** Asks that may wait in line; one more is turned away at once. */
	readonly askQueueMax: number;
	/** Asks one member may start in 60 s in this process; 0: no limit. */
	readonly askMemberPerMinute: number;
	/** /link submits this process may send to the account service in 60 s; 0: no cap. */
	readonly linkPerProcessPerMinute: number;
	/** The operators' own server: held answers from outside Veil's servers are reviewed there; undefined: none kept. */
	readonly operatorGuildId: string | undefined;
	/** Asks per member per UTC day outside servers that installed Veil; 0: no limit. */
	readonly askUserPerDay: number;
	readonly logLevel: string;
	/** Port of the operators' endpoint (`/metrics`, `/healthz`, `/readyz`); undefined: off. 0 picks a free one. */
	readonly metricsPort: number | undefined;
	readonly metricsHost: string;
	/** Sent to the REST proxy with every request to Discord's REST (see restProxySecret.ts); undefined: none. */
	readonly restProxySecret: string | undefined;
}

/** Bad configuration: `message` lists every problem by name, and never a value. */
export class ConfigError extends Error {
	override readonly name = 'ConfigError';
	readonly problems: readonly string[];

	constructor(problems: readonly string[]) {
		super(
			`Veil cannot start: the configuration has ${problems.length === 1 ? 'a problem' : `${problems.length} problems`}:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
		);
		this.problems = problems;
	}
}

const snowflake = z.string().regex(/^\d{17,20}$/, 'a Discord id (17 to 20 digits)');
const SERVICE_URL = 'an https:// URL (http:// only for a loopback host: 127.0.0.0/8, [::1] or localhost)';
/** An address secrets travel to (the API key, passwords, tokens): encrypted unless it never leaves the machine. */
const serviceUrl = z.string({ error: SERVICE_URL }).refine((value) => {
	if (!URL.canParse(value)) return false;
	const { protocol, hostname } = new URL(value);
	return protocol === 'https:' || (protocol === 'http:' && isLoopback(hostname));
}, SERVICE_URL);
const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());
const withDefault = <T extends z.ZodType>(schema: T, fallback: z.input<T>) => z.preprocess(blankToUndefined, schema.prefault(fallback as never));

const requiredText = (what: string) => z.string({ error: what }).trim().min(1, what);
const booleanFlag = z.enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'true or false' }).transform((v) => ['true', '1', 'yes'].includes(v));
const port = z.coerce
	.number({ error: 'a TCP port (0 to 65535)' })
	.int('a TCP port (0 to 65535)')
	.min(0, 'a TCP port (0 to 65535)')
	.max(65_535, 'a TCP port (0 to 65535)');
const listenHost = z
	.string()
	.trim()
	.regex(/^[\w.:-]+$/, 'a host name or IP address to listen on, like 127.0.0.1 or 0.0.0.0');
const proxySecret = z.string().trim().min(32, 'at least 32 characters, the same for the proxy and every bot (npm run keygen makes one)');
const positiveInt = (what: string) => z.coerce.number({ error: what }).int(what).positive(what);
const wholeNumber = (what: string) => z.coerce.number({ error: what }).int(what).nonnegative(what);

const encryptionKey = z.string({ error: KEY_FORMAT }).transform((value, ctx) => {
	try {
		return parseEncryptionKey(value);
	} catch {
		ctx.addIssue({ code: 'custom', message: KEY_FORMAT });
		return z.NEVER;
	}
});

const environmentSchema = z.object({
	DISCORD_TOKEN: requiredText('the bot token from the Developer Portal'),
	DISCORD_APPLICATION_ID: optional(snowflake),
	DISCORD_GUILD_ID: optional(snowflake),
	DISCORD_API_URL: withDefault(serviceUrl, 'https://discord.com/api'),
	DISCORD_CDN_URL: optional(serviceUrl),
	FILE_DOWNLOAD_TIMEOUT_MS: withDefault(positiveInt('a whole number of milliseconds above 0'), 15_000),
	GENERATION_BASE_URL: serviceUrl,
	GENERATION_API_KEY: requiredText('the API key of the generation service'),
	GENERATION_MODEL: withDefault(z.string().regex(/^[\w.-]+$/, 'a model name (letters, digits, . _ -)'), 'textmodel-pro'),
	GENERATION_TIMEOUT_MS: withDefault(positiveInt('a whole number of milliseconds above 0'), 60_000),
	AUTH_BASE_URL: serviceUrl,
	AUTH_PATH_PREFIX: z.string({ error: 'one path segment, like `acme`' }).regex(/^[A-Za-z0-9._~-]+$/, 'one path segment, like `acme` (no slashes)'),
	TOKEN_ENCRYPTION_KEY: encryptionKey,
	TOKEN_ENCRYPTION_KEY_PREVIOUS: optional(encryptionKey),
	STORE_URL: withDefault(
		z.string().regex(/^(sqlite:\/\/.+|rediss?:\/\/.+|memory:\/\/)$/, 'sqlite://PATH, redis://HOST:PORT or memory://'),
		'sqlite://data/bot.sqlite',
	),
	REQUIRE_LINK: withDefault(booleanFlag, 'true'),
	FLAG_RETENTION_DAYS: withDefault(z.coerce.number({ error: 'a number of days above 0' }).positive('a number of days above 0'), 30),
	ASK_CONCURRENCY: withDefault(positiveInt('a whole number above 0'), 32),
	ASK_QUEUE_MAX: withDefault(wholeNumber('a whole number, 0 or more'), 500),
	ASK_MEMBER_PER_MINUTE: withDefault(wholeNumber('a whole number, 0 or more (0: no limit)'), 6),
	LINK_PER_PROCESS_PER_MINUTE: withDefault(wholeNumber('a whole number, 0 or more (0: no limit)'), 30),
	CONVERSATION_TTL_HOURS: withDefault(z.coerce.number({ error: 'a number of hours above 0' }).positive('a number of hours above 0'), 24),
	OPERATOR_GUILD_ID: optional(snowflake),
	ASK_USER_PER_DAY: withDefault(wholeNumber('a whole number, 0 or more (0: no limit)'), 50),
	LOG_LEVEL: withDefault(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
	METRICS_PORT: optional(port),
	METRICS_HOST: withDefault(listenHost, '127.0.0.1'),
	REST_PROXY_SECRET: optional(proxySecret),
});

/**
 * Parses the environment into a frozen Config. Throws ConfigError naming every missing or invalid variable with
 * what is expected; zod's messages are built from our own texts, so no value (secret or not) is echoed.
 */
export function parseConfig(env: Record<string, string | undefined>): Config {
	const result = environmentSchema.safeParse(env);
	const shards = readShardSettings(env);
	const problems = [...(result.success ? [] : describeIssues(result.error.issues, env)), ...shards.problems];
	if (!result.success || problems.length > 0) throw new ConfigError(problems);
	const e = result.data;
	return Object.freeze({
		discordToken: e.DISCORD_TOKEN,
		discordApplicationId: e.DISCORD_APPLICATION_ID,
		discordGuildId: e.DISCORD_GUILD_ID,
		discordApiUrl: e.DISCORD_API_URL.replace(/\/+$/, ''),
		discordCdnBases: e.DISCORD_CDN_URL === undefined ? DISCORD_CDN_BASES : [e.DISCORD_CDN_URL.replace(/\/*$/, '/')],
		fileDownloadTimeoutMs: e.FILE_DOWNLOAD_TIMEOUT_MS,
		generationBaseUrl: e.GENERATION_BASE_URL,
		generationApiKey: e.GENERATION_API_KEY,
		generationModel: e.GENERATION_MODEL,
		generationTimeoutMs: e.GENERATION_TIMEOUT_MS,
		authBaseUrl: e.AUTH_BASE_URL,
		authPathPrefix: e.AUTH_PATH_PREFIX,
		tokenEncryptionKey: e.TOKEN_ENCRYPTION_KEY,
		tokenEncryptionKeyPrevious: e.TOKEN_ENCRYPTION_KEY_PREVIOUS,
		storeUrl: e.STORE_URL,
		requireLink: e.REQUIRE_LINK,
		flagRetentionDays: e.FLAG_RETENTION_DAYS,
		conversationTtlHours: e.CONVERSATION_TTL_HOURS,
		askConcurrency: e.ASK_CONCURRENCY,
		askQueueMax: e.ASK_QUEUE_MAX,
		askMemberPerMinute: e.ASK_MEMBER_PER_MINUTE,
		linkPerProcessPerMinute: e.LINK_PER_PROCESS_PER_MINUTE,
		operatorGuildId: e.OPERATOR_GUILD_ID,
		askUserPerDay: e.ASK_USER_PER_DAY,
		logLevel: e.LOG_LEVEL,
		...shards.settings,
		metricsPort: e.METRICS_PORT,
		metricsHost: e.METRICS_HOST,
		restProxySecret: e.REST_PROXY_SECRET,
	});
}

/** What `deploy-commands` needs: the token, the application id, and where to register. */
export interface DeployConfig {
	readonly discordToken: string;
	readonly discordApplicationId: string;
	readonly discordGuildId: string | undefined;
	readonly discordApiUrl: string;
	readonly restProxySecret: string | undefined;
}

const deploySchema = environmentSchema.pick({ DISCORD_TOKEN: true, DISCORD_GUILD_ID: true, DISCORD_API_URL: true, REST_PROXY_SECRET: true }).extend({
	DISCORD_APPLICATION_ID: snowflake.or(z.undefined()).refine((v) => v !== undefined, 'the application (client) id from the Developer Portal'),
});

/** Parses the few names `deploy-commands` needs, with the same all-problems-at-once message. */
export function parseDeployConfig(env: Record<string, string | undefined>): DeployConfig {
	const result = deploySchema.safeParse(env);
	if (!result.success) throw new ConfigError(describeIssues(result.error.issues, env));
	return Object.freeze({
		discordToken: result.data.DISCORD_TOKEN,
		discordApplicationId: result.data.DISCORD_APPLICATION_ID,
		discordGuildId: result.data.DISCORD_GUILD_ID,
		discordApiUrl: result.data.DISCORD_API_URL.replace(/\/+$/, ''),
		restProxySecret: result.data.REST_PROXY_SECRET,
	});
}

/** A listening address no other machine reaches. */
function isLoopbackHost(host: string): boolean {
	return host === '::1' || isLoopback(host);
}

/** 127.0.0.0/8, ::1 and localhost, as `URL` spells them (it writes every IPv4 form as four decimals). */
function isLoopback(hostname: string): boolean {
	return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** What `npm run rest-proxy` needs: where Discord's REST is, the token it sends there, where it listens, its secret. */
interface RestProxyConfig {
	readonly discordToken: string;
	readonly discordApiUrl: string;
	readonly restProxyPort: number;
	readonly restProxyHost: string;
	/** Every request must carry it; required off loopback. */
	readonly restProxySecret: string | undefined;
	readonly logLevel: string;
}

const restProxySchema = environmentSchema
	.pick({ DISCORD_TOKEN: true, DISCORD_API_URL: true, LOG_LEVEL: true, REST_PROXY_SECRET: true })
	.extend({ REST_PROXY_PORT: withDefault(port, 8080), REST_PROXY_HOST: withDefault(listenHost, '127.0.0.1') })
	// Off loopback anyone who reaches the port could send as the deployment, spending its rate limits.
	.refine((e) => e.REST_PROXY_SECRET !== undefined || isLoopbackHost(e.REST_PROXY_HOST), {
		path: ['REST_PROXY_SECRET'],
		message: 'a shared secret whenever REST_PROXY_HOST is not a loopback address (127.0.0.1, ::1, localhost)',
	});

/** Parses the few names the REST proxy needs, with the same all-problems-at-once message. */
export function parseRestProxyConfig(env: Record<string, string | undefined>): RestProxyConfig {
	const result = restProxySchema.safeParse(env);
	if (!result.success) throw new ConfigError(describeIssues(result.error.issues, env));
	return Object.freeze({
		discordToken: result.data.DISCORD_TOKEN,
		discordApiUrl: result.data.DISCORD_API_URL.replace(/\/+$/, ''),
		restProxyPort: result.data.REST_PROXY_PORT,
		restProxyHost: result.data.REST_PROXY_HOST,
		restProxySecret: result.data.REST_PROXY_SECRET,
		logLevel: result.data.LOG_LEVEL,
	});
}

function describeIssues(issues: readonly z.core.$ZodIssue[], env: Record<string, string | undefined>): string[] {
	const problems = issues.map((issue) => {
		const name = String(issue.path[0] ?? 'environment');
		const missing = env[name] === undefined || env[name]?.trim() === '';
		return `${name}: ${missing ? 'missing' : 'invalid'}; expected ${issue.message}`;
	});
	return [...new Set(problems)];
}
