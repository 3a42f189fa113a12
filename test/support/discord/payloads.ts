import { randomBytes } from 'node:crypto';
import {
	PermissionFlagsBits,
	type APIAllowedMentions,
	type APIApplicationCommandInteractionDataOption,
	type APIEmbed,
	type APIModalInteractionResponseCallbackData,
	type APIOverwrite,
	type APIUser,
} from 'discord.js';
import type { ChannelModel, GuildModel, Store } from './model.js';

const DISCORD_EPOCH = 1_420_070_400_000n;
let lastMs = 0n;
let increment = 0n;

/**
 * A fresh, strictly increasing Discord snowflake. Monotonic even if the clock is faked backwards, so ids keep
 * sorting in creation order the way discord.js (and real Discord) expect.
 */
export function snowflake(): string {
	let ms = BigInt(Date.now()) - DISCORD_EPOCH;
	if (ms <= lastMs) {
		ms = lastMs;
		increment += 1n;
		if (increment > 4095n) {
			ms += 1n;
			increment = 0n;
		}
	} else {
		increment = 0n;
	}
	lastMs = ms;
	return ((ms << 22n) | (1n << 17n) | increment).toString();
}

const knownUsers = new Map<string, APIUser>();

/** Users made by {@link makeUser}, so an emulator can resolve them in USER options without being told. */
export function lookupMadeUser(id: string): APIUser | undefined {
	return knownUsers.get(id);
}

/** A distinct Discord user (new snowflake on every call) with the fields discord.js reads. */
export function makeUser(username: string): APIUser {
	const user: APIUser = {
		id: snowflake(),
		username,
		global_name: username.charAt(0).toUpperCase() + username.slice(1),
		discriminator: '0',
		avatar: null,
		bot: false,
	};
	knownUsers.set(user.id, user);
	return user;
}

/** A token shaped like a real one (base64 id, time, hmac): discord.js splits it on dots when it logs. */
export function makeBotToken(botId: string): string {
	return `${Buffer.from(botId).toString('base64url')}.${randomBytes(4).toString('base64url')}.${randomBytes(27).toString('base64url')}`;
}

export function makeInteractionToken(): string {
	return `aW50ZXJhY3Rpb246${randomBytes(48).toString('base64url')}`;
}

const P = PermissionFlagsBits;

/** What a plain member has in a channel: no moderation bits such as ManageMessages. */
export const PLAIN_MEMBER_PERMISSIONS = P.ViewChannel | P.SendMessages | P.ReadMessageHistory | P.UseApplicationCommands;

/** The bot role's default: enough to post answers with embeds and files, nothing more. */
export const DEFAULT_BOT_PERMISSIONS = P.ViewChannel | P.SendMessages | P.EmbedLinks | P.AttachFiles | P.ReadMessageHistory;

/** Discord sends these as app_permissions in a bot DM. */
export const DM_APP_PERMISSIONS =
	P.ViewChannel | P.SendMessages | P.EmbedLinks | P.AttachFiles | P.ReadMessageHistory | P.AddReactions | P.UseExternalEmojis;

export const ALL_PERMISSIONS = Object.values(P).reduce((all, bit) => all | bit, 0n);

/**
 * Discord's channel permission algorithm: base from roles, Administrator short-circuits, then the @everyone
 * overwrite, the member's role overwrites (all denies before all allows), then the member's own overwrite.
 */
export function channelPermissions(
	base: bigint,
	overwrites: readonly APIOverwrite[],
	guildId: string,
	roleIds: readonly string[],
	memberId: string,
): bigint {
	if ((base & P.Administrator) !== 0n) return ALL_PERMISSIONS;
	let perms = base;
	let roleDeny = 0n;
	let roleAllow = 0n;
	let member: APIOverwrite | undefined;
	for (const ow of overwrites) {
		if (ow.id === guildId) {
			perms = (perms & ~BigInt(ow.deny)) | BigInt(ow.allow);
		} else if (ow.type === 1) {
			if (ow.id === memberId) member = ow;
		} else if (roleIds.includes(ow.id)) {
			roleDeny |= BigInt(ow.deny);
			roleAllow |= BigInt(ow.allow);
		}
	}
	perms = (perms & ~roleDeny) | roleAllow;
	if (member) perms = (perms & ~BigInt(member.deny)) | BigInt(member.allow);
	return perms;
}

type MentionKind = 'users' | 'roles' | 'everyone';

/** Interaction responses and webhooks parse only users by default; ordinary messages parse everything. */
export const WEBHOOK_DEFAULT_PARSE: readonly MentionKind[] = ['users'];
export const CHANNEL_DEFAULT_PARSE: readonly MentionKind[] = ['users', 'roles', 'everyone'];

export interface ParsedMentions {
	userIds: string[];
	roleIds: string[];
	everyone: boolean;
}

const MENTION_RE = /<@(!|&)?(\d{15,21})>|@(everyone|here)\b/g;

/**
 * Who a message actually pings, honouring allowed_mentions the way Discord does, so a test can assert that
 * `{ parse: [] }` really pinged nobody (Discord leaves suppressed mentions out of `mentions`).
 */
export function parseMentions(
	content: string,
	allowed: APIAllowedMentions | undefined | null,
	defaults: readonly MentionKind[],
): ParsedMentions {
	const result: ParsedMentions = { userIds: [], roleIds: [], everyone: false };
	if (!content.includes('@')) return result;
	const parse: readonly string[] = allowed ? (allowed.parse ?? []) : defaults;
	const users = allowed?.users ?? [];
	const roles = allowed?.roles ?? [];
	for (const match of content.matchAll(MENTION_RE)) {
		const [, sigil, id, everyone] = match;
		if (everyone) {
			if (parse.includes('everyone')) result.everyone = true;
		} else if (id && sigil === '&') {
			if ((parse.includes('roles') || roles.includes(id)) && !result.roleIds.includes(id)) result.roleIds.push(id);
		} else if (id && (parse.includes('users') || users.includes(id)) && !result.userIds.includes(id)) {
			result.userIds.push(id);
		}
	}
	return result;
}

/** Discord's 50035 "Invalid Form Body" error with its nested `errors` tree. */
export class FormErrors {
	readonly tree: Record<string, unknown> = {};
	count = 0;

	add(path: ReadonlyArray<string | number>, code: string, message: string): void {
		let node = this.tree;
		for (const key of path) {
			const k = String(key);
			node[k] ??= {};
			node = node[k] as Record<string, unknown>;
		}
		const list = (node._errors ??= []) as Array<{ code: string; message: string }>;
		list.push({ code, message });
		this.count += 1;
	}

	body(): { code: number; message: string; errors: Record<string, unknown> } {
		return { code: 50035, message: 'Invalid Form Body', errors: this.tree };
	}
}

function maxLength(errors: FormErrors, path: Array<string | number>, value: unknown, max: number, min = 0): number {
	if (typeof value !== 'string') return 0;
	if (value.length > max) errors.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
	if (value.length < min) errors.add(path, 'BASE_TYPE_MIN_LENGTH', `Must be ${min} or more in length.`);
	return value.length;
}

function validateEmbeds(errors: FormErrors, embeds: unknown): void {
	if (!Array.isArray(embeds)) return;
	if (embeds.length > 10) errors.add(['embeds'], 'BASE_TYPE_MAX_LENGTH', 'Must be 10 or fewer in length.');
	let total = 0;
	embeds.forEach((raw: APIEmbed, i) => {
		const at = (...rest: Array<string | number>) => ['embeds', i, ...rest];
		total += maxLength(errors, at('title'), raw.title, 256);
		total += maxLength(errors, at('description'), raw.description, 4096);
		total += maxLength(errors, at('footer', 'text'), raw.footer?.text, 2048);
		total += maxLength(errors, at('author', 'name'), raw.author?.name, 256);
		const fields = raw.fields ?? [];
		if (fields.length > 25) errors.add(at('fields'), 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
		fields.forEach((field, j) => {
			total += maxLength(errors, at('fields', j, 'name'), field.name, 256);
			total += maxLength(errors, at('fields', j, 'value'), field.value, 1024);
		});
	});
	if (total > 6000) errors.add(['embeds'], 'MESSAGE_EMBEDS_TOO_LONG', 'Embed size exceeds maximum size of 6000');
}

/** Every custom_id in a component tree (rows, containers, sections, labels), for limits and lookups. */
export function collectCustomIds(components: unknown, out: string[] = []): string[] {
	if (!Array.isArray(components)) return out;
	for (const c of components as Array<Record<string, unknown>>) {
		if (!c || typeof c !== 'object') continue;
		if (typeof c.custom_id === 'string') out.push(c.custom_id);
		if (c.components) collectCustomIds(c.components, out);
		if (c.component) collectCustomIds([c.component], out);
		if (c.accessory) collectCustomIds([c.accessory], out);
	}
	return out;
}

function validateComponents(errors: FormErrors, components: unknown): void {
	for (const id of collectCustomIds(components)) {
		if (id.length > 100 || id.length === 0) {
			errors.add(['components'], 'BASE_TYPE_BAD_LENGTH', `custom_id "${id.slice(0, 20)}…" must be between 1 and 100 in length.`);
		}
	}
}

/**
 * Checks a message body against Discord's limits. `create` also rejects an empty message (50006), which Discord
 * answers with its own code rather than 50035.
 */
export function validateMessage(
	body: Record<string, unknown>,
	fileCount: number,
	create: boolean,
): { status: number; body: unknown } | undefined {
	const errors = new FormErrors();
	maxLength(errors, ['content'], body.content, 2000);
	validateEmbeds(errors, body.embeds);
	validateComponents(errors, body.components);
	if (errors.count) return { status: 400, body: errors.body() };
	if (create) {
		const hasContent = typeof body.content === 'string' && body.content.length > 0;
		const hasEmbeds = Array.isArray(body.embeds) && body.embeds.length > 0;
		const hasComponents = Array.isArray(body.components) && body.components.length > 0;
		const hasStickers = Array.isArray(body.sticker_ids) && body.sticker_ids.length > 0;
		if (!hasContent && !hasEmbeds && !hasComponents && !hasStickers && !body.poll && fileCount === 0) {
			return { status: 400, body: { code: 50006, message: 'Cannot send an empty message' } };
		}
	}
	return undefined;
}

/** Modal limits: custom_id 1–100, title ≤ 45, 1–5 top-level components, text inputs max_length ≤ 4000. */
export function validateModal(data: Record<string, unknown> | undefined): { status: number; body: unknown } | undefined {
	const errors = new FormErrors();
	if (!data) {
		errors.add(['data'], 'BASE_TYPE_REQUIRED', 'This field is required');
		return { status: 400, body: errors.body() };
	}
	maxLength(errors, ['data', 'custom_id'], data.custom_id, 100, 1);
	maxLength(errors, ['data', 'title'], data.title, 45, 1);
	if (typeof data.custom_id !== 'string') errors.add(['data', 'custom_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
	if (typeof data.title !== 'string') errors.add(['data', 'title'], 'BASE_TYPE_REQUIRED', 'This field is required');
	const components = Array.isArray(data.components) ? (data.components as Array<Record<string, unknown>>) : [];
	if (components.length < 1 || components.length > 5) {
		errors.add(['data', 'components'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 5 in length.');
	}
	components.forEach((top, i) => {
		const inner = top.component ? [top.component] : Array.isArray(top.components) ? top.components : [];
		if (top.type === 18) maxLength(errors, ['data', 'components', i, 'label'], top.label, 45, 1);
		for (const c of inner as Array<Record<string, unknown>>) {
			if (c.type !== 4) continue;
			maxLength(errors, ['data', 'components', i, 'component', 'custom_id'], c.custom_id, 100, 1);
			if (typeof c.max_length === 'number' && c.max_length > 4000) {
				errors.add(['data', 'components', i, 'component', 'max_length'], 'NUMBER_TYPE_MAX', 'int value should be less than or equal to 4000.');
			}
		}
	});
	return errors.count ? { status: 400, body: errors.body() } : undefined;
}

/** The wire form of a channel: guild text channels as GUILD_CREATE carries them, DMs with their recipient. */
export function channelPayload(channel: ChannelModel): Record<string, unknown> {
	if (channel.type === 1) {
		return { id: channel.id, type: 1, last_message_id: null, flags: 0, recipients: channel.recipient ? [channel.recipient] : [] };
	}
	return {
		id: channel.id,
		type: channel.type,
		guild_id: channel.guild_id,
		name: channel.name,
		position: channel.position,
		permission_overwrites: channel.permission_overwrites,
		parent_id: null,
		topic: channel.topic,
		nsfw: channel.nsfw,
		last_message_id: null,
		rate_limit_per_user: 0,
		flags: 0,
	};
}

/** GET /guilds/:id, and the part of GUILD_CREATE that is not gateway-only. */
export function guildPayload(guild: GuildModel): Record<string, unknown> {
	return {
		id: guild.id,
		name: guild.name,
		icon: null,
		icon_hash: null,
		splash: null,
		discovery_splash: null,
		owner_id: guild.owner_id,
		afk_channel_id: null,
		afk_timeout: 300,
		widget_enabled: false,
		widget_channel_id: null,
		verification_level: 0,
		default_message_notifications: 0,
		explicit_content_filter: 0,
		roles: guild.roles,
		emojis: [],
		stickers: [],
		features: [],
		mfa_level: 0,
		application_id: null,
		system_channel_id: null,
		system_channel_flags: 0,
		rules_channel_id: null,
		max_presences: null,
		max_members: 500_000,
		vanity_url_code: null,
		description: null,
		banner: null,
		premium_tier: 0,
		premium_subscription_count: 0,
		preferred_locale: 'en-US',
		public_updates_channel_id: null,
		max_video_channel_users: 25,
		max_stage_video_channel_users: 50,
		nsfw_level: 0,
		premium_progress_bar_enabled: false,
		safety_alerts_channel_id: null,
		incidents_data: null,
	};
}

/** GUILD_CREATE: everything discord.js needs to cache the guild, its channels, roles and `guild.members.me`. */
export function guildCreatePayload(guild: GuildModel): Record<string, unknown> {
	const channels = guild.channels.filter((c) => !c.deleted).map(channelPayload);
	return {
		...guildPayload(guild),
		joined_at: guild.joined_at,
		large: false,
		unavailable: false,
		member_count: guild.members.length,
		members: guild.members,
		channels,
		threads: [],
		presences: [],
		voice_states: [],
		stage_instances: [],
		guild_scheduled_events: [],
		soundboard_sounds: [],
		lazy: true,
		hub_type: null,
	};
}

/** The bot's permissions from its roles in a guild (before channel overwrites). */
export function botBasePermissions(guild: GuildModel): { base: bigint; roleIds: string[] } {
	// members[0] is always the bot (see GuildModel), which keeps this O(roles) on the REST hot path.
	const roleIds = guild.members[0]?.roles ?? [];
	let base = 0n;
	for (const role of guild.roles) {
		if (role.id === guild.id || roleIds.includes(role.id)) base |= BigInt(role.permissions);
	}
	return { base, roleIds };
}

/** The bot's effective permissions in a channel: what app_permissions carries and what REST enforces. */
export function botChannelPermissions(guild: GuildModel, channel: ChannelModel, botId: string): bigint {
	const { base, roleIds } = botBasePermissions(guild);
	return channelPermissions(base, channel.permission_overwrites, guild.id, roleIds, botId);
}

/** A member's permissions in a channel given their base permissions and no roles: @everyone and member overwrites. */
export function memberChannelPermissions(base: bigint, guildId: string, channel: ChannelModel, userId: string): bigint {
	return channelPermissions(base, channel.permission_overwrites, guildId, [], userId);
}

/**
 * The `data.components` of a modal submit. With the modal the bot showed, the submission mirrors its layout
 * (Label type 18 around each input, or legacy action rows) and a field the modal lacks throws; without one, each
 * field becomes a Label around a text input, as Discord sends for current modals. discord.js 14.28 reads both.
 */
export function modalSubmission(
	customId: string,
	fields: Record<string, string>,
	shown: APIModalInteractionResponseCallbackData | undefined,
): unknown[] {
	let nextId = 1;
	const input = (id: string) => ({ type: 4, id: nextId++, custom_id: id, value: fields[id] ?? '' });
	if (!shown) return Object.keys(fields).map((id) => ({ type: 18, id: nextId++, component: input(id) }));
	const known = new Set<string>();
	const components = (shown.components as unknown as Array<Record<string, unknown>>).map((top) => {
		const id = typeof top.id === 'number' ? top.id : nextId++;
		if (top.type === 18) {
			const inner = top.component as Record<string, unknown>;
			const innerId = String(inner.custom_id);
			known.add(innerId);
			const component = inner.type === 4 ? input(innerId) : { type: inner.type, id: nextId++, custom_id: innerId, values: [] as string[] };
			return { type: 18, id, component };
		}
		if (top.type === 1) {
			const inner = (top.components as Array<Record<string, unknown>>).map((c) => {
				known.add(String(c.custom_id));
				return input(String(c.custom_id));
			});
			return { type: 1, id, components: inner };
		}
		return { type: top.type, id };
	});
	const unknown = Object.keys(fields).filter((key) => !known.has(key));
	if (unknown.length) {
		throw new Error(`modalSubmit: the modal "${customId}" the bot showed has no input ${unknown.join(', ')}; it has ${[...known].join(', ') || 'none'}`);
	}
	return components;
}

/**
 * `data.resolved` for a command's options, as Discord fills it: USER (with a member in guilds), CHANNEL (with the
 * invoker's permissions there), ROLE and MENTIONABLE. Unknown users or channels throw: Discord could not send them.
 */
export function resolveOptions(
	store: Store,
	options: readonly APIApplicationCommandInteractionDataOption[],
	ctx: { guild: GuildModel | undefined; memberPermissions: bigint; invokerId: string; channel: (id: string) => ChannelModel },
): Record<string, Record<string, unknown>> | undefined {
	const { guild, memberPermissions, invokerId } = ctx;
	const resolved: Record<string, Record<string, unknown>> = {};
	const put = (kind: string, id: string, value: unknown) => {
		(resolved[kind] ??= {})[id] = value;
	};
	const user = (id: string) => {
		const found = store.users.get(id) ?? lookupMadeUser(id);
		if (!found) throw new Error(`slashCommand: unknown user ${id} in a USER option (make it with makeUser)`);
		put('users', id, found);
		if (guild) {
			const { user: _user, ...member } = store.ensureMember(guild.id, found);
			put('members', id, { ...member, permissions: (id === invokerId ? memberPermissions : PLAIN_MEMBER_PERMISSIONS).toString() });
		}
	};
	const role = (id: string): boolean => {
		const found = guild?.roles.find((r) => r.id === id);
		if (found) put('roles', id, found);
		return Boolean(found);
	};
	const walk = (list: readonly APIApplicationCommandInteractionDataOption[]) => {
		for (const option of list) {
			if ('options' in option && option.options) walk(option.options);
			if (!('value' in option)) continue;
			const value = String(option.value);
			if (option.type === 6) user(value);
			else if (option.type === 8) role(value);
			else if (option.type === 9) {
				if (!role(value)) user(value);
			} else if (option.type === 7) {
				const channel = ctx.channel(value);
				const permissions = guild ? memberChannelPermissions(memberPermissions, guild.id, channel, invokerId) : DM_APP_PERMISSIONS;
				const { permission_overwrites: _overwrites, ...rest } = channelPayload(channel);
				put('channels', value, { ...rest, permissions: permissions.toString() });
			}
		}
	};
	walk(options);
	return Object.keys(resolved).length ? resolved : undefined;
}
