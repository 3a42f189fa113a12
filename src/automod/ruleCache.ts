import { Constants, PermissionFlagsBits, Routes, type PermissionsBitField, type REST } from 'discord.js';
import { z } from 'zod';
import type { Logger } from '../logging/logger.js';
import { HOUR_MS } from '../time/durations.js';
import { appliesToVeil, automodRuleSchema, type AutomodRule } from './automodRule.js';
import type { MatchContext } from './ruleMatcher.js';
import { RuleScreener, type RuleSet, type ScreenerOptions, type Screening } from './ruleScreener.js';

/** The gateway events that keep a server's rules fresh (Auto Moderation Configuration intent). */
export const RULE_EVENTS = {
	AUTO_MODERATION_RULE_CREATE: 'set',
	AUTO_MODERATION_RULE_UPDATE: 'set',
	AUTO_MODERATION_RULE_DELETE: 'delete',
} as const;
type RuleEvent = keyof typeof RULE_EVENTS;

export interface RuleCacheOptions {
	/** How long an ask waits for a read of the rules before it goes on with the last rules known (or none). */
	readonly askWaitMs?: number;
	/** How long a read may take at all; it fills the cache for later asks when it ends past `askWaitMs`. */
	readonly readTimeoutMs?: number;
	/** How old rules may be before an ask reads them again (events keep them fresh in between). */
	readonly refreshMs?: number;
	/** How many servers' rules are kept; the least recently asked go first. */
	readonly maxGuilds?: number;
	/** The bounds of a reading (see RuleScreener). */
	readonly screening?: ScreenerOptions;
}

/** A server's rules as an ask reads them: on the reading thread, never on the event loop. */
export interface ServerRules {
	/** How many rules apply: none means there is nothing to read. */
	readonly ruleCount: number;
	screen(text: string, context: MatchContext): Promise<Screening>;
}

interface Entry {
	readonly rules: Map<string, AutomodRule>;
	readonly readAt: number;
	/** Made at the first ask after a change, so a burst of events makes one version. */
	ruleSet: RuleSet | undefined;
}

type Change = { readonly kind: 'set'; readonly rule: AutomodRule } | { readonly kind: 'delete'; readonly ruleId: string };

/** How long after a failed read asks go on without reading again. */
const RETRY_AFTER_FAILURE_MS = 60_000;

/** Announcement, public and private threads, as discord.js counts them. */
const THREAD_TYPES: ReadonlySet<number> = new Set(Constants.ThreadChannelTypes);
const MAX_THREAD_PARENTS = 1000;
const interactionChannelSchema = z.object({
	id: z.string(),
	channel: z.object({ type: z.number(), parent_id: z.string().nullish() }),
});

const ruleListSchema = z.array(z.unknown());
const deletedRuleSchema = z.object({ id: z.string(), guild_id: z.string() });

/** Whether Veil may read a server's AutoMod rules: the interaction's `app_permissions` say so, with no request. */
export function mayReadRules(appPermissions: Readonly<PermissionsBitField> | null | undefined): boolean {
	return appPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false;
}

/**
 * Each server's AutoMod rules, as Veil applies them: read with `GET /guilds/{id}/auto-moderation/rules` where Veil
 * has Manage Server (at a server's first ask, and again after `refreshMs`), one read per server at a time however
 * many asks wait on it, and kept fresh between reads by the rule events. Asking never throws and never waits past
 * `askWaitMs`: a read that fails or is slow leaves the last rules known (or none) in force, and is logged.
 */
export class AutomodRuleCache {
	readonly #entries = new Map<string, Entry>();
	/** Reads in flight, and the events that arrived meanwhile (replayed on the read's result, which may predate them). */
	readonly #reads = new Map<string, { readonly done: Promise<Entry | undefined>; readonly changes: Change[] }>();
	readonly #askWaitMs: number;
	readonly #readTimeoutMs: number;
	readonly #refreshMs: number;
	readonly #maxGuilds: number;
	/** Servers whose last read failed, and until when no ask reads them again: a lasting 403 is not asked per ask. */
	readonly #failedUntil = new Map<string, number>();
	readonly #threadParents = new Map<string, string>();
	readonly #screener: RuleScreener;
	#version = 0;
	/** The rules the moderators were told are too costly: once each, while the process runs. */
	readonly #toldCostly = new Set<string>();

	constructor(
		private readonly rest: Pick<REST, 'get'>,
		private readonly log: Logger,
		options: RuleCacheOptions = {},
	) {
		this.#askWaitMs = options.askWaitMs ?? 1500;
		this.#readTimeoutMs = options.readTimeoutMs ?? 10_000;
		this.#refreshMs = options.refreshMs ?? HOUR_MS;
		this.#maxGuilds = options.maxGuilds ?? 10_000;
		this.#screener = new RuleScreener(log, options.screening);
	}

	/** True the first time a rule of a server is found too costly to read: the moderators are told then. */
	firstTimeCostly(guildId: string, ruleId: string): boolean {
		const key = `${guildId}:${ruleId}`;
		if (this.#toldCostly.has(key) || this.#toldCostly.size >= this.#maxGuilds) return false;
		this.#toldCostly.add(key);
		return true;
	}

	/** Stops the reading thread. */
	close(): Promise<void> {
		return this.#screener.close();
	}

	/**
	 * The rules that apply to an ask in `guildId`, or undefined when none do: no server, no Manage Server, no rules
	 * known. A failed read is tried again a minute later at the earliest. Never rejects.
	 */
	async rulesFor(guildId: string | null, appPermissions: Readonly<PermissionsBitField> | null | undefined): Promise<ServerRules | undefined> {
		if (guildId === null || !mayReadRules(appPermissions)) return undefined;
		const known = this.#entries.get(guildId);
		const failedUntil = this.#failedUntil.get(guildId);
		if (failedUntil !== undefined && failedUntil <= Date.now()) this.#failedUntil.delete(guildId);
		else if (failedUntil !== undefined) return known && this.#rulesOf(guildId, known);
		if (known && Date.now() - known.readAt < this.#refreshMs) {
			// Most recently asked last: the first in the map is the first to go.
			this.#entries.delete(guildId);
			this.#entries.set(guildId, known);
			return this.#rulesOf(guildId, known);
		}
		let timer: NodeJS.Timeout | undefined;
		const waited = new Promise<undefined>((resolve) => {
			timer = setTimeout(() => resolve(undefined), this.#askWaitMs);
		});
		const read = await Promise.race([this.#read(guildId), waited]).finally(() => clearTimeout(timer));
		if (!read) {
			this.log.info({ guildId, knownBefore: known !== undefined }, 'AutoMod rules not read in time; the last known (if any) apply');
		}
		const entry = read ?? this.#entries.get(guildId);
		return entry && this.#rulesOf(guildId, entry);
	}

	/** How many rules Veil applies in a server as far as this process knows, or undefined before any read. */
	appliedCount(guildId: string): number | undefined {
		const entry = this.#entries.get(guildId);
		return entry && this.#ruleSetOf(guildId, entry).rules.length;
	}

	/**
	 * The parent channel of the thread an interaction came from: an exempt channel exempts its threads. discord.js
	 * keeps no channel Veil has no intent for, so the parent is taken from the interaction's packet.
	 */
	threadParentOf(interactionId: string): string | undefined {
		const parentId = this.#threadParents.get(interactionId);
		this.#threadParents.delete(interactionId);
		return parentId;
	}

	/** A gateway packet: a rule created, changed or deleted, or an interaction in a thread. Others are ignored. */
	onPacket(packet: { t?: string | null; d?: unknown }): void {
		if (packet.t === 'INTERACTION_CREATE') return this.#noteThreadParent(packet.d);
		if (!packet.t || !Object.hasOwn(RULE_EVENTS, packet.t)) return;
		const kind = RULE_EVENTS[packet.t as RuleEvent];
		let change: Change;
		let guildId: string;
		if (kind === 'set') {
			const parsed = automodRuleSchema.safeParse(packet.d);
			if (!parsed.success) return void this.log.warn({ event: packet.t }, 'an AutoMod rule event Veil could not read');
			change = { kind, rule: parsed.data };
			guildId = parsed.data.guild_id;
		} else {
			const parsed = deletedRuleSchema.safeParse(packet.d);
			if (!parsed.success) return void this.log.warn({ event: packet.t }, 'an AutoMod rule event Veil could not read');
			change = { kind, ruleId: parsed.data.id };
			guildId = parsed.data.guild_id;
		}
		this.#reads.get(guildId)?.changes.push(change);
		// A server never read is read at its next ask, with this change in it.
		const entry = this.#entries.get(guildId);
		if (entry) applyChange(entry, change);
	}

	#noteThreadParent(data: unknown): void {
		// Every interaction's packet comes here, and few are in a thread: a look at the channel's type spares the rest
		// the parse (a third of this listener's cost an ask, in a profile at 40 asks a second).
		if (!isThreadChannelType(channelTypeOf(data))) return;
		const parsed = interactionChannelSchema.safeParse(data);
		if (!parsed.success || !parsed.data.channel.parent_id) return;
		this.#threadParents.set(parsed.data.id, parsed.data.channel.parent_id);
		// Interactions other than asks never read theirs: the map keeps the latest few.
		if (this.#threadParents.size > MAX_THREAD_PARENTS) this.#threadParents.delete(this.#threadParents.keys().next().value as string);
	}

	#ruleSetOf(guildId: string, entry: Entry): RuleSet {
		entry.ruleSet ??= { guildId, version: ++this.#version, rules: [...entry.rules.values()].filter(appliesToVeil) };
		return entry.ruleSet;
	}

	#rulesOf(guildId: string, entry: Entry): ServerRules {
		const ruleSet = this.#ruleSetOf(guildId, entry);
		return { ruleCount: ruleSet.rules.length, screen: (text, context) => this.#screener.screen(ruleSet, text, context) };
	}

	#read(guildId: string): Promise<Entry | undefined> {
		const inFlight = this.#reads.get(guildId);
		if (inFlight) return inFlight.done;
		const changes: Change[] = [];
		const done = this.#fetch(guildId, changes).finally(() => this.#reads.delete(guildId));
		this.#reads.set(guildId, { done, changes });
		return done;
	}

	async #fetch(guildId: string, changes: Change[]): Promise<Entry | undefined> {
		try {
			const raw = ruleListSchema.parse(
				await this.rest.get(Routes.guildAutoModerationRules(guildId), { signal: AbortSignal.timeout(this.#readTimeoutMs) }),
			);
			const rules = new Map<string, AutomodRule>();
			for (const item of raw) {
				const parsed = automodRuleSchema.safeParse(item);
				if (parsed.success) rules.set(parsed.data.id, parsed.data);
			}
			const entry: Entry = { rules, readAt: Date.now(), ruleSet: undefined };
			for (const change of changes) applyChange(entry, change);
			this.#entries.delete(guildId);
			this.#entries.set(guildId, entry);
			if (this.#entries.size > this.#maxGuilds) this.#entries.delete(this.#entries.keys().next().value as string);
			this.log.debug({ guildId, rules: rules.size }, 'AutoMod rules read');
			return entry;
		} catch (error) {
			// The ask goes on under the last rules known; the next ask past the refresh tries again.
			this.log.warn({ err: error, guildId }, 'could not read the AutoMod rules');
			this.#failedUntil.set(guildId, Date.now() + RETRY_AFTER_FAILURE_MS);
			if (this.#failedUntil.size > this.#maxGuilds) this.#failedUntil.delete(this.#failedUntil.keys().next().value as string);
			return undefined;
		}
	}
}

function applyChange(entry: Entry, change: Change): void {
	if (change.kind === 'set') entry.rules.set(change.rule.id, change.rule);
	else entry.rules.delete(change.ruleId);
	entry.ruleSet = undefined;
}

/** The `channel.type` of a packet's data, unchecked: whatever is there, or undefined. */
function channelTypeOf(data: unknown): unknown {
	if (typeof data !== 'object' || data === null || !('channel' in data)) return undefined;
	const { channel } = data;
	return typeof channel === 'object' && channel !== null && 'type' in channel ? channel.type : undefined;
}

/** A thread's type (announcement, public, private): the one test of whether a packet came from a thread. */
function isThreadChannelType(type: unknown): boolean {
	return typeof type === 'number' && THREAD_TYPES.has(type);
}
