import { z } from 'zod';
import type { AtomicStore } from '../storage/atomicStore.js';
import { StoreError } from '../storage/storeError.js';
import { DailyLimits, limitFor, roleLimitField } from './dailyLimits.js';
import { Instructions } from './instructions.js';
import { SUPPORTED_LOCALES } from '../i18n/locales.js';

const guildSettingsSchema = z.object({
	modlogChannelId: z.string().optional(),
	/** The last mod-log post that failed, reported by the next `/settings modlog`. */
	modlogFailure: z.object({ at: z.string(), reason: z.string(), kind: z.string().optional() }).optional(),
	/** Each member's asks a UTC day in this server (`/settings limits`); unset: no limit. */
	asksPerDay: z.number().int().positive().optional(),
	/** Roles' own daily limits (`/settings limits asks_per_day role`), by role id; 0: none for its members. */
	roleAsksPerDay: z.record(z.string(), z.number().int().nonnegative()).optional(),
	/** Whether a member is told by DM when their held answer is dismissed (`/settings notify`); unset: not told. */
	notifyDismissals: z.boolean().optional(),
	/**
	 * The server's language for its mod-log posts and released answers (`/settings language`); unset: Discord's
	 * `guild_locale`. One Veil no longer speaks is dropped, not the whole record.
	 */
	locale: z.enum(SUPPORTED_LOCALES).optional().catch(undefined),
	/** Whether a mention of Veil is a turn (`/settings mentions`): off in the whole server, or in these channels; unset: on. */
	mentions: z
		.object({ off: z.boolean().optional(), offIn: z.array(z.string()).optional() })
		.optional()
		.catch(undefined),
});

export type GuildSettings = z.infer<typeof guildSettingsSchema>;

/** Tries of one update before it gives up: each lost try means another process changed the same server just then. */
const UPDATE_ATTEMPTS = 10;

/**
 * How long a read for the ask path may be reused (the daily limits, a server's settings): how late another
 * process's change may reach this one.
 */
export const RECENT_SETTINGS_MS = 10_000;
/** Servers whose recent read is kept at most; past it the oldest are forgotten (and read again when next needed). */
const RECENT_SETTINGS_MAX = 10_000;

const KEY_PREFIX = 'settings:';

/**
 * Per-server settings. A missing record means the defaults: no mod-log, no limit. An update is a compare-and-set in
 * the store, tried again on a change made meanwhile, so two updates of one server (from one process or several)
 * never lose one another: a mod-log failure note written after a post cannot bring back a channel just turned off.
 *
 * A daily limit is kept twice: in the server's settings, which say what `/settings limits` shows, and in the record
 * of every server's limit (DailyLimits), which the asks read.
 */
export class SettingsRepository {
	readonly #atomic: AtomicStore;
	readonly #recent = new Map<string, { settings: GuildSettings; readAt: number }>();
	readonly limits: DailyLimits;
	/** Standing instructions, per server and channel: a record of their own, read like the daily limits. */
	readonly instructions: Instructions;

	constructor(atomic: AtomicStore) {
		this.#atomic = atomic;
		this.limits = new DailyLimits(atomic, RECENT_SETTINGS_MS);
		this.instructions = new Instructions(atomic, RECENT_SETTINGS_MS);
	}

	/**
	 * The server's `asks_per_day` for an ask, at most {@link RECENT_SETTINGS_MS} old: one read of every server's limit
	 * at most that often. Should that record be missing (lost, or not yet made at this start), the server's own
	 * settings say it instead: a lost record never switches a limit off. With the member's `roleIds`, a limit of
	 * their roles replaces the server's (see limitFor).
	 */
	async asksPerDay(guildId: string, now = Date.now(), roleIds: readonly string[] = []): Promise<number | undefined> {
		const known = await this.limits.current(now);
		if (known.whole) {
			const roleLimits = roleIds.flatMap((roleId) => known.limits.get(roleLimitField(guildId, roleId)) ?? []);
			return limitFor(known.limits.get(guildId), roleLimits);
		}
		const { asksPerDay, roleAsksPerDay = {} } = await this.getRecent(guildId, now);
		return limitFor(
			asksPerDay,
			roleIds.flatMap((roleId) => (Object.hasOwn(roleAsksPerDay, roleId) ? (roleAsksPerDay[roleId] ?? []) : [])),
		);
	}

	async get(guildId: string): Promise<GuildSettings> {
		const settings = parse((await this.#read(guildId)).settings);
		this.#remember(guildId, settings);
		return settings;
	}

	/** The settings as read at most {@link RECENT_SETTINGS_MS} ago (in this process, or changed by it since), else read now. */
	async getRecent(guildId: string, now = Date.now()): Promise<GuildSettings> {
		const recent = this.#recent.get(guildId);
		if (recent && now - recent.readAt < RECENT_SETTINGS_MS) return recent.settings;
		return this.get(guildId);
	}

	async update(guildId: string, change: (current: GuildSettings) => GuildSettings): Promise<GuildSettings> {
		for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
			const { raw, settings } = await this.#read(guildId);
			const current = parse(settings);
			const next = change(current);
			// The asks' record first: a limit shown by /settings is then always one the asks apply.
			await this.limits.set(limitChanges(guildId, current, next));
			if (await this.#atomic.compareAndSet(key(guildId), raw, JSON.stringify(next))) {
				this.#remember(guildId, next);
				return next;
			}
		}
		throw new StoreError(`settings of a server kept changing during ${UPDATE_ATTEMPTS} tries of an update`);
	}

	/**
	 * Every server's stored limit: what the record of limits is made from when a start finds it missing. A look at
	 * all settings, made once at start, never on an ask's path.
	 */
	async storedLimits(): Promise<Map<string, number>> {
		const stored = await this.#atomic.readPrefixed(KEY_PREFIX);
		const limits = new Map<string, number>();
		for (const { key: stored_key, value } of stored) {
			const guildId = stored_key.slice(KEY_PREFIX.length);
			const { asksPerDay, roleAsksPerDay = {} } = parse(safeJson(value));
			if (asksPerDay !== undefined) limits.set(guildId, asksPerDay);
			for (const [roleId, limit] of Object.entries(roleAsksPerDay)) limits.set(roleLimitField(guildId, roleId), limit);
		}
		return limits;
	}

	#remember(guildId: string, settings: GuildSettings): void {
		this.#recent.delete(guildId);
		this.#recent.set(guildId, { settings, readAt: Date.now() });
		if (this.#recent.size > RECENT_SETTINGS_MAX) this.#recent.delete(this.#recent.keys().next().value as string);
	}

	/** The stored text (what a compare-and-set expects) and its value. */
	async #read(guildId: string): Promise<{ raw: string | undefined; settings: unknown }> {
		const raw = await this.#atomic.read(key(guildId));
		return { raw, settings: raw === undefined ? undefined : safeJson(raw) };
	}
}

/** The fields of the record of limits an update changes: the server's, and each role's set, changed or removed. */
function limitChanges(guildId: string, current: GuildSettings, next: GuildSettings): Array<[string, number | undefined]> {
	const changes: Array<[string, number | undefined]> = [];
	if (next.asksPerDay !== current.asksPerDay) changes.push([guildId, next.asksPerDay]);
	const before = current.roleAsksPerDay ?? {};
	const after = next.roleAsksPerDay ?? {};
	for (const roleId of new Set([...Object.keys(before), ...Object.keys(after)])) {
		if (before[roleId] !== after[roleId]) changes.push([roleLimitField(guildId, roleId), after[roleId]]);
	}
	return changes;
}

export function settingsKey(guildId: string): string {
	return `${KEY_PREFIX}${guildId}`;
}
const key = settingsKey;

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
