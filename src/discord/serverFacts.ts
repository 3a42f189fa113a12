import { GatewayDispatchEvents as E, Routes, type REST } from 'discord.js';
import { z } from 'zod';
import { readFacts, type FactSource, type GuildFacts, type MemberFacts, type Overwrites } from './permissionLookup.js';

const channelSchema = z.object({
	id: z.string(),
	type: z.number(),
	name: z.string().nullish(),
	parent_id: z.string().nullish(),
	owner_id: z.string().nullish(),
	thread_metadata: z.object({ archived: z.boolean() }).optional(),
});

/** A channel (or thread) as Discord describes it, in the parts Veil reads. */
export type ChannelFacts = z.infer<typeof channelSchema>;

const SERVER_CHANGES: ReadonlySet<string> = new Set([E.GuildCreate, E.GuildUpdate, E.GuildDelete]);
const ROLE_CHANGES: ReadonlySet<string> = new Set([E.GuildRoleCreate, E.GuildRoleUpdate, E.GuildRoleDelete]);
const THREAD_CHANGES: ReadonlySet<string> = new Set([E.ThreadCreate, E.ThreadUpdate, E.ThreadDelete]);
const CHANNEL_CHANGES: ReadonlySet<string> = new Set([E.ChannelCreate, E.ChannelUpdate, E.ChannelDelete, ...THREAD_CHANGES]);

const DELETIONS: ReadonlySet<string> = new Set([E.ChannelDelete, E.ThreadDelete]);
/** Channels kept a server: a busy server's threads come and go. */
const MAX_CHANNELS = 500;

const withGuild = z.object({ guild_id: z.string() });
const withIds = z.object({ id: z.string(), guild_id: z.string().optional() });
const memberUpdate = z.object({ guild_id: z.string(), user: z.object({ id: z.string() }) });

/** One server's facts, each read at first need; a read that fails is not kept. */
class ServerEntry {
	readonly bornAt: number;
	guild: Promise<GuildFacts> | undefined;
	overwrites: Promise<Overwrites> | undefined;
	bot: Promise<MemberFacts> | undefined;
	readonly channels = new Map<string, Promise<ChannelFacts>>();

	constructor(bornAt: number) {
		this.bornAt = bornAt;
	}
}

function keepChannel(entry: ServerEntry, channelId: string, facts: Promise<ChannelFacts>): void {
	entry.channels.set(channelId, facts);
	if (entry.channels.size > MAX_CHANNELS) entry.channels.delete(entry.channels.keys().next().value as string);
}

export interface ServerFactsOptions {
	readonly rest: REST;
	/** Veil's own user id (known once the client is ready). */
	readonly botId: () => string;
	/** Servers kept; the one least recently read goes first. */
	readonly maxServers?: number;
	/** How long a server's facts are kept at most, whatever the gateway says. */
	readonly maxAgeMs?: number;
	readonly now?: () => number;
}

/**
 * What a server's permissions are computed from, kept between messages that talk to Veil: its owner and roles, its
 * channels' overwrites, Veil's own roles, and the channels the messages came from. Without it each mention cost four
 * reads before its answer, under the 50 requests a second Discord allows a bot (8 answers a second in a busy
 * thread). Each is read over REST at first need and forgotten when the gateway says it changed (the Guilds intent
 * brings roles, channels, threads and the server itself), and after `maxAgeMs` at most: Discord tells of a change to
 * Veil's own roles only under the privileged Guild Members intent, which Veil does not take.
 */
export class ServerFacts {
	readonly #rest: REST;
	readonly #botId: () => string;
	readonly #maxServers: number;
	readonly #maxAgeMs: number;
	readonly #now: () => number;
	readonly #servers = new Map<string, ServerEntry>();

	constructor(options: ServerFactsOptions) {
		this.#rest = options.rest;
		this.#botId = options.botId;
		this.#maxServers = options.maxServers ?? 1000;
		this.#maxAgeMs = options.maxAgeMs ?? 60_000;
		this.#now = options.now ?? Date.now;
	}

	/** The facts of `guildId` that a PermissionLookup reads: kept here, but for members other than Veil. */
	source(guildId: string): FactSource {
		const rest = readFacts(this.#rest, guildId);
		return {
			guild: () => this.#kept(guildId, 'guild', () => rest.guild()),
			overwrites: () => this.#kept(guildId, 'overwrites', () => rest.overwrites()),
			member: (userId) => (userId === this.#botId() ? this.#kept(guildId, 'bot', () => rest.member(userId)) : rest.member(userId)),
		};
	}

	/** A channel of `guildId` (a thread too), as Discord describes it; one named from a DM (null) is read each time. */
	channel(guildId: string | null, channelId: string): Promise<ChannelFacts> {
		if (guildId === null) return this.#readChannel(channelId);
		const entry = this.#entry(guildId);
		let read = entry.channels.get(channelId);
		if (!read) {
			read = this.#readChannel(channelId);
			keepChannel(entry, channelId, read);
			const kept = read;
			read.catch(() => entry.channels.get(channelId) === kept && entry.channels.delete(channelId));
		}
		return read;
	}

	async #readChannel(channelId: string): Promise<ChannelFacts> {
		return channelSchema.parse(await this.#rest.get(Routes.channel(channelId)));
	}

	/** Forgets what a gateway dispatch says has changed; every other packet is ignored. */
	onPacket(t: string, d: unknown): void {
		if (SERVER_CHANGES.has(t)) {
			const parsed = withIds.safeParse(d);
			if (parsed.success) this.#servers.delete(parsed.data.id);
		} else if (ROLE_CHANGES.has(t)) {
			const parsed = withGuild.safeParse(d);
			if (parsed.success) this.#forget(parsed.data.guild_id, (entry) => (entry.guild = undefined));
		} else if (CHANNEL_CHANGES.has(t)) {
			const parsed = withIds.safeParse(d);
			const { id, guild_id: guildId } = parsed.success ? parsed.data : {};
			if (id === undefined || guildId === undefined) return;
			this.#forget(guildId, (entry) => {
				// A thread has no overwrites of its own: only a channel's change moves them.
				if (!THREAD_CHANGES.has(t)) entry.overwrites = undefined;
				entry.channels.delete(id);
				// The event describes the channel as it now is (a thread just started, say): no read needed.
				const now = DELETIONS.has(t) ? undefined : channelSchema.safeParse(d);
				if (now?.success) keepChannel(entry, id, Promise.resolve(now.data));
			});
		} else if (t === String(E.ThreadListSync)) {
			const parsed = withGuild.safeParse(d);
			if (parsed.success) this.#forget(parsed.data.guild_id, (entry) => entry.channels.clear());
		} else if (t === String(E.GuildMemberUpdate)) {
			const parsed = memberUpdate.safeParse(d);
			if (parsed.success && parsed.data.user.id === this.#botId()) this.#forget(parsed.data.guild_id, (entry) => (entry.bot = undefined));
		}
	}

	#forget(guildId: string, change: (entry: ServerEntry) => void): void {
		const entry = this.#servers.get(guildId);
		if (entry) change(entry);
	}

	/** The server's entry, made the most recently read; a new one past its age. */
	#entry(guildId: string): ServerEntry {
		const now = this.#now();
		let entry = this.#servers.get(guildId);
		this.#servers.delete(guildId);
		if (!entry || now - entry.bornAt > this.#maxAgeMs) entry = new ServerEntry(now);
		this.#servers.set(guildId, entry);
		if (this.#servers.size > this.#maxServers) this.#servers.delete(this.#servers.keys().next().value as string);
		return entry;
	}

	#kept<K extends 'guild' | 'overwrites' | 'bot'>(guildId: string, key: K, read: () => NonNullable<ServerEntry[K]>): NonNullable<ServerEntry[K]> {
		const entry = this.#entry(guildId);
		const kept = entry[key];
		if (kept) return kept;
		const reading = read();
		entry[key] = reading;
		reading.catch(() => {
			if (entry[key] === reading) entry[key] = undefined;
		});
		return reading;
	}
}
