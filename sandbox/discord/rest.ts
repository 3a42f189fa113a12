import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { APIModalInteractionResponseCallbackData } from 'discord.js';
import type {
	ChannelModel,
	EmulatorMessage,
	GuildModel,
	InteractionCallbackData,
	InteractionRecord,
	RecordedRequest,
	DiscordState,
	StoredCommand,
	UploadedFile,
} from './model.js';
import { checkRequest } from './apiSpec.js';
import { snowflake } from './ids.js';
import { botManagesGuild } from './automod.js';
import { guestAutomodRefusal } from './guestAutomod.js';
import { CHANNEL_DEFAULT_PARSE, WEBHOOK_DEFAULT_PARSE } from './mentions.js';
import { botChannelPermissions } from './permissions.js';
import { FormErrors, validateCommand, validateMessage, validateModal } from './validation.js';
import { channelPayload, guildPayload } from './wire.js';
import { MAX_CONCURRENCY, RECOMMENDED_SHARDS } from './shards.js';

/** A one-off fault: the next `times` (default 1) matching requests get this answer instead of the real one. */
export interface RestFailure {
	method?: string;
	/** Matched against the decoded path without `/api/v10`, e.g. `/callback` or `/channels/123/messages`. */
	pathIncludes: string;
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
	times?: number;
}

/** A 429 of a per-route limit (scope `user`) on the next matching request, to be retried after `seconds`. */
export function routeRateLimit(method: string, pathIncludes: string, seconds: number): RestFailure {
	return {
		method,
		pathIncludes,
		status: 429,
		headers: { 'retry-after': String(seconds), 'x-ratelimit-scope': 'user' },
		body: { message: 'You are being rate limited.', retry_after: seconds, global: false },
	};
}

export interface RestOptions {
	restDelayMs: number;
	interactionDeadlineMs: number;
	tokenLifetimeMs: number;
}

interface Reply {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
}

interface Ctx {
	request: RecordedRequest;
	params: Record<string, string>;
	body: Record<string, unknown>;
	files: UploadedFile[];
}

interface Route {
	method: string;
	segments: string[];
	auth: boolean;
	handler: (ctx: Ctx) => Reply;
}

const PREFIX = '/api/v10';
const json = (status: number, body: unknown): Reply => ({ status, body });
const NOT_FOUND = (): Reply => json(404, { message: '404: Not Found', code: 0 });
const UNKNOWN_INTERACTION = (): Reply => json(404, { message: 'Unknown interaction', code: 10062 });
const UNKNOWN_WEBHOOK = (): Reply => json(404, { message: 'Unknown Webhook', code: 10015 });
const UNKNOWN_MESSAGE = (): Reply => json(404, { message: 'Unknown Message', code: 10008 });
const UNKNOWN_CHANNEL = (): Reply => json(404, { message: 'Unknown Channel', code: 10003 });
const MISSING_ACCESS = (): Reply => json(403, { message: 'Missing Access', code: 50001 });
const MISSING_PERMISSIONS = (): Reply => json(403, { message: 'Missing Permissions', code: 50013 });
const CANNOT_MESSAGE_USER = (): Reply => json(403, { message: 'Cannot send messages to this user', code: 50007 });
const VIEW = 1n << 10n;
const SEND = 1n << 11n;
const CREATE_PUBLIC_THREADS = 1n << 35n;
const SEND_IN_THREADS = 1n << 38n;
const ATTACH = 1n << 15n;
const READ_HISTORY = 1n << 16n;

/** Discord's REST API under /api/v10, backed by the emulator's state. Records every request it sees. */
export class RestApi {
	readonly failures: Array<RestFailure & { remaining: number }> = [];
	readonly #routes: Route[] = [];

	constructor(
		private readonly state: DiscordState,
		private readonly options: RestOptions,
		private readonly onRequest: (request: RecordedRequest) => void,
	) {
		this.#define();
	}

	async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const rawBody = Buffer.concat(chunks);
		const url = new URL(req.url ?? '/', 'http://emulator');
		const headers: Record<string, string> = {};
		for (const [name, value] of Object.entries(req.headers)) {
			if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
		}
		const rawPath = url.pathname.startsWith(PREFIX) ? url.pathname.slice(PREFIX.length) : url.pathname;
		const segments = rawPath.split('/').filter(Boolean).map(safeDecode);
		const request: RecordedRequest = {
			method: req.method ?? 'GET',
			path: `/${segments.join('/')}`,
			query: url.searchParams,
			headers,
			rawBody,
			json: undefined,
			files: [],
			status: 0,
			at: Date.now(),
		};
		this.state.requests.push(request);
		let reply: Reply;
		try {
			reply = await this.#answer(request, segments, url.pathname.startsWith(PREFIX));
		} catch (error) {
			reply = json(500, { message: `emulator error: ${(error as Error).message}`, code: 0 });
		}
		if (this.options.restDelayMs > 0) await sleep(this.options.restDelayMs);
		request.status = reply.status;
		const out = reply.body === undefined ? undefined : JSON.stringify(reply.body);
		res.writeHead(reply.status, {
			...(out === undefined ? {} : { 'content-type': 'application/json' }),
			...reply.headers,
		});
		res.end(out);
		this.onRequest(request);
	}

	async #answer(request: RecordedRequest, segments: string[], versioned: boolean): Promise<Reply> {
		const contentType = request.headers['content-type'] ?? '';
		let body: unknown;
		if (request.rawBody.length) {
			try {
				if (contentType.startsWith('multipart/form-data')) {
					const parsed = await parseMultipart(request.rawBody, contentType);
					body = parsed.body;
					request.files = parsed.files;
				} else {
					body = JSON.parse(request.rawBody.toString('utf8'));
				}
			} catch {
				return json(400, { message: 'The request body contains invalid JSON.', code: 50109 });
			}
		}
		request.json = body;
		if (versioned) {
			const refused = this.#holdToPublishedApi(request, body);
			if (refused) return refused;
		}
		const failure = this.failures.find(
			(f) => f.remaining > 0 && (!f.method || f.method.toUpperCase() === request.method) && request.path.includes(f.pathIncludes),
		);
		if (failure) {
			failure.remaining -= 1;
			return { status: failure.status, body: failure.body, headers: failure.headers };
		}
		if (!versioned) return NOT_FOUND();
		for (const route of this.#routes) {
			if (route.method !== request.method || route.segments.length !== segments.length) continue;
			const params: Record<string, string> = {};
			let matched = true;
			for (let i = 0; i < segments.length; i++) {
				const pattern = route.segments[i] as string;
				const segment = segments[i] as string;
				if (pattern.startsWith(':')) params[pattern.slice(1)] = segment;
				else if (pattern !== segment) {
					matched = false;
					break;
				}
			}
			if (!matched) continue;
			if (route.auth && request.headers.authorization !== `Bot ${this.state.token}`) {
				return json(401, { message: '401: Unauthorized', code: 0 });
			}
			const objectBody = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
			return route.handler({ request, params, body: objectBody, files: request.files });
		}
		return NOT_FOUND();
	}

	/**
	 * What Discord's published API refuses is refused here too (404 for a route it lacks, 50035 for a body or query),
	 * and recorded for the test to fail on; fields it does not define are listed.
	 */
	#holdToPublishedApi(request: RecordedRequest, body: unknown): Reply | undefined {
		const verdict = checkRequest(request.method, request.path, request.query, body);
		const where = `${request.method} ${verdict.route ?? request.path}`;
		for (const field of verdict.undefinedFields) this.state.undefinedApiFields.add(`${where} ${field}`);
		if (verdict.problems.length === 0) return undefined;
		this.state.apiViolations.push({ where, problems: verdict.problems });
		if (!verdict.route) return NOT_FOUND();
		const errors = new FormErrors();
		for (const problem of verdict.problems) errors.add(['published_api'], 'BASE_TYPE_INVALID', problem);
		return json(400, errors.body());
	}

	#on(method: string, path: string, handler: (ctx: Ctx) => Reply, auth = true): void {
		this.#routes.push({ method, segments: path.split('/').filter(Boolean), auth, handler });
	}

	#define(): void {
		const s = this.state;
		const gateway = (): Reply =>
			json(200, {
				url: s.baseUrl.replace(/^http/, 'ws'),
				shards: RECOMMENDED_SHARDS,
				session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: MAX_CONCURRENCY },
			});
		this.#on('GET', '/gateway/bot', gateway);
		this.#on('GET', '/gateway', () => json(200, { url: s.baseUrl.replace(/^http/, 'ws') }), false);
		this.#on('GET', '/users/@me', () => json(200, s.bot));
		this.#on('GET', '/users/:user', ({ params }) =>
			s.users.has(params.user ?? '') ? json(200, s.user(params.user ?? '')) : json(404, { message: 'Unknown User', code: 10013 }),
		);
		this.#on('POST', '/users/@me/channels', ({ body }) => {
			const recipient = s.users.get(String(body.recipient_id));
			if (!recipient) return json(400, { message: 'Unknown User', code: 10013 });
			return json(200, channelPayload(s.dmChannel(recipient)));
		});
		this.#on('GET', '/applications/@me', () => json(200, this.#application()));
		this.#on('GET', '/oauth2/applications/@me', () => json(200, this.#application()));

		for (const base of ['/applications/:app/commands', '/applications/:app/guilds/:guild/commands']) {
			this.#on('GET', base, (ctx) => this.#commands(ctx, (list) => json(200, list)));
			this.#on('PUT', base, (ctx) => this.#commands(ctx, (list, guildId) => this.#putCommands(ctx, list, guildId)));
			this.#on('POST', base, (ctx) => this.#commands(ctx, (list, guildId) => this.#postCommand(ctx, list, guildId)));
			this.#on('GET', `${base}/:command`, (ctx) =>
				this.#commands(ctx, (list) => {
					const found = list.find((c) => c.id === ctx.params.command);
					return found ? json(200, found) : json(404, { message: 'Unknown application command', code: 10063 });
				}),
			);
			this.#on('DELETE', `${base}/:command`, (ctx) =>
				this.#commands(ctx, (list) => {
					const index = list.findIndex((c) => c.id === ctx.params.command);
					if (index < 0) return json(404, { message: 'Unknown application command', code: 10063 });
					list.splice(index, 1);
					return { status: 204 };
				}),
			);
		}

		this.#on('POST', '/interactions/:id/:token/callback', (ctx) => this.#callback(ctx), false);
		this.#on('POST', '/webhooks/:app/:token', (ctx) => this.#followUp(ctx), false);
		this.#on('GET', '/webhooks/:app/:token/messages/:message', (ctx) => this.#webhookMessage(ctx), false);
		this.#on('PATCH', '/webhooks/:app/:token/messages/:message', (ctx) => this.#webhookMessage(ctx), false);
		this.#on('DELETE', '/webhooks/:app/:token/messages/:message', (ctx) => this.#webhookMessage(ctx), false);

		this.#on('GET', '/channels/:channel', (ctx) => this.#channel(ctx, (channel) => json(200, channelPayload(channel))));
		this.#on('POST', '/channels/:channel/typing', (ctx) => this.#channel(ctx, () => ({ status: 204 })));
		this.#on('POST', '/channels/:channel/messages', (ctx) => this.#channel(ctx, (channel) => this.#postMessage(ctx, channel.id, channel.guild_id)));
		this.#on('POST', '/channels/:channel/messages/:message/threads', (ctx) => this.#channel(ctx, (channel) => this.#startThread(ctx, channel)));
		this.#on('GET', '/channels/:channel/messages', (ctx) =>
			this.#channel(ctx, (channel) => {
				const limit = Math.min(100, Number(ctx.request.query.get('limit') ?? 50) || 50);
				const list = (s.byChannel.get(channel.id) ?? []).filter((m) => !m.deleted && (m.flags & 64) === 0);
				return json(
					200,
					list
						.slice(-limit)
						.reverse()
						.map((m) => s.toApi(m)),
				);
			}),
		);
		for (const method of ['GET', 'PATCH', 'DELETE']) {
			this.#on(method, '/channels/:channel/messages/:message', (ctx) =>
				this.#channel(ctx, (channel) => {
					const message = s.messages.get(ctx.params.message ?? '');
					if (!message || message.deleted || message.channel_id !== channel.id) return UNKNOWN_MESSAGE();
					if (method === 'GET') return json(200, s.toApi(message));
					if (message.author.id !== s.bot.id) return json(403, { message: 'Cannot edit a message authored by another user', code: 50005 });
					if (method === 'DELETE') {
						message.deleted = true;
						return { status: 204 };
					}
					const invalid = validateMessage(ctx.body, ctx.files.length, false, message.flags);
					if (invalid) return invalid;
					s.editMessage(message, ctx.body, ctx.files, CHANNEL_DEFAULT_PARSE);
					return json(200, s.toApi(message));
				}),
			);
		}

		this.#on('GET', '/guilds/:guild', (ctx) => this.#guild(ctx, (guild) => json(200, guildPayload(guild))));
		// Discord leaves out the channels the bot cannot view (its channel obfuscation), as GET /channels/:id refuses them.
		this.#on('GET', '/guilds/:guild/channels', (ctx) =>
			this.#guild(ctx, (guild) =>
				json(200, guild.channels.filter((c) => !c.deleted && (botChannelPermissions(guild, c, s.bot.id) & VIEW) !== 0n).map(channelPayload)),
			),
		);
		this.#on('GET', '/guilds/:guild/roles', (ctx) => this.#guild(ctx, (guild) => json(200, guild.roles)));
		// Discord asks for Manage Server to read them.
		this.#on('GET', '/guilds/:guild/auto-moderation/rules', (ctx) =>
			this.#guild(ctx, (guild) => (botManagesGuild(guild, s.bot.id) ? json(200, s.automod.list(guild.id)) : MISSING_PERMISSIONS())),
		);
		this.#on('GET', '/guilds/:guild/members/:user', (ctx) =>
			this.#guild(ctx, (guild) => {
				const member = s.member(guild.id, ctx.params.user ?? '');
				return member ? json(200, member) : json(404, { message: 'Unknown Member', code: 10007 });
			}),
		);
	}

	#application(): Record<string, unknown> {
		const s = this.state;
		return {
			id: s.applicationId,
			name: s.bot.username,
			icon: null,
			description: '',
			summary: '',
			type: null,
			bot_public: true,
			bot_require_code_grant: false,
			verify_key: '0'.repeat(64),
			flags: 0,
			owner: s.owner,
			team: null,
			bot: s.bot,
			redirect_uris: [],
			interactions_endpoint_url: null,
			approximate_guild_count: s.guilds.size,
			integration_types_config: { '0': {} },
		};
	}

	#channel(ctx: Ctx, next: (channel: ChannelModel) => Reply): Reply {
		const id = ctx.params.channel ?? '';
		const failure = this.state.channelFailures.get(id);
		if (failure === 'missing-access') return MISSING_ACCESS();
		if (failure === 'unknown-channel') return UNKNOWN_CHANNEL();
		const channel = this.state.channels.get(id);
		if (!channel || channel.deleted) return UNKNOWN_CHANNEL();
		// A group DM, or a server the bot is not in: the bot is not there, only a member's install answered there.
		if (channel.type === 3) return MISSING_ACCESS();
		if (channel.guild_id) {
			const guild = this.state.guilds.get(channel.guild_id);
			if (guild?.withoutBot) return MISSING_ACCESS();
			if (guild) {
				const perms = botChannelPermissions(guild, channel, this.state.bot.id);
				if ((perms & VIEW) === 0n) return MISSING_ACCESS();
				if (ctx.request.method === 'POST' && ctx.request.path.endsWith('/messages')) {
					// In a thread, Send Messages in Threads; an archived thread is unarchived by a message from one who may send.
					if ((perms & (channel.type === 11 ? SEND_IN_THREADS : SEND)) === 0n) return MISSING_PERMISSIONS();
					if (channel.thread_metadata?.archived) channel.thread_metadata.archived = false;
					if (ctx.files.length && (perms & ATTACH) === 0n) return MISSING_PERMISSIONS();
					// A reply reads the message it answers: Discord wants Read Message History for it.
					if (ctx.body.message_reference && (perms & READ_HISTORY) === 0n) return MISSING_PERMISSIONS();
				}
			}
		} else if (
			channel.recipient &&
			this.state.closedDms.has(channel.recipient.id) &&
			ctx.request.method === 'POST' &&
			ctx.request.path.endsWith('/messages')
		) {
			return CANNOT_MESSAGE_USER();
		}
		return next(channel);
	}

	#guild(ctx: Ctx, next: (guild: GuildModel) => Reply): Reply {
		const guild = this.state.guilds.get(ctx.params.guild ?? '');
		if (guild?.withoutBot) return MISSING_ACCESS();
		return guild ? next(guild) : json(404, { message: 'Unknown Guild', code: 10004 });
	}

	/**
	 * POST /channels/{id}/messages/{id}/threads: a public thread (type 11) started from a message, with the message's
	 * id, named 1–100 characters; Create Public Threads needed; one thread a message (160004).
	 */
	#startThread(ctx: Ctx, channel: ChannelModel): Reply {
		const guild = channel.guild_id ? this.state.guilds.get(channel.guild_id) : undefined;
		if (!guild || channel.type !== 0) return json(400, { message: 'Cannot execute action on this channel type', code: 50024 });
		if ((botChannelPermissions(guild, channel, this.state.bot.id) & CREATE_PUBLIC_THREADS) === 0n) return MISSING_PERMISSIONS();
		const message = this.state.messages.get(ctx.params.message ?? '');
		if (!message || message.deleted || message.channel_id !== channel.id) return json(404, { message: 'Unknown Message', code: 10008 });
		if (this.state.channels.has(message.id)) return json(400, { message: 'A thread has already been created for this message', code: 160004 });
		const name = ctx.body.name;
		if (typeof name !== 'string' || name.length < 1 || name.length > 100) {
			return json(400, {
				message: 'Invalid Form Body',
				code: 50035,
				errors: { name: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 100 in length.' }] } },
			});
		}
		const duration = typeof ctx.body.auto_archive_duration === 'number' ? ctx.body.auto_archive_duration : 4320;
		const thread: ChannelModel = {
			id: message.id,
			type: 11,
			name,
			guild_id: guild.id,
			position: 0,
			permission_overwrites: [],
			topic: null,
			nsfw: false,
			deleted: false,
			parent_id: channel.id,
			owner_id: this.state.bot.id,
			thread_metadata: { archived: false, locked: false, auto_archive_duration: duration, archive_timestamp: new Date().toISOString() },
		};
		this.state.channels.set(thread.id, thread);
		this.onThreadCreated?.(thread);
		this.state.changed.notify();
		return json(201, channelPayload(thread));
	}

	/** Set by the emulator: dispatches THREAD_CREATE. */
	onThreadCreated: ((thread: ChannelModel) => void) | undefined;

	#postMessage(ctx: Ctx, channelId: string, guildId: string | null): Reply {
		const invalid = validateMessage(ctx.body, ctx.files.length, true);
		if (invalid) return invalid;
		const message = this.state.createMessage({
			channelId,
			guildId,
			body: ctx.body,
			files: ctx.files,
			origin: 'channel',
			parse: CHANNEL_DEFAULT_PARSE,
		});
		this.state.addMessage(message);
		this.state.changed.notify();
		return json(200, this.state.toApi(message));
	}

	#commands(ctx: Ctx, next: (list: StoredCommand[], guildId: string | undefined) => Reply): Reply {
		if (ctx.params.app !== this.state.applicationId) return json(404, { message: 'Unknown Application', code: 10002 });
		const guildId = ctx.params.guild;
		if (guildId === undefined) return next(this.state.globalCommands, undefined);
		if (!this.state.guilds.has(guildId)) return json(404, { message: 'Unknown Guild', code: 10004 });
		if (this.state.guilds.get(guildId)?.withoutBot) return MISSING_ACCESS();
		let list = this.state.guildCommands.get(guildId);
		if (!list) this.state.guildCommands.set(guildId, (list = []));
		return next(list, guildId);
	}

	#toCommand(raw: Record<string, unknown>, existing: StoredCommand[], guildId: string | undefined): StoredCommand {
		const type = typeof raw.type === 'number' ? raw.type : 1;
		const name = String(raw.name);
		// Discord keeps a command's id when a bulk overwrite re-sends the same name and type.
		const previous = existing.find((c) => c.name === name && c.type === type);
		const command: StoredCommand = {
			...raw,
			id: previous?.id ?? snowflake(),
			application_id: this.state.applicationId,
			version: snowflake(),
			type,
			name,
			description: typeof raw.description === 'string' ? raw.description : '',
			default_member_permissions: raw.default_member_permissions ?? null,
			nsfw: raw.nsfw ?? false,
			integration_types: raw.integration_types ?? [0],
			contexts: raw.contexts ?? null,
		};
		if (guildId) command.guild_id = guildId;
		return command;
	}

	#putCommands(ctx: Ctx, list: StoredCommand[], guildId: string | undefined): Reply {
		const raw = ctx.request.json;
		const errors = new FormErrors();
		if (!Array.isArray(raw)) {
			errors.add(['_root'], 'BASE_TYPE_ARRAY', 'Must be an array.');
			return json(400, errors.body());
		}
		raw.forEach((command: Record<string, unknown>, i) => validateCommand(errors, [i], command));
		if (errors.count) return json(400, errors.body());
		const next = raw.map((command: Record<string, unknown>) => this.#toCommand(command, list, guildId));
		list.splice(0, list.length, ...next);
		return json(200, next);
	}

	#postCommand(ctx: Ctx, list: StoredCommand[], guildId: string | undefined): Reply {
		const errors = new FormErrors();
		validateCommand(errors, [], ctx.body);
		if (errors.count) return json(400, errors.body());
		const command = this.#toCommand(ctx.body, list, guildId);
		const index = list.findIndex((c) => c.id === command.id);
		if (index >= 0) {
			list[index] = command;
			return json(200, command);
		}
		list.push(command);
		return json(201, command);
	}

	#callback(ctx: Ctx): Reply {
		const s = this.state;
		const record = s.interactions.get(ctx.params.id ?? '');
		if (!record || record.token !== ctx.params.token) return UNKNOWN_INTERACTION();
		if (record.callbacks.length) return json(400, { message: 'Interaction has already been acknowledged.', code: 40060 });
		const now = Date.now();
		if (now - record.dispatchedAt > this.options.interactionDeadlineMs) return UNKNOWN_INTERACTION();
		const type = Number(ctx.body.type);
		let data = (ctx.body.data && typeof ctx.body.data === 'object' ? ctx.body.data : {}) as InteractionCallbackData;
		if (record.forcedEphemeral && (type === 4 || type === 5)) data = { ...data, flags: (typeof data.flags === 'number' ? data.flags : 0) | 64 };
		const isCommand = record.type === 2;
		let message: EmulatorMessage | undefined;
		switch (type) {
			case 4: {
				const invalid = validateMessage(data, ctx.files.length, true) ?? guestAutomodRefusal(s, record, data, Number(data.flags ?? 0));
				if (invalid) return invalid;
				message = s.createMessage({
					channelId: record.channelId,
					guildId: record.guildId,
					body: data,
					files: ctx.files,
					origin: 'original',
					parse: WEBHOOK_DEFAULT_PARSE,
					type: isCommand ? 20 : 0,
					interaction: record,
				});
				s.addMessage(message);
				record.original = message;
				break;
			}
			case 5: {
				const flags = (typeof data.flags === 'number' ? data.flags & 64 : 0) | 128;
				message = s.createMessage({
					channelId: record.channelId,
					guildId: record.guildId,
					body: { content: '', flags },
					files: [],
					origin: 'original',
					parse: WEBHOOK_DEFAULT_PARSE,
					type: isCommand ? 20 : 0,
					interaction: record,
				});
				message.deferred = true;
				s.addMessage(message);
				record.original = message;
				record.deferredAt = now;
				break;
			}
			case 6:
			case 7: {
				if (!record.sourceMessage) return json(400, { message: 'Interaction has no message to update', code: 50035, errors: {} });
				message = record.sourceMessage;
				if (type === 7) {
					const invalid = validateMessage(data, ctx.files.length, false, message.flags) ?? guestAutomodRefusal(s, record, data, message.flags);
					if (invalid) return invalid;
					s.editMessage(message, data, ctx.files, WEBHOOK_DEFAULT_PARSE);
				} else {
					record.deferredAt = now;
				}
				record.original = message;
				break;
			}
			case 8:
				if (record.type !== 4) return json(400, { message: 'Invalid interaction response type for this interaction', code: 50035, errors: {} });
				break;
			case 9: {
				if (record.type === 5) return json(400, { message: 'A modal cannot answer a modal submit', code: 50035, errors: {} });
				const invalid = validateModal(data);
				if (invalid) return invalid;
				const modal = data as unknown as APIModalInteractionResponseCallbackData;
				record.modal = modal;
				s.modals.set(modal.custom_id, { data: modal, record });
				break;
			}
			default: {
				const errors = new FormErrors();
				errors.add(['type'], 'BASE_TYPE_CHOICES', `Value must be one of {1, 4, 5, 6, 7, 8, 9, 10, 12}.`);
				return json(400, errors.body());
			}
		}
		record.callbacks.push({ type, data, at: now });
		s.touch(record);
		if (ctx.request.query.get('with_response') !== 'true') return { status: 204 };
		const interaction: Record<string, unknown> = { id: record.id, type: record.type };
		const resource: Record<string, unknown> = { type };
		if (message) {
			interaction.response_message_id = message.id;
			interaction.response_message_loading = message.deferred === true;
			interaction.response_message_ephemeral = (message.flags & 64) !== 0;
			resource.message = s.toApi(message);
		}
		return json(200, { interaction, resource });
	}

	#webhookRecord(ctx: Ctx): InteractionRecord | Reply {
		const record = this.state.interactionsByToken.get(ctx.params.token ?? '');
		if (!record || ctx.params.app !== this.state.applicationId) return UNKNOWN_WEBHOOK();
		if (Date.now() - record.dispatchedAt > this.options.tokenLifetimeMs) return json(401, { message: 'Invalid Webhook Token', code: 50027 });
		return record;
	}

	#followUp(ctx: Ctx): Reply {
		const s = this.state;
		const record = this.#webhookRecord(ctx);
		if ('status' in record) return record;
		if (!record.callbacks.length) return UNKNOWN_WEBHOOK();
		const original = record.original;
		const turnsOriginal = original?.deferred === true && record.callbacks[0]?.type === 5;
		const flags = (turnsOriginal ? original.flags : Number(ctx.body.flags ?? 0)) | (record.forcedEphemeral ? 64 : 0);
		const invalid =
			validateMessage(ctx.body, ctx.files.length, true, turnsOriginal ? original.flags : 0) ?? guestAutomodRefusal(s, record, ctx.body, flags);
		if (invalid) return invalid;
		let message: EmulatorMessage;
		if (turnsOriginal) {
			// Discord turns the first follow-up after a deferral into the "thinking…" message itself, keeping the
			// deferral's visibility whatever flags the follow-up asked for.
			s.editMessage(original, { ...ctx.body, flags: undefined }, ctx.files, WEBHOOK_DEFAULT_PARSE);
			message = original;
		} else {
			const created = record.followUps.filter((m) => m.origin === 'followup').length;
			if (record.followUpCap !== undefined && created >= record.followUpCap) {
				return json(400, { message: 'This interaction has hit the maximum number of follow up messages', code: 40094 });
			}
			const forced = record.forcedEphemeral ? { flags: (typeof ctx.body.flags === 'number' ? ctx.body.flags : 0) | 64 } : {};
			message = s.createMessage({
				channelId: record.channelId,
				guildId: record.guildId,
				body: { ...ctx.body, ...forced },
				files: ctx.files,
				origin: 'followup',
				parse: WEBHOOK_DEFAULT_PARSE,
				interaction: record,
			});
			s.addMessage(message);
		}
		record.followUps.push(message);
		s.touch(record);
		return ctx.request.query.get('wait') === 'true' ? json(200, s.toApi(message)) : { status: 204 };
	}

	#webhookMessage(ctx: Ctx): Reply {
		const s = this.state;
		const record = this.#webhookRecord(ctx);
		if ('status' in record) return record;
		const id = ctx.params.message;
		const target = id === '@original' || id === record.original?.id ? record.original : record.followUps.find((m) => m.id === id);
		if (!target || target.deleted) return UNKNOWN_MESSAGE();
		const method = ctx.request.method;
		if (method === 'GET') return json(200, s.toApi(target));
		if (method === 'DELETE') {
			target.deleted = true;
			s.touch(record);
			return { status: 204 };
		}
		const invalid = validateMessage(ctx.body, ctx.files.length, false, target.flags) ?? guestAutomodRefusal(s, record, ctx.body, target.flags);
		if (invalid) return invalid;
		s.editMessage(target, ctx.body, ctx.files, WEBHOOK_DEFAULT_PARSE);
		if (target === record.original) record.originalEdits += 1;
		s.touch(record);
		return json(200, s.toApi(target));
	}
}

function safeDecode(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

/** Multipart bodies as @discordjs/rest sends them: `payload_json` plus `files[n]` parts. */
async function parseMultipart(raw: Buffer, contentType: string): Promise<{ body: unknown; files: UploadedFile[] }> {
	const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
	let body: Record<string, unknown> | undefined;
	const fields: Record<string, unknown> = {};
	const files: UploadedFile[] = [];
	for (const [name, value] of form.entries()) {
		if (typeof value === 'string') {
			if (name === 'payload_json') body = JSON.parse(value) as Record<string, unknown>;
			else fields[name] = value;
		} else {
			files.push({
				field: name,
				filename: value.name,
				contentType: value.type || 'application/octet-stream',
				data: Buffer.from(await value.arrayBuffer()),
			});
		}
	}
	return { body: body ?? fields, files };
}
