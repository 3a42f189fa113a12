import type {
	APIAllowedMentions,
	APIAttachment,
	APIEmbed,
	APIGuildMember,
	APIMessageReference,
	APIMessageTopLevelComponent,
	APIModalInteractionResponseCallbackData,
	APIRole,
	APIUser,
} from 'discord.js';
import { AutomodRules } from './automod.js';
import { collectCustomIds } from './components.js';
import { snowflake } from './ids.js';
import { parseMentions } from './mentions.js';
import { PLAIN_MEMBER_PERMISSIONS } from './permissions.js';
import { memberPayload, PLAIN_USER_FIELDS } from './users.js';
import { rolePayload } from './wire.js';
import { IS_COMPONENTS_V2 } from './validation.js';
import type { ApiViolation } from './apiSpec.js';
import type { ChannelModel, GuildModel } from './guildModel.js';

export type { ChannelModel, GuildModel };

/** A file that arrived in a multipart body (`files[n]`). */
export interface UploadedFile {
	field: string;
	filename: string;
	contentType: string;
	data: Buffer;
}

/** A file attached to a stored message, tied to the attachment id the emulator gave it. */
export interface MessageFile {
	attachmentId: string;
	filename: string;
	contentType: string;
	data: Buffer;
}

/** One REST request as it arrived, and what the emulator answered. */
export interface RecordedRequest {
	method: string;
	/** Decoded, without the `/api/v10` prefix, e.g. `/interactions/123/abc/callback`. */
	path: string;
	query: URLSearchParams;
	/** Lower-cased names; repeated headers joined with `, `. */
	headers: Record<string, string>;
	rawBody: Buffer;
	/** The JSON body, or the parsed `payload_json` part of a multipart body. */
	json: unknown;
	files: UploadedFile[];
	/** 0 until answered. */
	status: number;
	at: number;
}

/** Where a stored message came from: `member` is one a member typed (see postAsMember). */
export type MessageOrigin = 'channel' | 'original' | 'followup' | 'stub' | 'member';

/**
 * A message as the emulator keeps it: the Discord message fields discord.js reads, plus what the request carried
 * (allowed_mentions, uploaded bytes) so tests can assert on both.
 */
export interface EmulatorMessage {
	id: string;
	channel_id: string;
	guild_id?: string;
	author: APIUser;
	content: string;
	timestamp: string;
	edited_timestamp: string | null;
	tts: boolean;
	mention_everyone: boolean;
	mentions: APIUser[];
	mention_roles: string[];
	attachments: APIAttachment[];
	embeds: APIEmbed[];
	components: APIMessageTopLevelComponent[];
	flags: number;
	type: number;
	pinned: boolean;
	message_reference?: APIMessageReference;
	interaction_metadata?: Record<string, unknown>;
	/** A forward's copy of the message it forwards (`message_reference.type` 1). */
	message_snapshots?: Array<{ message: Record<string, unknown> }>;
	webhook_id?: string;
	application_id?: string;
	nonce?: string | number;
	/** allowed_mentions of the request that last set it. */
	allowed_mentions?: APIAllowedMentions;
	/** The uploaded bytes behind `attachments`. */
	files: MessageFile[];
	/** True while this is a deferred "thinking…" message that no edit has replaced yet. */
	deferred?: boolean;
	deleted?: boolean;
	origin: MessageOrigin;
	interactionId?: string;
}

export interface CallbackRecord {
	type: number;
	data: InteractionCallbackData;
	at: number;
}

/** The `data` of an interaction callback; the fields tests usually read are typed, the rest pass through. */
export interface InteractionCallbackData {
	content?: string;
	flags?: number;
	embeds?: APIEmbed[];
	components?: unknown[];
	allowed_mentions?: APIAllowedMentions;
	attachments?: Array<Record<string, unknown>>;
	custom_id?: string;
	title?: string;
	[key: string]: unknown;
}

/** A snapshot of everything the bot did with one interaction. */
export interface InteractionState {
	callbacks: CallbackRecord[];
	/**
	 * The @original message as it stands now: after a type 4 reply, a type 5 deferral (content '' and
	 * `deferred: true` until the first edit) or, for components, the message a type 6/7 callback targets.
	 */
	original: EmulatorMessage | undefined;
	/** PATCHes of @original (or of its id). */
	originalEdits: number;
	/** Follow-ups in order. The first follow-up after a type 5 deferral replaces the "thinking…" message, as on
	 * Discord: it is then both `original` and `followUps[0]`. */
	followUps: EmulatorMessage[];
	/** The type 9 callback's data, if the bot showed a modal. */
	modal: APIModalInteractionResponseCallbackData | undefined;
	deferredAt?: number;
	/** flags & 64 on the original. */
	ephemeral: boolean;
	dispatchedAt: number;
}

export interface InteractionRecord {
	id: string;
	token: string;
	/** 2 application command, 3 component, 4 autocomplete, 5 modal submit. */
	type: number;
	payload: Record<string, unknown>;
	channelId: string;
	guildId: string | null;
	user: APIUser;
	dispatchedAt: number;
	callbacks: CallbackRecord[];
	original?: EmulatorMessage;
	originalEdits: number;
	followUps: EmulatorMessage[];
	modal?: APIModalInteractionResponseCallbackData;
	deferredAt?: number;
	/** The message a component (or a modal opened from one) sits on. */
	sourceMessage?: EmulatorMessage;
	/** For a modal submit: the interaction whose answer showed the modal, when the bot showed it. */
	trigger?: InteractionRecord;
	/** Discord makes every response ephemeral (a member without Use External Apps, through a user-only install). */
	forcedEphemeral?: boolean;
	/** At most this many follow-up messages (5 for an interaction only a user install authorized). */
	followUpCap?: number;
	signal: Signal;
}

export interface StoredCommand extends Record<string, unknown> {
	id: string;
	name: string;
	type: number;
	application_id: string;
	version: string;
	guild_id?: string;
}

/** Wakes waiters when something they may care about changed; each waiter re-checks its own condition. */
export class Signal {
	readonly #listeners = new Set<() => void>();

	notify(): void {
		for (const listener of this.#listeners) listener();
	}

	get waiting(): number {
		return this.#listeners.size;
	}

	/**
	 * Resolves with the first truthy `check()`, re-checked on every notify and, with `pollMs`, on a timer too:
	 * conditions on the client's side (a handler's variables) change without the emulator seeing it.
	 */
	wait<T>(check: () => T | undefined | false, timeoutMs: number, describe: () => string, pollMs?: number): Promise<T> {
		const first = check();
		if (first) return Promise.resolve(first);
		return new Promise<T>((resolve, reject) => {
			const poll = pollMs ? setInterval(() => listener(), pollMs) : undefined;
			const cleanup = () => {
				clearTimeout(timer);
				clearInterval(poll);
				this.#listeners.delete(listener);
			};
			const listener = () => {
				let value: T | undefined | false;
				try {
					value = check();
				} catch (error) {
					cleanup();
					reject(error instanceof Error ? error : new Error(String(error)));
					return;
				}
				if (value) {
					cleanup();
					resolve(value);
				}
			};
			const timer = setTimeout(() => {
				cleanup();
				reject(new Error(describe()));
			}, timeoutMs);
			this.#listeners.add(listener);
		});
	}
}

const UNKNOWN_USER = (id: string): APIUser => ({
	id,
	username: `user${id.slice(-4)}`,
	global_name: null,
	discriminator: '0',
	avatar: null,
	...PLAIN_USER_FIELDS,
});

/** The emulator's in-memory Discord: guilds, channels, messages, interactions, commands. */
export class DiscordState {
	readonly guilds = new Map<string, GuildModel>();
	readonly channels = new Map<string, ChannelModel>();
	readonly users = new Map<string, APIUser>();
	readonly dmByUser = new Map<string, ChannelModel>();
	readonly channelFailures = new Map<string, 'missing-access' | 'unknown-channel'>();
	/** Users whose DMs are closed to the bot: a message to them answers 403 50007. */
	readonly closedDms = new Set<string>();
	readonly messages = new Map<string, EmulatorMessage>();
	/** Messages posted through POST /channels/:id/messages, per channel, in order. */
	readonly posted = new Map<string, EmulatorMessage[]>();
	/** Every message the emulator knows, per channel, in order. */
	readonly byChannel = new Map<string, EmulatorMessage[]>();
	readonly interactions = new Map<string, InteractionRecord>();
	readonly interactionsByToken = new Map<string, InteractionRecord>();
	readonly globalCommands: StoredCommand[] = [];
	readonly guildCommands = new Map<string, StoredCommand[]>();
	/** Each server's AutoMod rules (GET /guilds/:id/auto-moderation/rules). */
	readonly automod = new AutomodRules();
	/** Latest modal shown per custom_id, so a submit can mirror its layout. */
	readonly modals = new Map<string, { data: APIModalInteractionResponseCallbackData; record: InteractionRecord }>();
	readonly requests: RecordedRequest[] = [];
	/** What Discord's published API refused: the bot's requests, the emulator's dispatches (see apiSpec.ts). */
	readonly apiViolations: ApiViolation[] = [];
	/** `POST /channels/{channel_id}/messages tts`: fields sent that the published API does not define, listed. */
	readonly undefinedApiFields = new Set<string>();
	/** Notified on every recorded request, gateway step and interaction change. */
	readonly changed = new Signal();
	baseUrl = '';
	/** Gateway dispatches the model makes on its own (a role created for a member); the emulator wires it. */
	onDispatch: (t: string, d: unknown) => void = () => undefined;
	readonly #componentIndex = new Map<string, EmulatorMessage>();
	readonly #members = new Map<string, Map<string, APIGuildMember>>();
	/** `guildId:userId` → the id of the role that carries that member's own permissions (see givePermissions). */
	readonly #ownRoles = new Map<string, string>();

	constructor(
		readonly bot: APIUser,
		/** The application's owner; also the default guild's owner. */
		readonly owner: APIUser,
		readonly applicationId: string,
		readonly token: string,
	) {
		this.users.set(bot.id, bot);
		this.users.set(owner.id, owner);
	}

	user(id: string): APIUser {
		return this.users.get(id) ?? UNKNOWN_USER(id);
	}

	addGuild(guild: GuildModel): void {
		this.guilds.set(guild.id, guild);
		const members = new Map<string, APIGuildMember>();
		for (const m of guild.members) if (m.user) members.set(m.user.id, m);
		this.#members.set(guild.id, members);
		for (const channel of guild.channels) this.channels.set(channel.id, channel);
	}

	member(guildId: string, userId: string): APIGuildMember | undefined {
		return this.#members.get(guildId)?.get(userId);
	}

	/**
	 * Makes a user a guild member, as Discord knows everyone who can invoke a command there. A new member holds a
	 * plain member's permissions (see givePermissions) and no moderation bits.
	 */
	ensureMember(guildId: string, user: APIUser): APIGuildMember {
		const members = this.#members.get(guildId);
		if (!members) throw new Error(`Unknown guild ${guildId}`);
		const existing = members.get(user.id);
		if (existing) return existing;
		const member = memberPayload(user, []);
		members.set(user.id, member);
		this.guilds.get(guildId)?.members.push(member);
		this.givePermissions(guildId, user, PLAIN_MEMBER_PERMISSIONS);
		return member;
	}

	/** Adds a role to a guild (GUILD_ROLE_CREATE) and returns it. */
	addRole(guildId: string, name: string, permissions: bigint): APIRole {
		const guild = this.#guildOrThrow(guildId);
		const role = rolePayload(snowflake(), name, guild.roles.length, permissions);
		guild.roles.push(role);
		this.onDispatch('GUILD_ROLE_CREATE', { guild_id: guildId, role });
		return role;
	}

	/**
	 * Gives a member a role of their own carrying exactly `permissions` (created on first use, updated after), so
	 * what an interaction says and what REST shows agree. Their other roles still add to it.
	 */
	givePermissions(guildId: string, user: APIUser, permissions: bigint): void {
		const member = this.ensureMember(guildId, user);
		const key = `${guildId}:${user.id}`;
		const guild = this.#guildOrThrow(guildId);
		let role = guild.roles.find((r) => r.id === this.#ownRoles.get(key));
		if (!role) {
			role = this.addRole(guildId, `${user.username}'s permissions`, permissions);
			this.#ownRoles.set(key, role.id);
		} else if (role.permissions !== permissions.toString()) {
			role.permissions = permissions.toString();
			this.onDispatch('GUILD_ROLE_UPDATE', { guild_id: guildId, role });
		}
		if (!member.roles.includes(role.id)) member.roles.push(role.id);
	}

	/** Replaces a member's roles (their own permissions role included: pass it again to keep it). */
	setMemberRoles(guildId: string, user: APIUser, roleIds: readonly string[]): void {
		const member = this.ensureMember(guildId, user);
		const guild = this.#guildOrThrow(guildId);
		const unknown = roleIds.filter((id) => !guild.roles.some((r) => r.id === id));
		if (unknown.length) throw new Error(`setMemberRoles: no role ${unknown.join(', ')} in guild ${guildId}`);
		member.roles = [...roleIds];
	}

	#guildOrThrow(guildId: string): GuildModel {
		const guild = this.guilds.get(guildId);
		if (!guild) throw new Error(`Unknown guild ${guildId}`);
		return guild;
	}

	dmChannel(user: APIUser): ChannelModel {
		let channel = this.dmByUser.get(user.id);
		if (!channel) {
			channel = {
				id: snowflake(),
				type: 1,
				name: '',
				guild_id: null,
				position: 0,
				permission_overwrites: [],
				topic: null,
				nsfw: false,
				deleted: false,
				recipient: user,
			};
			this.dmByUser.set(user.id, channel);
			this.channels.set(channel.id, channel);
		}
		return channel;
	}

	addMessage(message: EmulatorMessage): void {
		this.messages.set(message.id, message);
		let list = this.byChannel.get(message.channel_id);
		if (!list) this.byChannel.set(message.channel_id, (list = []));
		list.push(message);
		if (message.origin === 'channel') {
			let postedList = this.posted.get(message.channel_id);
			if (!postedList) this.posted.set(message.channel_id, (postedList = []));
			postedList.push(message);
		}
		this.indexComponents(message);
	}

	/**
	 * Forgets every interaction so far, the messages they made and the requests recorded: what a long benchmark
	 * would otherwise keep in memory (and in the garbage collector's way) from phase to phase.
	 */
	forgetInteractions(): void {
		const gone = new Set<EmulatorMessage>();
		for (const record of this.interactions.values()) {
			if (record.original) gone.add(record.original);
			for (const message of record.followUps) gone.add(message);
		}
		this.interactions.clear();
		this.interactionsByToken.clear();
		this.modals.clear();
		for (const message of gone) this.messages.delete(message.id);
		for (const channelId of new Set([...gone].map((message) => message.channel_id))) {
			for (const lists of [this.byChannel, this.posted]) {
				const list = lists.get(channelId);
				if (list)
					lists.set(
						channelId,
						list.filter((message) => !gone.has(message)),
					);
			}
		}
		for (const [key, message] of this.#componentIndex) if (gone.has(message)) this.#componentIndex.delete(key);
		this.requests.length = 0;
	}

	indexComponents(message: EmulatorMessage): void {
		for (const id of collectCustomIds(message.components)) this.#componentIndex.set(`${message.channel_id}\0${id}`, message);
	}

	/** Latest live message in the channel that carries a component with this custom_id. */
	findComponentMessage(channelId: string, customId: string): EmulatorMessage | undefined {
		const indexed = this.#componentIndex.get(`${channelId}\0${customId}`);
		const carries = (m: EmulatorMessage) => !m.deleted && collectCustomIds(m.components).includes(customId);
		if (indexed && carries(indexed)) return indexed;
		// The indexed message lost the component in an edit: fall back to a scan, newest first (rare).
		const list = this.byChannel.get(channelId) ?? [];
		for (let i = list.length - 1; i >= 0; i--) {
			const m = list[i];
			if (m && carries(m)) return m;
		}
		return undefined;
	}

	/**
	 * Builds the message object from a create request. `parse` is the default mention parsing of the route
	 * (webhooks parse users only).
	 */
	createMessage(init: {
		channelId: string;
		guildId: string | null;
		body: Record<string, unknown>;
		files: UploadedFile[];
		origin: MessageOrigin;
		parse: readonly ('users' | 'roles' | 'everyone')[];
		type?: number;
		author?: APIUser;
		interaction?: InteractionRecord;
	}): EmulatorMessage {
		const { body } = init;
		const { attachments, files } = this.buildAttachments(init.channelId, body.attachments, init.files, [], [], true);
		const content = typeof body.content === 'string' ? body.content : '';
		const allowed = body.allowed_mentions as APIAllowedMentions | undefined;
		const mentions = parseMentions(content, allowed, init.parse);
		const reference = body.message_reference as APIMessageReference | undefined;
		const message: EmulatorMessage = {
			id: snowflake(),
			channel_id: init.channelId,
			author: init.author ?? this.bot,
			content,
			timestamp: new Date().toISOString(),
			edited_timestamp: null,
			tts: body.tts === true,
			mention_everyone: mentions.everyone,
			mentions: mentions.userIds.map((id) => this.user(id)),
			mention_roles: mentions.roleIds,
			attachments,
			embeds: (body.embeds as APIEmbed[] | undefined) ?? [],
			components: (body.components as APIMessageTopLevelComponent[] | undefined) ?? [],
			flags: typeof body.flags === 'number' ? body.flags : 0,
			type: init.type ?? (reference ? 19 : 0),
			pinned: false,
			files,
			origin: init.origin,
		};
		if (init.guildId) message.guild_id = init.guildId;
		if (allowed) message.allowed_mentions = allowed;
		if (reference) message.message_reference = { ...reference, type: reference.type ?? 0, channel_id: reference.channel_id ?? init.channelId };
		if (body.nonce !== undefined) message.nonce = body.nonce as string | number;
		if (init.interaction) {
			const record = init.interaction;
			message.interactionId = record.id;
			message.webhook_id = this.applicationId;
			message.application_id = this.applicationId;
			message.interaction_metadata = {
				...interactionMetadata(record),
				...(init.origin === 'followup' && record.original ? { original_response_message_id: record.original.id } : {}),
			};
		}
		return message;
	}

	/** Applies a PATCH body: only the fields present change, like Discord's edit endpoints. */
	editMessage(
		message: EmulatorMessage,
		body: Record<string, unknown>,
		files: UploadedFile[],
		parse: readonly ('users' | 'roles' | 'everyone')[],
	): void {
		if ('content' in body) {
			message.content = typeof body.content === 'string' ? body.content : '';
			const allowed = (body.allowed_mentions as APIAllowedMentions | undefined) ?? undefined;
			const mentions = parseMentions(message.content, allowed, parse);
			message.mentions = mentions.userIds.map((id) => this.user(id));
			message.mention_roles = mentions.roleIds;
			message.mention_everyone = mentions.everyone;
		}
		if ('allowed_mentions' in body) message.allowed_mentions = (body.allowed_mentions as APIAllowedMentions | null) ?? undefined;
		if ('embeds' in body) message.embeds = (body.embeds as APIEmbed[] | null) ?? [];
		if ('components' in body) message.components = (body.components as APIMessageTopLevelComponent[] | null) ?? [];
		// The ephemeral bit is fixed at creation, as is Components V2 once set; an edit only clears a deferral's "loading" bit.
		const kept = message.flags & (64 | IS_COMPONENTS_V2);
		const requested = typeof body.flags === 'number' ? body.flags & ~(64 | 128) : message.flags & ~(64 | 128);
		message.flags = kept | requested;
		if ('attachments' in body || files.length) {
			const built = this.buildAttachments(message.channel_id, body.attachments, files, message.attachments, message.files, false);
			message.attachments = built.attachments;
			message.files = built.files;
		}
		if (message.deferred) message.deferred = false;
		else message.edited_timestamp = new Date().toISOString();
		this.indexComponents(message);
	}

	/**
	 * Resolves `attachments` entries: `{id: 'n'}` points at uploaded `files[n]`, an existing attachment id keeps
	 * that attachment. Without an `attachments` list, a create attaches every upload and an edit appends them.
	 */
	buildAttachments(
		channelId: string,
		listed: unknown,
		uploads: UploadedFile[],
		existing: APIAttachment[],
		existingFiles: MessageFile[],
		create: boolean,
	): { attachments: APIAttachment[]; files: MessageFile[] } {
		const byIndex = new Map<string, UploadedFile>();
		for (const file of uploads) {
			const index = /\[(\d+)\]$/.exec(file.field)?.[1] ?? file.field.replace(/^files?/, '');
			byIndex.set(index, file);
		}
		const attachments: APIAttachment[] = [];
		const files: MessageFile[] = [];
		const add = (file: UploadedFile, extra: Record<string, unknown>) => {
			const id = snowflake();
			const filename = typeof extra.filename === 'string' ? extra.filename : file.filename;
			const url = `${this.baseUrl}/cdn/attachments/${channelId}/${id}/${encodeURIComponent(filename)}`;
			const attachment: APIAttachment = {
				id,
				filename,
				size: file.data.length,
				url,
				proxy_url: url,
				content_type: file.contentType,
			};
			if (typeof extra.description === 'string') attachment.description = extra.description;
			if (typeof extra.title === 'string') attachment.title = extra.title;
			attachments.push(attachment);
			files.push({ attachmentId: id, filename, contentType: file.contentType, data: file.data });
		};
		if (Array.isArray(listed)) {
			for (const entry of listed as Array<Record<string, unknown>>) {
				const id = String(entry.id);
				const upload = byIndex.get(id);
				if (upload) {
					add(upload, entry);
					byIndex.delete(id);
					continue;
				}
				const kept = existing.find((a) => a.id === id);
				if (kept) {
					attachments.push(kept);
					const file = existingFiles.find((f) => f.attachmentId === id);
					if (file) files.push(file);
				}
			}
		} else if (!create) {
			attachments.push(...existing);
			files.push(...existingFiles);
		}
		// Uploads not named in `attachments` still attach, as Discord does for bare files[n] parts.
		for (const upload of byIndex.values()) add(upload, {});
		return { attachments, files };
	}

	/** The wire form of a stored message: Discord's fields only, plus the referenced message when known. */
	toApi(message: EmulatorMessage, withReference = true): Record<string, unknown> {
		const api: Record<string, unknown> = {
			id: message.id,
			channel_id: message.channel_id,
			author: message.author,
			content: message.content,
			timestamp: message.timestamp,
			edited_timestamp: message.edited_timestamp,
			tts: message.tts,
			mention_everyone: message.mention_everyone,
			mentions: message.mentions,
			mention_roles: message.mention_roles,
			attachments: message.attachments,
			embeds: message.embeds.map(embedAsSent),
			components: numberComponents(message.components, message.attachments),
			flags: message.flags,
			type: message.type,
			pinned: message.pinned,
		};
		if (message.guild_id) api.guild_id = message.guild_id;
		if (message.webhook_id) api.webhook_id = message.webhook_id;
		if (message.application_id) api.application_id = message.application_id;
		if (message.interaction_metadata) api.interaction_metadata = message.interaction_metadata;
		if (message.nonce !== undefined) api.nonce = message.nonce;
		if (message.message_snapshots) api.message_snapshots = message.message_snapshots;
		if (message.message_reference) {
			api.message_reference = message.message_reference;
			const ref = message.message_reference.message_id ? this.messages.get(message.message_reference.message_id) : undefined;
			if (withReference && ref && !ref.deleted) api.referenced_message = this.toApi(ref, false);
		}
		return api;
	}

	stateOf(record: InteractionRecord): InteractionState {
		const original = record.original ? { ...record.original } : undefined;
		return {
			callbacks: [...record.callbacks],
			original,
			originalEdits: record.originalEdits,
			followUps: [...record.followUps],
			modal: record.modal,
			deferredAt: record.deferredAt,
			ephemeral: original ? (original.flags & 64) !== 0 : false,
			dispatchedAt: record.dispatchedAt,
		};
	}

	touch(record: InteractionRecord): void {
		record.signal.notify();
		this.changed.notify();
	}
}

/** A message's `interaction_metadata` for the interaction that made it; a modal submit's names what opened the modal. */
function interactionMetadata(record: InteractionRecord): Record<string, unknown> {
	const metadata: Record<string, unknown> = {
		id: record.id,
		type: record.type,
		user: record.user,
		authorizing_integration_owners: record.payload.authorizing_integration_owners,
	};
	if (record.type === 3 && record.sourceMessage) metadata.interacted_message_id = record.sourceMessage.id;
	if (record.type === 5) {
		// A modal the test submitted without the bot showing it stands for one a slash command opened.
		metadata.triggering_interaction_metadata = record.trigger
			? interactionMetadata(record.trigger)
			: { id: snowflake(), type: 2, user: record.user, authorizing_integration_owners: record.payload.authorizing_integration_owners };
	}
	return metadata;
}

/** An embed as Discord returns it: with its type, and each field's `inline`. */
function embedAsSent(embed: APIEmbed): APIEmbed {
	return {
		type: 'rich' as APIEmbed['type'],
		...embed,
		...(embed.fields ? { fields: embed.fields.map((field) => ({ inline: false, ...field })) } : {}),
	};
}

/** Components as Discord returns them: each numbered (`id`, from 1, depth first) where the sender gave none. */
function numberComponents(
	components: readonly APIMessageTopLevelComponent[],
	attachments: readonly APIAttachment[] = [],
): APIMessageTopLevelComponent[] {
	let next = 0;
	const number = (component: unknown): unknown => {
		if (typeof component !== 'object' || component === null) return component;
		const numbered: Record<string, unknown> = { ...(component as Record<string, unknown>) };
		next += 1;
		numbered.id ??= next;
		if (Array.isArray(numbered.components)) numbered.components = numbered.components.map(number);
		if (typeof numbered.accessory === 'object' && numbered.accessory !== null) numbered.accessory = number(numbered.accessory);
		Object.assign(numbered, componentDefaults(numbered, attachments));
		return numbered;
	};
	return components.map(number) as APIMessageTopLevelComponent[];
}

/**
 * What Discord fills in a Components V2 component it sends back: a container's accent and spoiler, a separator's
 * divider and spacing, and a File component's media resolved from the message's attachment it names.
 */
function componentDefaults(component: Record<string, unknown>, attachments: readonly APIAttachment[]): Record<string, unknown> {
	switch (component.type) {
		case 17:
			return { accent_color: component.accent_color ?? null, spoiler: component.spoiler ?? false };
		case 14:
			return { divider: component.divider ?? true, spacing: component.spacing ?? 1 };
		case 13: {
			const url = String((component.file as { url?: unknown } | undefined)?.url ?? '');
			const attachment = url.startsWith('attachment://') ? attachments.find((a) => a.filename === url.slice('attachment://'.length)) : undefined;
			return {
				spoiler: component.spoiler ?? false,
				name: attachment?.filename ?? null,
				size: attachment?.size ?? null,
				file: attachment
					? {
							id: attachment.id,
							url: attachment.url,
							proxy_url: attachment.proxy_url,
							content_type: attachment.content_type ?? null,
							attachment_id: attachment.id,
						}
					: { id: '0', url, proxy_url: url },
			};
		}
		default:
			return {};
	}
}
