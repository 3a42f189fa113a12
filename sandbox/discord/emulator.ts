import { EventEmitter } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
	PermissionFlagsBits,
	type APIApplicationCommandInteractionDataOption,
	type APIAttachment,
	type APIEmbed,
	type APIGuildMember,
	type APIOverwrite,
	type APIRole,
	type APIUser,
} from 'discord.js';
import { Gateway, type IdentifyRecord } from './gateway.js';
import {
	DiscordState,
	Signal,
	type ChannelModel,
	type EmulatorMessage,
	type GuildModel,
	type InteractionRecord,
	type InteractionState,
	type RecordedRequest,
	type StoredCommand,
} from './model.js';
import { modalSubmission } from './components.js';
import { makeBotToken, makeInteractionToken, snowflake } from './ids.js';
import { CHANNEL_DEFAULT_PARSE } from './mentions.js';
import { resolveOptions } from './interactionData.js';
import { DEFAULT_BOT_PERMISSIONS, DM_APP_PERMISSIONS, botChannelPermissions, memberPermissionsIn } from './permissions.js';
import { PLAIN_USER_FIELDS, memberPayload } from './users.js';
import { channelPayload, guildCreatePayload, rolePayload } from './wire.js';
import { RestApi, type RestFailure } from './rest.js';
import { Cdn, CDN_PATH, type CdnFileOptions } from './cdn.js';
import type { ApiViolation } from './apiSpec.js';
import { specOperations } from './apiSpecSchemas.js';
import { botManagesGuild, type AutomodRuleModel, type AutomodRuleOptions } from './automod.js';

export type {
	CallbackRecord,
	ChannelModel,
	EmulatorMessage,
	GuildModel,
	InteractionCallbackData,
	InteractionState,
	MessageFile,
	RecordedRequest,
	StoredCommand,
	UploadedFile,
} from './model.js';
export type { IdentifyRecord } from './gateway.js';
export type { CdnFileOptions } from './cdn.js';
export type { ApiViolation } from './apiSpec.js';
export type { RestFailure } from './rest.js';
export { routeRateLimit } from './rest.js';
export { snowflake } from './ids.js';
export type { AutomodRuleModel, AutomodRuleOptions } from './automod.js';
export { DEFAULT_BOT_PERMISSIONS, PLAIN_MEMBER_PERMISSIONS } from './permissions.js';
export { makeUser } from './users.js';

export interface DiscordEmulatorOptions {
	/** The bot token REST and IDENTIFY accept; a realistic random one by default. */
	token?: string;
	/** HELLO's heartbeat_interval. Default 41250. */
	heartbeatIntervalMs?: number;
	/** How long after dispatch the first callback is accepted (Discord: 3 s, then 10062). Default 3000. */
	interactionDeadlineMs?: number;
	/** How long an interaction token serves edits and follow-ups (Discord: 15 min). */
	tokenLifetimeMs?: number;
	/** Added before every REST answer, to model network latency. Default 0. */
	restDelayMs?: number;
	/** Bound of every wait when none is given. Default 5000. */
	defaultTimeoutMs?: number;
	botUsername?: string;
	/** The port on 127.0.0.1 to listen on. Default 0: a free one. */
	port?: number;
	/** The default guild's shape. Default: 'Veil Test Guild' with one channel, #general. */
	defaultGuild?: GuildOptions;
}

export interface OverwriteOptions {
	id: string;
	/** 0 role, 1 member. */
	type: 0 | 1;
	allow: string | bigint;
	deny: string | bigint;
}

export interface ChannelOptions {
	id?: string;
	name: string;
	type?: 0;
	permissionOverwrites?: OverwriteOptions[];
}

export interface GuildOptions {
	id?: string;
	name?: string;
	/** Default: one text channel, #general. */
	channels?: ChannelOptions[];
	/** The bot role's permissions. Default {@link DEFAULT_BOT_PERMISSIONS}. */
	botPermissions?: bigint;
	/**
	 * The @everyone role's permissions. Default 0, so `botPermissions` alone decides what the bot may do; in a
	 * server `withoutBot`, Use External Apps, as Discord's default role has it (0 turns external apps off there).
	 */
	everyonePermissions?: bigint;
	/**
	 * A server the app is not in, reached only through members' own installs: no GUILD_CREATE, its guild and channel
	 * routes answer 403 Missing Access (50001), and only the interaction's own webhook answers there.
	 */
	withoutBot?: boolean;
	/** The server's `preferred_locale` (a Community server's chosen language), sent as each interaction's `guild_locale`. Default en-US. */
	preferredLocale?: string;
}

export interface InteractionOptions {
	/** Default: `emulator.defaultUser`. */
	user?: APIUser;
	/** A guild id, or null for the bot's DM with the user. Default: the channel's guild, else the default guild. */
	guildId?: string | null;
	/** Default: the guild's first text channel (the default channel for the default guild). */
	channelId?: string;
	/**
	 * The member's server-wide permissions: the emulator gives them a role of their own carrying exactly these bits
	 * (kept for later interactions), so the guild's roles over REST agree. `member.permissions` (what
	 * `interaction.memberPermissions` reads) is then computed for the channel, overwrites included, as Discord
	 * does. Default: what the member already holds; a member new to the guild holds
	 * {@link PLAIN_MEMBER_PERMISSIONS} (no ManageMessages).
	 */
	memberPermissions?: bigint;
	locale?: string;
	/**
	 * Which installs of the app authorize the interaction (`authorizing_integration_owners`): `guild` (the server's,
	 * or `"0"` in the bot's DM) and `user` (the member's own). Default: the server's where the bot is, the member's in
	 * a server without the bot and in a group DM, and the bot DM as the server install's.
	 */
	installs?: readonly ('guild' | 'user')[];
}

export interface SlashCommandOptions extends InteractionOptions {
	name: string;
	/** Raw Discord options, e.g. `[{ type: 3, name: 'prompt', value: 'hi' }]`; USER, CHANNEL, ROLE get `resolved`. */
	options?: APIApplicationCommandInteractionDataOption[];
}

export interface MessageCommandOptions extends InteractionOptions {
	/** The message command's name, e.g. `Ask Veil`. */
	name: string;
	/** The message it is picked on (see {@link DiscordEmulator.postAsMember}); the interaction comes from its channel. */
	target: EmulatorMessage;
}

export interface MemberMessageOptions {
	/** Default: `emulator.defaultUser`. */
	user?: APIUser;
	/** Default: the default channel. */
	channelId?: string;
	content: string;
	embeds?: APIEmbed[];
	/** Files the member attached, from {@link DiscordEmulator.attach}. */
	attachments?: APIAttachment[];
	/** Forwards this message instead: empty content, `message_reference.type` 1 and its `message_snapshots`. */
	forwardOf?: EmulatorMessage;
	/** Replies to this message (type 19 with a `message_reference`), pinging its author unless `pingOnReply` is false. */
	replyTo?: EmulatorMessage;
	pingOnReply?: boolean;
}

export interface ButtonOptions extends InteractionOptions {
	customId: string;
	/** Default: the latest message in the channel carrying this custom_id, else a stub bot message with the button. */
	message?: EmulatorMessage;
	/** 2 button (default); a select menu type together with `values`. */
	componentType?: number;
	values?: string[];
}

export interface ModalSubmitOptions extends InteractionOptions {
	customId: string;
	/** Text input custom_id → value. */
	fields: Record<string, string>;
	/** File upload custom_id → the files uploaded there (from {@link DiscordEmulator.attach}), in `data.resolved.attachments`. */
	files?: Record<string, APIAttachment[]>;
	/** Default: the message of the component that opened the modal, if it was a component. */
	message?: EmulatorMessage;
}

/** One dispatched interaction and what the bot did with it. */
export interface InteractionHandle {
	readonly id: string;
	readonly token: string;
	/** The INTERACTION_CREATE payload as sent. */
	readonly payload: Record<string, unknown>;
	state(): InteractionState;
	/** Resolves with the first state that satisfies `predicate`; rejects after the timeout, describing what was recorded. */
	waitFor(predicate: (state: InteractionState) => boolean, timeoutMs?: number): Promise<InteractionState>;
	/**
	 * Resolves once the interaction has a final visible answer: a type 4/7/9 callback (or 8 for autocomplete),
	 * or a type 5/6 deferral followed by an edit of @original or a follow-up.
	 */
	waitForAnswer(timeoutMs?: number): Promise<InteractionState>;
}

/** True once the interaction has a final visible answer (see {@link InteractionHandle.waitForAnswer}). */
export function isAnswered(state: InteractionState): boolean {
	const first = state.callbacks[0];
	if (!first) return false;
	if (first.type === 5 || first.type === 6) return state.originalEdits > 0 || state.followUps.length > 0;
	return true;
}

const DEFAULT_USER: APIUser = { id: snowflake(), username: 'member', global_name: 'Member', discriminator: '0', avatar: null, ...PLAIN_USER_FIELDS };

/**
 * A local Discord: REST under /api/v10 and the gateway WebSocket on one 127.0.0.1 port, for the real
 * discord.js client. Create with {@link DiscordEmulator.start}; point the client at it with
 * `new Client({ intents, rest: { api: emulator.apiUrl } })` and `client.login(emulator.token)`.
 */
export class DiscordEmulator {
	/** The emulators this process started, for a test runner's check after each test, which forgets the stopped ones. */
	static readonly started = new Set<DiscordEmulator>();
	readonly token: string;
	readonly bot: APIUser;
	readonly applicationId: string;
	readonly defaultUser: APIUser = DEFAULT_USER;
	/** Every REST request, in arrival order, with what was answered. */
	readonly requests: RecordedRequest[];
	/** 'request' (RecordedRequest) after each answer; 'dispatch' (t, d) for each gateway dispatch the emulator makes. */
	readonly events = new EventEmitter();
	readonly defaultGuild: GuildModel;
	readonly defaultChannelId: string;
	readonly #state: DiscordState;
	readonly #rest: RestApi;
	readonly #gateway: Gateway;
	/** The CDN stand-in: what members attach, served as Discord's CDN serves it; `cdn.requests` lists every fetch. */
	readonly cdn: Cdn;
	readonly #server: Server;
	readonly #timeoutMs: number;
	#port = 0;
	#stopped = false;

	private constructor(options: DiscordEmulatorOptions) {
		this.bot = {
			id: snowflake(),
			username: options.botUsername ?? 'Veil',
			global_name: null,
			discriminator: '0',
			avatar: null,
			bot: true,
			...PLAIN_USER_FIELDS,
		};
		// Discord bots' application id equals the bot user's id.
		this.applicationId = this.bot.id;
		this.token = options.token ?? makeBotToken(this.bot.id);
		const owner: APIUser = { id: snowflake(), username: 'owner', global_name: 'Owner', discriminator: '0', avatar: null, ...PLAIN_USER_FIELDS };
		this.#state = new DiscordState(this.bot, owner, this.applicationId, this.token);
		this.#state.users.set(DEFAULT_USER.id, DEFAULT_USER);
		this.requests = this.#state.requests;
		this.#timeoutMs = options.defaultTimeoutMs ?? 5000;
		this.events.setMaxListeners(0);
		this.#rest = new RestApi(
			this.#state,
			{
				restDelayMs: options.restDelayMs ?? 0,
				interactionDeadlineMs: options.interactionDeadlineMs ?? 3000,
				tokenLifetimeMs: options.tokenLifetimeMs ?? 15 * 60_000,
			},
			(request) => {
				this.#state.changed.notify();
				this.events.emit('request', request);
			},
		);
		this.#gateway = new Gateway(this.#state, options.heartbeatIntervalMs ?? 41_250);
		this.#rest.onThreadCreated = (thread) => this.#dispatchAll('THREAD_CREATE', { ...channelPayload(thread), newly_created: true });
		this.#state.onDispatch = (t, d) => this.#dispatchAll(t, d);
		this.cdn = new Cdn(this.#state);
		// Whatever a request holds, it is answered and never ends the process: any web page can send one to 127.0.0.1.
		const failed = (res: ServerResponse) => {
			if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
			res.end('Bad Request');
		};
		this.#server = createServer((req, res) => {
			try {
				if (!this.cdn.handle(req, res)) this.#rest.handle(req, res).catch(() => failed(res));
			} catch {
				failed(res);
			}
		});
		this.#server.on('upgrade', (req, socket, head) => this.#gateway.handleUpgrade(req, socket, head));
		this.defaultGuild = this.addGuild(options.defaultGuild ?? { name: 'Veil Test Guild' });
		this.defaultChannelId = (this.defaultGuild.channels[0] as ChannelModel).id;
	}

	/** Starts an emulator on a random free port of 127.0.0.1. */
	static async start(options: DiscordEmulatorOptions = {}): Promise<DiscordEmulator> {
		// Read Discord's published API now, not during the bot's first request.
		specOperations();
		const emulator = new DiscordEmulator(options);
		await new Promise<void>((resolve, reject) => {
			emulator.#server.once('error', reject);
			emulator.#server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
		});
		emulator.#port = (emulator.#server.address() as AddressInfo).port;
		emulator.#state.baseUrl = `http://127.0.0.1:${emulator.#port}`;
		DiscordEmulator.started.add(emulator);
		return emulator;
	}

	get port(): number {
		return this.#port;
	}

	/** For `rest: { api }`: discord.js appends `/v10`. */
	get apiUrl(): string {
		return `${this.#state.baseUrl}/api`;
	}

	/** The base of the CDN stand-in, for `DISCORD_CDN_URL`. */
	get cdnUrl(): string {
		return `${this.#state.baseUrl}${CDN_PATH}`;
	}

	/**
	 * A file as a member attaches it: served by the CDN stand-in; the attachment object goes in an ATTACHMENT
	 * option (its id as the value), a modal's file upload, or a member's message.
	 */
	attach(options: CdnFileOptions): APIAttachment {
		return this.cdn.add(options);
	}

	get gatewayUrl(): string {
		return this.#state.baseUrl.replace(/^http/, 'ws');
	}

	get identifyCount(): number {
		return this.#gateway.identifyCount;
	}

	get resumeCount(): number {
		return this.#gateway.resumeCount;
	}

	/** What each IDENTIFY carried (intents, shard, properties). */
	get identifies(): readonly IdentifyRecord[] {
		return this.#gateway.identifies;
	}

	/** Close codes clients sent, in order. */
	get clientCloseCodes(): readonly number[] {
		return this.#gateway.clientCloses;
	}

	/**
	 * What Discord's published API refused since the emulator started (see apiSpec.ts): a request of the bot (also
	 * answered 400 or 404) or a payload of the emulator. The test harness fails a test that leaves any.
	 */
	get apiViolations(): readonly ApiViolation[] {
		return this.#state.apiViolations;
	}

	/** Fields the bot sent (or the emulator dispatched) that the published API does not define: listed, not refused. */
	get undefinedApiFields(): ReadonlySet<string> {
		return this.#state.undefinedApiFields;
	}

	get stopped(): boolean {
		return this.#stopped;
	}

	/** Removes and returns the violations so far: for a test that provokes one on purpose. */
	takeApiViolations(): ApiViolation[] {
		return this.#state.apiViolations.splice(0);
	}

	/** Closes every socket and the server. */
	async stop(): Promise<void> {
		this.#stopped = true;
		this.#gateway.close();
		this.#server.closeAllConnections();
		await new Promise<void>((resolve) => this.#server.close(() => resolve()));
	}

	/** Forgets the interactions so far, their messages and the recorded requests (see DiscordState.forgetInteractions). */
	forgetInteractions(): void {
		this.#state.forgetInteractions();
	}

	// ---- model ----

	/** Adds a guild (dispatching GUILD_CREATE to connected sessions) and returns its model with all ids. */
	addGuild(options: GuildOptions = {}): GuildModel {
		const id = options.id ?? snowflake();
		const botRoleId = snowflake();
		const botMember = memberPayload(this.bot, [botRoleId]);
		const everyone = options.everyonePermissions ?? (options.withoutBot ? PermissionFlagsBits.UseExternalApps : 0n);
		const guild: GuildModel = {
			id,
			name: options.name ?? 'Test Guild',
			owner_id: this.#state.owner.id,
			roles: [
				rolePayload(id, '@everyone', 0, everyone),
				rolePayload(botRoleId, this.bot.username, 1, options.botPermissions ?? DEFAULT_BOT_PERMISSIONS, this.bot.id),
			],
			botRoleId,
			channels: (options.channels ?? [{ name: 'general' }]).map((c, position) => ({
				id: c.id ?? snowflake(),
				type: c.type ?? 0,
				name: c.name,
				guild_id: id,
				position,
				permission_overwrites: (c.permissionOverwrites ?? []).map(toOverwrite),
				topic: null,
				nsfw: false,
				deleted: false,
			})),
			members: options.withoutBot ? [] : [botMember],
			joined_at: botMember.joined_at ?? new Date().toISOString(),
		};
		if (options.withoutBot) guild.withoutBot = true;
		if (options.preferredLocale) guild.preferred_locale = options.preferredLocale;
		this.#state.addGuild(guild);
		if (!options.withoutBot) this.#dispatchAll('GUILD_CREATE', guildCreatePayload(guild));
		return guild;
	}

	/** Adds a group DM of these users (the bot is never a member): commands reach it through a member's own install. */
	addGroupDm(users: readonly APIUser[], name = ''): ChannelModel {
		for (const user of users) if (!this.#state.users.has(user.id)) this.#state.users.set(user.id, user);
		const channel: ChannelModel = {
			id: snowflake(),
			type: 3,
			name,
			guild_id: null,
			position: 0,
			permission_overwrites: [],
			topic: null,
			nsfw: false,
			deleted: false,
			recipients: [...users],
		};
		this.#state.channels.set(channel.id, channel);
		return channel;
	}

	/** Replaces a channel's permission overwrites and dispatches CHANNEL_UPDATE. */
	setChannelOverwrites(channelId: string, overwrites: OverwriteOptions[]): void {
		const channel = this.#channelOrThrow(channelId);
		channel.permission_overwrites = overwrites.map(toOverwrite);
		this.#dispatchAll('CHANNEL_UPDATE', channelPayload(channel));
	}

	/** Changes the bot role's permissions in a guild and dispatches GUILD_ROLE_UPDATE. */
	setBotPermissions(guildId: string, permissions: bigint): void {
		const guild = this.#state.guilds.get(guildId);
		const role = guild?.roles.find((r) => r.id === guild.botRoleId);
		if (!guild || !role) throw new Error(`Unknown guild ${guildId}`);
		role.permissions = permissions.toString();
		this.#dispatchAll('GUILD_ROLE_UPDATE', { guild_id: guildId, role });
	}

	/** Adds a role with these permissions to a guild (GUILD_ROLE_CREATE); give it to members with setMemberRoles. */
	addRole(guildId: string, options: { name: string; permissions: bigint }): APIRole {
		return this.#state.addRole(guildId, options.name, options.permissions);
	}

	/**
	 * Replaces a member's roles. A member otherwise holds one role of their own, carrying a plain member's
	 * permissions or what an interaction's `memberPermissions` last gave them; this drops it unless listed.
	 */
	setMemberRoles(guildId: string, user: APIUser, roleIds: readonly string[]): void {
		this.#state.users.set(user.id, user);
		this.#state.setMemberRoles(guildId, user, roleIds);
	}

	/**
	 * Creates an AutoMod rule (a blocking keyword rule on message sends unless `options` say otherwise) and, where the
	 * bot has Manage Server, dispatches AUTO_MODERATION_RULE_CREATE to sessions with the Auto Moderation
	 * Configuration intent.
	 */
	createAutomodRule(guildId: string, options: AutomodRuleOptions = {}): AutomodRuleModel {
		const rule = this.#state.automod.create(this.#guildOrThrow(guildId), options);
		this.#dispatchAutomod(guildId, 'AUTO_MODERATION_RULE_CREATE', rule);
		return rule;
	}

	/** Changes an AutoMod rule (AUTO_MODERATION_RULE_UPDATE, as createAutomodRule dispatches). */
	updateAutomodRule(guildId: string, ruleId: string, changes: AutomodRuleOptions): AutomodRuleModel {
		const rule = this.#state.automod.update(guildId, ruleId, changes);
		this.#dispatchAutomod(guildId, 'AUTO_MODERATION_RULE_UPDATE', rule);
		return rule;
	}

	/** Deletes an AutoMod rule (AUTO_MODERATION_RULE_DELETE, as createAutomodRule dispatches). */
	deleteAutomodRule(guildId: string, ruleId: string): void {
		const rule = this.#state.automod.delete(guildId, ruleId);
		this.#dispatchAutomod(guildId, 'AUTO_MODERATION_RULE_DELETE', rule);
	}

	#dispatchAutomod(guildId: string, t: string, rule: AutomodRuleModel): void {
		if (botManagesGuild(this.#guildOrThrow(guildId), this.bot.id)) this.#dispatchAll(t, structuredClone(rule));
	}

	#guildOrThrow(guildId: string): GuildModel {
		const guild = this.#state.guilds.get(guildId);
		if (!guild) throw new Error(`Unknown guild ${guildId}`);
		return guild;
	}

	/** Makes the guild's owner (who has every permission everywhere) this user. */
	setOwner(guildId: string, user: APIUser): void {
		const guild = this.#state.guilds.get(guildId);
		if (!guild) throw new Error(`Unknown guild ${guildId}`);
		this.#state.users.set(user.id, user);
		this.#state.ensureMember(guildId, user);
		guild.owner_id = user.id;
	}

	/** Closes (or reopens) a user's DMs to the bot: a message to them then answers 403 50007, as on Discord. */
	setDirectMessagesOpen(userId: string, open: boolean): void {
		if (open) this.#state.closedDms.delete(userId);
		else this.#state.closedDms.add(userId);
	}

	/** What the bot sent a user in their DM channel, in order. */
	directMessages(userId: string): EmulatorMessage[] {
		const channel = this.#state.dmByUser.get(userId);
		return channel ? this.channelMessages(channel.id) : [];
	}

	/** The id of the bot's DM channel with this user (made on first use, as Discord does). */
	dmChannelId(user: APIUser): string {
		if (!this.#state.users.has(user.id)) this.#state.users.set(user.id, user);
		return this.#state.dmChannel(user).id;
	}

	/** A stored message by id, whatever made it (deleted ones included, marked `deleted`). */
	message(messageId: string): EmulatorMessage | undefined {
		return this.#state.messages.get(messageId);
	}

	/** Deletes a channel: CHANNEL_DELETE, and later REST calls to it answer 404 Unknown Channel. */
	deleteChannel(channelId: string): void {
		const channel = this.#channelOrThrow(channelId);
		channel.deleted = true;
		this.#dispatchAll('CHANNEL_DELETE', channelPayload(channel));
	}

	/**
	 * A public thread (type 11) a member starts in a server's text channel, as Discord's client does: THREAD_CREATE
	 * with `newly_created`, the member its owner.
	 */
	startThread(channelId: string, name: string, owner: APIUser = DEFAULT_USER): ChannelModel {
		const parent = this.#channelOrThrow(channelId);
		if (parent.type !== 0 || !parent.guild_id) throw new Error(`Channel ${channelId} is not a server's text channel`);
		const thread: ChannelModel = {
			id: snowflake(),
			type: 11,
			name,
			guild_id: parent.guild_id,
			position: 0,
			permission_overwrites: [],
			topic: null,
			nsfw: false,
			deleted: false,
			parent_id: parent.id,
			owner_id: owner.id,
			thread_metadata: { archived: false, locked: false, auto_archive_duration: 4320, archive_timestamp: new Date().toISOString() },
		};
		this.#state.channels.set(thread.id, thread);
		this.#dispatchAll('THREAD_CREATE', { ...channelPayload(thread), newly_created: true });
		this.#state.changed.notify();
		return thread;
	}

	/** A thread, by its id (one the bot started from a message has the message's). */
	thread(threadId: string): ChannelModel | undefined {
		const channel = this.#state.channels.get(threadId);
		return channel?.type === 11 ? channel : undefined;
	}

	/** Every thread, the bot's and members', oldest first. */
	threads(): ChannelModel[] {
		return [...this.#state.channels.values()].filter((channel) => channel.type === 11 && !channel.deleted);
	}

	/** Archives a thread, as Discord does after its inactivity: THREAD_UPDATE with `archived`. */
	archiveThread(threadId: string): void {
		const thread = this.#channelOrThrow(threadId);
		if (!thread.thread_metadata) throw new Error(`Channel ${threadId} is not a thread`);
		thread.thread_metadata = { ...thread.thread_metadata, archived: true, archive_timestamp: new Date().toISOString() };
		this.#dispatchAll('THREAD_UPDATE', channelPayload(thread));
	}

	/** Makes REST calls on this channel fail: 403 50001 Missing Access or 404 10003 Unknown Channel. */
	failChannel(channelId: string, kind: 'missing-access' | 'unknown-channel'): void {
		this.#state.channelFailures.set(channelId, kind);
	}

	clearChannelFailure(channelId: string): void {
		this.#state.channelFailures.delete(channelId);
	}

	/** Answers the next `times` (default 1) matching requests with this status, body and headers. */
	injectRestFailure(failure: RestFailure): void {
		this.#rest.failures.push({ ...failure, remaining: failure.times ?? 1 });
	}

	/**
	 * Messages in a channel, in order. By default only those posted with POST /channels/:id/messages;
	 * `{ all: true }` adds interaction responses, follow-ups and button stubs.
	 */
	channelMessages(channelId: string, options: { all?: boolean } = {}): EmulatorMessage[] {
		return [...((options.all ? this.#state.byChannel : this.#state.posted).get(channelId) ?? [])];
	}

	/** Commands registered globally, or for `guildId`. */
	registeredCommands(options: { guildId?: string } = {}): StoredCommand[] {
		return [...(options.guildId ? (this.#state.guildCommands.get(options.guildId) ?? []) : this.#state.globalCommands)];
	}

	// ---- gateway controls ----

	/** op 7 RECONNECT to every session: the client closes and resumes at resume_gateway_url. */
	sendReconnect(): void {
		this.#gateway.sendReconnect();
	}

	/** op 9 INVALID_SESSION; with `false` the session is gone and the client must IDENTIFY again. */
	sendInvalidSession(resumable: boolean): void {
		this.#gateway.sendInvalidSession(resumable);
	}

	/** Closes every gateway socket with `code` (e.g. 4000: the client resumes); no code drops them abruptly. */
	closeAllSockets(code?: number): void {
		this.#gateway.closeAllSockets(code);
	}

	/** Shard ids whose session is READY on an open socket, ascending. */
	readyShards(): number[] {
		return this.#gateway.readyShards();
	}

	/** Closes one shard's socket with `code` (default 4000: the client resumes). */
	closeShardSocket(shard: number, code?: number): void {
		this.#gateway.closeShardSocket(shard, code);
	}

	/** Leaves the shard's IDENTIFY and RESUME unanswered until {@link releaseShard}: with closeShardSocket, it stays down. */
	holdShard(shard: number): void {
		this.#gateway.holdShard(shard);
	}

	releaseShard(shard: number): void {
		this.#gateway.releaseShard(shard);
	}

	/** Resolves once a session has identified (or resumed) and received READY and every GUILD_CREATE. */
	waitForReady(timeoutMs = this.#timeoutMs): Promise<void> {
		return this.waitUntil(() => this.#gateway.connected, 'a ready gateway session', timeoutMs);
	}

	/**
	 * Re-checks `check` after every request, gateway step and interaction change, and every 10 ms (for conditions
	 * on the client's side); resolves when it holds. Rejects after the timeout with `description` and what was
	 * recorded.
	 */
	async waitUntil(check: () => boolean, description: string, timeoutMs = this.#timeoutMs): Promise<void> {
		await this.#state.changed.wait(
			() => check() || undefined,
			timeoutMs,
			() => `Timed out after ${timeoutMs} ms waiting for ${description}.\n${this.describe()}`,
			10,
		);
	}

	/** Resolves with the first answered request (old or new) that matches. */
	waitForRequest(predicate: (request: RecordedRequest) => boolean, timeoutMs = this.#timeoutMs): Promise<RecordedRequest> {
		let scanned = 0;
		return this.#state.changed.wait(
			() => {
				const list = this.#state.requests;
				// Scan each request once; an unanswered one is revisited on the next change.
				for (let i = scanned; i < list.length; i++) {
					const request = list[i] as RecordedRequest;
					if (request.status === 0) return undefined;
					scanned = i + 1;
					if (predicate(request)) return request;
				}
				return undefined;
			},
			timeoutMs,
			() => `Timed out after ${timeoutMs} ms waiting for a matching request.\n${this.describe()}`,
		);
	}

	/** A summary of the gateway and the latest requests, for failure messages. */
	describe(lastRequests = 15): string {
		const g = this.#gateway;
		const lines = [
			`gateway: connected=${g.connected} identifies=${g.identifyCount} resumes=${g.resumeCount} connections=${g.connections.length} client closes=[${g.clientCloses.join(', ')}]`,
			`requests (${this.#state.requests.length}, last ${lastRequests}):`,
			...this.#state.requests.slice(-lastRequests).map(formatRequest),
		];
		return lines.join('\n');
	}

	// ---- interactions ----

	/** Dispatches a CHAT_INPUT application command. */
	slashCommand(options: SlashCommandOptions): InteractionHandle {
		const where = this.#where(options);
		const registered =
			(where.guild ? this.#state.guildCommands.get(where.guild.id)?.find((c) => c.name === options.name && c.type === 1) : undefined) ??
			this.#state.globalCommands.find((c) => c.name === options.name && c.type === 1);
		const data: Record<string, unknown> = { id: registered?.id ?? snowflake(), name: options.name, type: 1 };
		if (registered?.guild_id) data.guild_id = registered.guild_id;
		if (options.options?.length) {
			data.options = options.options;
			const resolved = resolveOptions(this.#state, options.options, {
				guild: where.guild,
				invokerId: where.user.id,
				here: where.channel,
				channel: (id) => this.#channelOrThrow(id),
				attachment: (id) => this.cdn.attachment(id),
			});
			if (resolved) data.resolved = resolved;
		}
		return this.#dispatchInteraction(2, data, options, where, undefined);
	}

	/** Posts a message as a member typed it in their client: ordinary mention parsing, no bot involved. */
	postAsMember(options: MemberMessageOptions): EmulatorMessage {
		const where = this.#where({ user: options.user, channelId: options.channelId });
		const forwarded = options.forwardOf;
		const message = this.#state.createMessage({
			channelId: where.channel.id,
			guildId: where.guild?.id ?? null,
			body: forwarded ? { content: '', embeds: [] } : { content: options.content, embeds: options.embeds ?? [] },
			files: [],
			origin: 'member',
			parse: CHANNEL_DEFAULT_PARSE,
			author: where.user,
			type: 0,
		});
		if (options.attachments) message.attachments = [...options.attachments];
		const { replyTo } = options;
		if (replyTo) {
			message.type = 19;
			message.message_reference = {
				type: 0,
				message_id: replyTo.id,
				channel_id: replyTo.channel_id,
				...(replyTo.guild_id ? { guild_id: replyTo.guild_id } : {}),
			};
			// "Ping on reply" mentions the author of the message replied to.
			if (options.pingOnReply !== false && !message.mentions.some((user) => user.id === replyTo.author.id)) {
				message.mentions = [...message.mentions, replyTo.author];
			}
		}
		if (forwarded) {
			// A forward carries no content of its own: a snapshot of the message, and a reference of type 1 (FORWARD).
			message.message_reference = {
				type: 1,
				message_id: forwarded.id,
				channel_id: forwarded.channel_id,
				...(forwarded.guild_id ? { guild_id: forwarded.guild_id } : {}),
			};
			const { content, embeds, attachments, timestamp, edited_timestamp, flags, mentions, mention_roles, type } = forwarded;
			message.message_snapshots = [
				{ message: { content, embeds, attachments, timestamp, edited_timestamp, flags, mentions, mention_roles, type, components: [] } },
			];
		}
		this.#state.addMessage(message);
		// Whether the bot receives it, and with what content, is the gateway's to decide (its intents). A forward is
		// not dispatched: Discord's published description knows no reference of type 1 in a message object, and a
		// forward never talks to Veil (it carries no content of its own).
		if (!forwarded) this.#dispatchAll('MESSAGE_CREATE', { ...this.#state.toApi(message), ...this.#authorMember(where.guild, where.user) });
		return message;
	}

	/**
	 * MESSAGE_CREATE's extra field `member` in a server (Discord's Gateway Events → Message Create): the author's
	 * partial member, their roles included, without its `user` (the message's `author` is the user).
	 */
	#authorMember(guild: GuildModel | undefined, user: APIUser): { member?: Omit<APIGuildMember, 'user'> } {
		if (!guild) return {};
		const { user: _user, ...member } = this.#state.ensureMember(guild.id, user);
		return { member: { ...member, roles: [...member.roles] } };
	}

	/** A member edits their message: MESSAGE_UPDATE with the new content. */
	editAsMember(message: EmulatorMessage, content: string): void {
		message.content = content;
		message.edited_timestamp = new Date().toISOString();
		this.#dispatchAll('MESSAGE_UPDATE', this.#state.toApi(message));
	}

	/** A member deletes their message: MESSAGE_DELETE, and REST calls to it answer 404 Unknown Message. */
	deleteAsMember(message: EmulatorMessage): void {
		message.deleted = true;
		this.#dispatchAll('MESSAGE_DELETE', {
			id: message.id,
			channel_id: message.channel_id,
			...(message.guild_id ? { guild_id: message.guild_id } : {}),
		});
	}

	/**
	 * Dispatches a message command (APPLICATION_COMMAND with `data.type` 3) picked on `target`: `target_id` and the
	 * message, content included, in `data.resolved.messages`, as Discord sends it without the Message Content intent.
	 */
	messageCommand(options: MessageCommandOptions): InteractionHandle {
		const { target } = options;
		const where = this.#where({ ...options, channelId: options.channelId ?? target.channel_id });
		const registered =
			(where.guild ? this.#state.guildCommands.get(where.guild.id)?.find((c) => c.name === options.name && c.type === 3) : undefined) ??
			this.#state.globalCommands.find((c) => c.name === options.name && c.type === 3);
		const data: Record<string, unknown> = {
			id: registered?.id ?? snowflake(),
			name: options.name,
			type: 3,
			target_id: target.id,
			resolved: { messages: { [target.id]: this.#state.toApi(target) } },
		};
		if (registered?.guild_id) data.guild_id = registered.guild_id;
		return this.#dispatchInteraction(2, data, options, where, undefined);
	}

	/** Dispatches a MESSAGE_COMPONENT interaction for a button (or, with componentType/values, a select menu). */
	button(options: ButtonOptions): InteractionHandle {
		const fromMessage = options.message && !options.channelId && options.guildId === undefined;
		const where = this.#where(
			fromMessage ? { ...options, channelId: options.message?.channel_id, guildId: options.message?.guild_id ?? null } : options,
		);
		const componentType = options.componentType ?? 2;
		const message =
			options.message ??
			this.#state.findComponentMessage(where.channel.id, options.customId) ??
			this.#stubMessage(where, options.customId, componentType);
		const data: Record<string, unknown> = { custom_id: options.customId, component_type: componentType };
		if (options.values) data.values = options.values;
		return this.#dispatchInteraction(3, data, options, where, message);
	}

	/**
	 * Dispatches a MODAL_SUBMIT. If the bot showed a modal with this custom_id, the submission mirrors its layout
	 * (Label type 18 wrapping each text input, or legacy action rows) and unknown field ids throw; otherwise each
	 * field becomes a Label around a text input, as Discord sends for current modals.
	 */
	modalSubmit(options: ModalSubmitOptions): InteractionHandle {
		const shown = this.#state.modals.get(options.customId);
		const message = options.message ?? shown?.record.sourceMessage;
		const where = this.#where(
			options.channelId || options.guildId !== undefined || !shown
				? options
				: { ...options, channelId: shown.record.channelId, guildId: shown.record.guildId },
		);
		const components = modalSubmission(options.customId, options.fields, shown?.data, options.files);
		const data: Record<string, unknown> = { custom_id: options.customId, components };
		const uploaded = Object.values(options.files ?? {}).flat();
		if (uploaded.length) data.resolved = { attachments: Object.fromEntries(uploaded.map((file) => [file.id, file])) };
		return this.#dispatchInteraction(5, data, options, where, message);
	}

	#where(options: InteractionOptions): { user: APIUser; guild: GuildModel | undefined; channel: ChannelModel } {
		const user = options.user ?? this.defaultUser;
		if (!this.#state.users.has(user.id)) this.#state.users.set(user.id, user);
		if (options.guildId === null) return { user, guild: undefined, channel: this.#state.dmChannel(user) };
		let channel: ChannelModel | undefined;
		if (options.channelId) {
			channel = this.#channelOrThrow(options.channelId);
		} else {
			const guild = this.#state.guilds.get(options.guildId ?? this.defaultGuild.id);
			if (!guild) throw new Error(`Unknown guild ${options.guildId}`);
			channel = guild.channels.find((c) => !c.deleted);
			if (!channel) throw new Error(`Guild ${guild.id} has no channel left`);
		}
		if (channel.type === 1 || channel.type === 3) return { user, guild: undefined, channel };
		if (options.guildId && channel.guild_id !== options.guildId) throw new Error(`Channel ${channel.id} is not in guild ${options.guildId}`);
		const guild = this.#state.guilds.get(channel.guild_id ?? '');
		if (guild && options.memberPermissions !== undefined) this.#state.givePermissions(guild.id, user, options.memberPermissions);
		return { user, guild, channel };
	}

	#dispatchInteraction(
		type: 2 | 3 | 5,
		data: Record<string, unknown>,
		options: InteractionOptions,
		where: { user: APIUser; guild: GuildModel | undefined; channel: ChannelModel },
		sourceMessage: EmulatorMessage | undefined,
	): InteractionHandle {
		const { user, guild, channel } = where;
		const installs = options.installs ?? (guild?.withoutBot || channel.type === 3 ? ['user'] : ['guild']);
		if (installs.includes('guild') && (guild?.withoutBot || channel.type === 3))
			throw new Error('The app is not installed where it is not a member: only a user install reaches there');
		const owners: Record<string, string> = {};
		if (installs.includes('guild')) owners['0'] = guild?.id ?? '0';
		if (installs.includes('user')) owners['1'] = user.id;
		const id = snowflake();
		const token = makeInteractionToken();
		const payload: Record<string, unknown> = {
			id,
			application_id: this.applicationId,
			type,
			data,
			token,
			version: 1,
			locale: options.locale ?? 'en-US',
			entitlements: [],
			attachment_size_limit: 10 * 1024 * 1024,
			channel_id: channel.id,
		};
		if (guild) {
			const member = this.#state.ensureMember(guild.id, user);
			const permissions = memberPermissionsIn(guild, { id: user.id, roles: member.roles }, channel).toString();
			payload.guild_id = guild.id;
			payload.guild = { id: guild.id, locale: guild.preferred_locale ?? 'en-US', features: [] };
			payload.guild_locale = guild.preferred_locale ?? 'en-US';
			payload.member = { ...member, roles: [...member.roles], user, permissions };
			payload.channel = { ...channelPayload(channel), permissions };
			// Where the bot is not a member, Discord gives the app what an external app may do there.
			payload.app_permissions = (guild.withoutBot ? DM_APP_PERMISSIONS : botChannelPermissions(guild, channel, this.bot.id)).toString();
			payload.context = 0;
		} else {
			payload.user = user;
			payload.channel = { ...channelPayload(channel), permissions: DM_APP_PERMISSIONS.toString() };
			payload.app_permissions = DM_APP_PERMISSIONS.toString();
			payload.context = channel.type === 3 ? 2 : 1;
		}
		payload.authorizing_integration_owners = owners;
		if (sourceMessage) payload.message = this.#state.toApi(sourceMessage);
		const record: InteractionRecord = {
			id,
			token,
			type,
			payload,
			channelId: channel.id,
			guildId: guild?.id ?? null,
			user,
			dispatchedAt: Date.now(),
			callbacks: [],
			originalEdits: 0,
			followUps: [],
			sourceMessage,
			trigger: type === 5 ? this.#state.modals.get(String(data.custom_id))?.record : undefined,
			signal: new Signal(),
		};
		if (!('0' in owners)) {
			// Discord's rules for an interaction only a member's own install authorized.
			record.followUpCap = 5;
			const member = payload.member as { permissions?: string } | undefined;
			if (guild && (BigInt(member?.permissions ?? '0') & PermissionFlagsBits.UseExternalApps) === 0n) record.forcedEphemeral = true;
		}
		this.#state.interactions.set(id, record);
		this.#state.interactionsByToken.set(token, record);
		try {
			this.#gateway.dispatchToGuild(guild?.id ?? null, 'INTERACTION_CREATE', payload);
		} catch (error) {
			this.#state.interactions.delete(id);
			this.#state.interactionsByToken.delete(token);
			throw error;
		}
		this.events.emit('dispatch', 'INTERACTION_CREATE', payload);
		return this.#handle(record);
	}

	#handle(record: InteractionRecord): InteractionHandle {
		const discord = this.#state;
		const waitFor = (predicate: (state: InteractionState) => boolean, timeoutMs = this.#timeoutMs, what = 'the condition') =>
			record.signal.wait(
				() => {
					const state = discord.stateOf(record);
					return predicate(state) ? state : undefined;
				},
				timeoutMs,
				() =>
					`Interaction ${record.id} (${describeInteraction(record)}): timed out after ${timeoutMs} ms waiting for ${what}.\n${this.#describeRecord(record)}`,
			);
		return {
			id: record.id,
			token: record.token,
			payload: record.payload,
			state: () => discord.stateOf(record),
			waitFor: (predicate, timeoutMs) => waitFor(predicate, timeoutMs),
			waitForAnswer: (timeoutMs) => waitFor(isAnswered, timeoutMs, 'a final answer'),
		};
	}

	#describeRecord(record: InteractionRecord): string {
		const t0 = record.dispatchedAt;
		const callbacks = record.callbacks.map((c) => `type ${c.type} at +${c.at - t0} ms ${JSON.stringify(c.data).slice(0, 200)}`);
		const original = record.original;
		const related = this.#state.requests.filter((r) => r.path.includes(record.id) || r.path.includes(record.token));
		return [
			`callbacks: ${callbacks.length ? callbacks.join('; ') : 'none'}`,
			`original: ${original ? `${original.deferred ? 'deferred ' : ''}${JSON.stringify(original.content).slice(0, 200)} flags=${original.flags}` : 'none'}; edits: ${record.originalEdits}; follow-ups: ${record.followUps.length}`,
			`requests for this interaction: ${related.length ? '' : 'none'}`,
			...related.map(formatRequest),
			this.describe(8),
		].join('\n');
	}

	#stubMessage(where: { guild: GuildModel | undefined; channel: ChannelModel }, customId: string, componentType: number): EmulatorMessage {
		const component =
			componentType === 2
				? { type: 2, style: 1, label: customId.slice(0, 80), custom_id: customId }
				: { type: componentType, custom_id: customId, options: [] };
		const message = this.#state.createMessage({
			channelId: where.channel.id,
			guildId: where.guild?.id ?? null,
			body: { content: '', components: [{ type: 1, components: [component] }] },
			files: [],
			origin: 'stub',
			parse: [],
		});
		this.#state.addMessage(message);
		return message;
	}

	#channelOrThrow(channelId: string): ChannelModel {
		const channel = this.#state.channels.get(channelId);
		if (!channel) throw new Error(`Unknown channel ${channelId}`);
		return channel;
	}

	#dispatchAll(t: string, d: unknown): void {
		this.#gateway.dispatchAll(t, d);
		this.events.emit('dispatch', t, d);
	}
}

function toOverwrite(o: OverwriteOptions): APIOverwrite {
	return { id: o.id, type: o.type, allow: o.allow.toString(), deny: o.deny.toString() };
}

function formatRequest(r: RecordedRequest): string {
	const query = r.query.toString();
	const body = r.json === undefined ? '' : ` ${JSON.stringify(r.json).slice(0, 160)}`;
	return `  ${r.method} ${r.path}${query ? `?${query}` : ''} → ${r.status || 'pending'}${r.files.length ? ` (+${r.files.length} files)` : ''}${body}`;
}

function describeInteraction(record: InteractionRecord): string {
	const data = record.payload.data as Record<string, unknown>;
	return record.type === 2 ? `/${String(data.name)}` : `${record.type === 3 ? 'component' : 'modal'} ${String(data.custom_id)}`;
}
