import { z } from 'zod';
import type { AtomicStore } from './atomicStore.js';
import { LimitedServers } from './limitedServers.js';
import type { Store } from './store.js';
import { StoreError } from './storeError.js';

const guildSettingsSchema = z.object({
	modlogChannelId: z.string().optional(),
	/** The last mod-log post that failed, reported by the next `/settings modlog`. */
	modlogFailure: z.object({ at: z.string(), reason: z.string() }).optional(),
	/** Each member's asks a UTC day in this server (`/settings limits`); unset: no limit. */
	asksPerDay: z.number().int().positive().optional(),
});

export type GuildSettings = z.infer<typeof guildSettingsSchema>;

/** Tries of one update before it gives up: each lost try means another process changed the same server just then. */
const UPDATE_ATTEMPTS = 10;

/**
 * How long a read for the ask path may be reused (a server's settings, the list of servers with a limit): how late
 * another process's change may reach this one.
 */
export const RECENT_SETTINGS_MS = 10_000;
/** Servers whose recent read is kept at most; past it the oldest are forgotten (and read again when next needed). */
const RECENT_SETTINGS_MAX = 10_000;
/** Servers remembered as having nothing in the keyv store; past it, more are simply looked for again. */
const NO_LEGACY_MAX = 100_000;

/**
 * Per-server settings. A missing record means the defaults: no mod-log. An update is a compare-and-set in the
 * store, tried again on a change made meanwhile, so two updates of one server (from one process or several)
 * never lose one another: a mod-log failure note written after a post cannot bring back a channel just turned off.
 */
export class SettingsRepository {
	readonly #store: Store;
	readonly #atomic: AtomicStore;
	readonly #recent = new Map<string, { settings: GuildSettings; readAt: number }>();
	/** Servers with no settings left in the keyv store: nothing writes there any more, so one look each is enough. */
	readonly #noLegacy = new Set<string>();
	readonly #limitedServers: LimitedServers;

	constructor(store: Store, atomic: AtomicStore) {
		this.#store = store;
		this.#atomic = atomic;
		this.#limitedServers = new LimitedServers(atomic, {
			maxAgeMs: RECENT_SETTINGS_MS,
			scanLimited: () => this.#scanLimited(),
			// Settings this process read before another listed the server may predate its limit.
			onListed: (guildIds) => {
				for (const guildId of guildIds) this.#recent.delete(guildId);
			},
		});
	}

	/**
	 * The server's `asks_per_day` for an ask, at most {@link RECENT_SETTINGS_MS} old: nothing is read for a server
	 * that never set a limit but the list of those that did, itself read at most that often.
	 */
	async asksPerDay(guildId: string, now = Date.now()): Promise<number | undefined> {
		if (!(await this.#limitedServers.current(now)).has(guildId)) return undefined;
		return (await this.getRecent(guildId, now)).asksPerDay;
	}

	async get(guildId: string): Promise<GuildSettings> {
		const settings = parse((await this.#read(guildId)).settings);
		this.#remember(guildId, settings);
		return settings;
	}

	/**
	 * The settings as read at most {@link RECENT_SETTINGS_MS} ago (in this process, or changed by it since), else
	 * read now. For every ask (its server's daily limit), where one or two store reads each time would cost more
	 * than a change that reaches this process a few seconds late.
	 */
	async getRecent(guildId: string, now = Date.now()): Promise<GuildSettings> {
		const recent = this.#recent.get(guildId);
		if (recent && now - recent.readAt < RECENT_SETTINGS_MS) return recent.settings;
		return this.get(guildId);
	}

	async update(guildId: string, change: (current: GuildSettings) => GuildSettings): Promise<GuildSettings> {
		for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
			const { raw, settings } = await this.#read(guildId);
			const next = change(parse(settings));
			// Listed first: a limit stored without it would not be read by the asks of other processes.
			if (next.asksPerDay !== undefined) await this.#limitedServers.add(guildId);
			if (await this.#atomic.compareAndSet(key(guildId), raw, JSON.stringify(next))) {
				this.#remember(guildId, next);
				if (raw === undefined) await this.#store.delete('settings', guildId).catch(() => undefined);
				return next;
			}
		}
		throw new StoreError(`settings of a server kept changing during ${UPDATE_ATTEMPTS} tries of an update`);
	}

	/**
	 * Whether the server's settings, as this process last read or wrote them, set a daily limit; for a server not
	 * read lately, whether the list of limited servers last read holds it. A guess that a read decides: another
	 * process may have set a limit since.
	 */
	lastSeenLimited(guildId: string): boolean {
		const recent = this.#recent.get(guildId);
		return recent ? recent.settings.asksPerDay !== undefined : this.#limitedServers.lastSeen(guildId);
	}

	#remember(guildId: string, settings: GuildSettings): void {
		this.#recent.delete(guildId);
		this.#recent.set(guildId, { settings, readAt: Date.now() });
		if (this.#recent.size > RECENT_SETTINGS_MAX) this.#recent.delete(this.#recent.keys().next().value as string);
	}

	/** The stored text (what a compare-and-set expects) and its value; settings from before live in the keyv store. */
	async #read(guildId: string): Promise<{ raw: string | undefined; settings: unknown }> {
		const raw = await this.#atomic.read(key(guildId));
		if (raw !== undefined || this.#noLegacy.has(guildId)) return { raw, settings: raw === undefined ? undefined : safeJson(raw) };
		const legacy = await this.#store.get('settings', guildId);
		if (legacy === undefined && this.#noLegacy.size < NO_LEGACY_MAX) this.#noLegacy.add(guildId);
		return { raw, settings: legacy };
	}

	/** The servers whose stored settings set a limit (the list's start, in a store from before it). */
	async #scanLimited(): Promise<string[]> {
		const stored = await this.#atomic.readPrefixed(KEY_PREFIX);
		return stored.filter(({ value }) => parse(safeJson(value)).asksPerDay !== undefined).map(({ key }) => key.slice(KEY_PREFIX.length));
	}
}

const KEY_PREFIX = 'settings:';

function key(guildId: string): string {
	return `${KEY_PREFIX}${guildId}`;
}

function parse(raw: unknown): GuildSettings {
	const parsed = guildSettingsSchema.safeParse(raw ?? {});
	return parsed.success ? parsed.data : {};
}

function safeJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}
