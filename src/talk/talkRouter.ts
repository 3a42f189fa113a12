import { KeyedLock } from '../storage/keyedLock.js';
import { Constants, PermissionFlagsBits, PermissionsBitField, Routes } from 'discord.js';
import { z } from 'zod';
import type { BotContext } from '../app/context.js';
import { messagePlaceOf } from '../app/place.js';
import { memberFactsFromPayload, PermissionLookup } from '../discord/permissionLookup.js';
import { NO_MENTIONS } from '../discord/mentions.js';
import { SOURCE_LOCALE, type SupportedLocale } from '../i18n/locales.js';
import { t, type MessageKey } from '../i18n/translate.js';
import { serverLocaleOf } from '../moderation/serverLocale.js';
import { answerTurn, isGone, type TalkPlace, type TurnWatch } from './messageTurn.js';
import { namedIds, promptOf, talkMessageSchema, talksToVeil, type TalkMessage } from './talkMessage.js';
import { TalkReplies } from './talkReplies.js';

/** Announcement, public and private threads, as discord.js counts them. */
const THREAD_TYPES: ReadonlySet<number> = new Set(Constants.ThreadChannelTypes);

/** How many (channel, member) pairs already told of a missing permission are remembered. */
const TOLD_MAX = 10_000;

/** The sentence naming each permission a turn needs, as Veil names permissions elsewhere. */
const PERMISSION_NAMES = new Map<bigint, MessageKey>([
	[PermissionFlagsBits.SendMessages, 'members.permissions.SendMessages'],
	[PermissionFlagsBits.SendMessagesInThreads, 'talk.missing.SendMessagesInThreads'],
	[PermissionFlagsBits.ReadMessageHistory, 'members.permissions.ReadMessageHistory'],
]);

const deletedSchema = z.object({ id: z.string(), channel_id: z.string() });
const bulkDeletedSchema = z.object({ ids: z.array(z.string()), channel_id: z.string() });
const threadSchema = z.object({ id: z.string(), thread_metadata: z.object({ archived: z.boolean() }).optional() });

/** A turn under way: where, and what became of it. */
interface Running {
	readonly channelId: string;
	readonly watch: { dropped: boolean; posted: string[] };
	readonly replies: TalkReplies;
}

/**
 * Messages that talk to Veil, read from the raw gateway packets (see gatewayScreen.ts): each one that addresses Veil
 * becomes a turn; a deletion of its message, or its thread archived or deleted, drops its answer. Everything else is
 * dropped at the first field read. Events of a server reach the process of its shard, so the turns under way are
 * this process's own.
 */
export class TalkRouter {
	readonly #running = new Map<string, Running>();
	/** Members told where Veil lacks a permission (`channel:member`), the newest {@link TOLD_MAX}. */
	readonly #told = new Set<string>();
	readonly #inFlight = new Set<Promise<void>>();
	readonly #controller = new AbortController();
	/** Turns of one conversation, one at a time (see TurnDeps). */
	readonly #turns = new KeyedLock();

	constructor(private readonly ctx: BotContext) {}

	/** Reads one screened packet; never throws (it runs inside discord.js's gateway handler). */
	onPacket(t: string, d: unknown): void {
		try {
			this.#read(t, d);
		} catch (error) {
			this.ctx.logger.warn({ err: error, event: t }, 'a gateway event Veil could not read');
		}
	}

	/** How many turns are under way. */
	get inFlight(): number {
		return this.#inFlight.size;
	}

	/** Stops the turns under way (a shutdown ran out of patience); they end as an interaction does. */
	abort(): void {
		this.#controller.abort();
	}

	/** Resolves when every turn under way has ended. */
	async drain(): Promise<void> {
		await Promise.allSettled([...this.#inFlight]);
	}

	#read(t: string, d: unknown): void {
		const botId = this.ctx.client.user?.id;
		if (botId === undefined) return;
		switch (t) {
			case 'MESSAGE_CREATE':
				if (talksToVeil(d, botId)) this.#track(this.#start(d, botId));
				return;
			case 'MESSAGE_DELETE': {
				const parsed = deletedSchema.safeParse(d);
				if (parsed.success) this.#drop(this.#running.get(parsed.data.id));
				return;
			}
			case 'MESSAGE_DELETE_BULK': {
				const parsed = bulkDeletedSchema.safeParse(d);
				if (parsed.success) for (const id of parsed.data.ids) this.#drop(this.#running.get(id));
				return;
			}
			case 'THREAD_UPDATE':
			case 'THREAD_DELETE':
			case 'CHANNEL_DELETE': {
				const parsed = threadSchema.safeParse(d);
				if (!parsed.success || (t === 'THREAD_UPDATE' && parsed.data.thread_metadata?.archived !== true)) return;
				// Gone or archived: what would still be posted there is dropped quietly, and nothing posted is taken back.
				for (const running of this.#running.values()) if (running.channelId === parsed.data.id) running.watch.dropped = true;
				return;
			}
		}
	}

	#track(turn: Promise<void>): void {
		this.#inFlight.add(turn);
		void turn.finally(() => this.#inFlight.delete(turn));
	}

	/** The member deleted their message: nothing more is posted, and what was is taken back. */
	#drop(running: Running | undefined): void {
		if (!running || running.watch.dropped) return;
		running.watch.dropped = true;
		for (const id of running.watch.posted) void running.replies.delete(id).catch(() => undefined);
	}

	async #start(d: unknown, botId: string): Promise<void> {
		const parsed = talkMessageSchema.safeParse(d);
		if (!parsed.success) return void this.ctx.logger.warn('a message that talks to Veil Veil could not read');
		const message = parsed.data;
		const log = this.ctx.logger.child({ messageId: message.id, guildId: message.guild_id ?? null, channelId: message.channel_id });
		const replies = new TalkReplies(this.ctx.client.rest, message.channel_id, message.id);
		const watch: TurnWatch & { dropped: boolean; posted: string[] } = { dropped: false, posted: [] };
		this.#running.set(message.id, { channelId: message.channel_id, watch, replies });
		try {
			const place = await this.#placeOf(message, botId, log);
			if (!place) return;
			const names = await this.#names(message, place.guildId);
			const prompt = promptOf(message, botId, names);
			// A reply without "ping on reply" arrives empty (no Message Content): there is nothing to answer.
			if (prompt === '' && message.attachments.length === 0) return;
			await answerTurn(message, prompt, place, replies, watch, { ...this.ctx, log, signal: this.#controller.signal, conversationTurns: this.#turns });
		} catch (error) {
			if (isGone(error)) log.info('the turn’s channel is gone: dropped');
			else log.error({ err: error }, 'a message that talks to Veil could not be answered');
		} finally {
			this.#running.delete(message.id);
			// Counted and answered (or dropped): what the member sees, and /usage, are final.
			log.debug('message handled');
		}
	}

	/**
	 * Where the message was, or undefined when Veil does not answer there: a server channel where `/settings mentions`
	 * is off (not in a thread Veil started), or where it may not answer (the member is told once, by DM).
	 */
	async #placeOf(message: TalkMessage, botId: string, log: BotContext['logger']): Promise<TalkPlace | undefined> {
		const guildId = message.guild_id;
		if (guildId === undefined) {
			const where = messagePlaceOf({ guildId: null, channelId: message.channel_id, exempt: false, roleIds: [] });
			return { guildId: null, channelId: message.channel_id, parentId: undefined, botPermissions: null, locale: SOURCE_LOCALE, where };
		}
		const { rest } = this.ctx.client;
		const facts = this.ctx.serverFacts;
		const channel = await facts.channel(guildId, message.channel_id);
		const thread = THREAD_TYPES.has(channel.type);
		const parentId = thread ? (channel.parent_id ?? undefined) : undefined;
		if (channel.thread_metadata?.archived) return undefined;
		// The author's roles come with the message (MESSAGE_CREATE's `member`): their permissions cost no request more.
		const member = memberFactsFromPayload(message.member);
		const lookup = new PermissionLookup({ rest, guildId, userId: message.author.id, botId, member, source: facts.source(guildId) });
		const [settings, permissions, memberPermissions] = await Promise.all([
			this.ctx.settings.getRecent(guildId).catch(() => undefined),
			lookup.botIn(parentId ?? message.channel_id),
			member ? lookup.memberIn(parentId ?? message.channel_id).catch(() => undefined) : undefined,
		]);
		// A thread Veil started (from an answer, Continue in a thread) is a conversation with Veil, whatever the setting.
		const veilThread = thread && channel.owner_id === botId;
		if (!veilThread && !mentionsOn(settings?.mentions, message.channel_id, parentId)) return undefined;
		const needed = [thread ? PermissionFlagsBits.SendMessagesInThreads : PermissionFlagsBits.SendMessages, PermissionFlagsBits.ReadMessageHistory];
		const missing = needed.filter((bit) => !permissions.has(bit));
		const locale = await serverLocaleOf(guildId, null, { settings: this.ctx.settings, log });
		if (missing.length > 0) {
			log.info({ missing: new PermissionsBitField(missing).toArray() }, 'Veil may not answer where it was mentioned');
			await this.#tellMissing(message, missing, locale, log);
			return undefined;
		}
		return {
			guildId,
			channelId: message.channel_id,
			parentId,
			botPermissions: permissions,
			locale,
			where: messagePlaceOf({
				guildId,
				channelId: message.channel_id,
				// As for an /ask: members with Manage Server are not limited; a role's limit replaces the server's.
				exempt: memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false,
				roleIds: member?.roleIds ?? [],
			}),
		};
	}

	/**
	 * Tells the member, by DM, which permission Veil lacks where they talked to it: once per member and channel while
	 * the process runs (a burst of mentions is one message). A closed DM costs only the news.
	 */
	async #tellMissing(message: TalkMessage, missing: readonly bigint[], locale: SupportedLocale, log: BotContext['logger']): Promise<void> {
		const key = `${message.channel_id}:${message.author.id}`;
		if (this.#told.has(key)) return;
		this.#told.add(key);
		if (this.#told.size > TOLD_MAX) this.#told.delete(this.#told.values().next().value as string);
		const names = missing.map((bit) => t(locale, PERMISSION_NAMES.get(bit) ?? 'members.permissions.SendMessages'));
		const permissions = new Intl.ListFormat(locale, { type: 'conjunction' }).format(names);
		const content = t(locale, 'talk.missing.cannotAnswer', { channel: `<#${message.channel_id}>`, permissions });
		try {
			const { rest } = this.ctx.client;
			const dm = z.object({ id: z.string() }).parse(await rest.post(Routes.userChannels(), { body: { recipient_id: message.author.id } }));
			await rest.post(Routes.channelMessages(dm.id), { body: { content, allowed_mentions: NO_MENTIONS } });
		} catch (error) {
			log.info({ err: error }, 'could not tell the member by DM which permission Veil lacks');
		}
	}

	/** The names of the roles and channels the message names, looked up only when it names one. */
	async #names(message: TalkMessage, guildId: string | null) {
		const named = namedIds(message.content);
		const roles = new Map<string, string>();
		const channels = new Map<string, string>();
		if (guildId !== null && named.roles.length > 0) {
			const list = z
				.array(z.object({ id: z.string(), name: z.string() }))
				.safeParse(await this.ctx.client.rest.get(Routes.guildRoles(guildId)).catch(() => []));
			if (list.success) for (const role of list.data) roles.set(role.id, role.name);
		}
		for (const id of named.channels.slice(0, 5)) {
			const channel = await this.ctx.serverFacts.channel(guildId, id).catch(() => undefined);
			if (channel?.name) channels.set(id, channel.name);
		}
		return { roles, channels };
	}
}

/** Whether `/settings mentions` leaves mentions on in this channel (a thread follows its parent): on by default. */
export function mentionsOn(
	setting: { off?: boolean; offIn?: readonly string[] } | undefined,
	channelId: string,
	parentId: string | undefined,
): boolean {
	if (!setting) return true;
	if (setting.off === true) return false;
	const offIn = setting.offIn ?? [];
	return !offIn.includes(channelId) && (parentId === undefined || !offIn.includes(parentId));
}
