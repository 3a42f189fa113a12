import { z } from 'zod';
import { KeyedLock } from './keyedLock.js';
import type { Store } from './store.js';

const guildSettingsSchema = z.object({
	modlogChannelId: z.string().optional(),
	/** The last mod-log post that failed, reported by the next `/settings modlog`. */
	modlogFailure: z.object({ at: z.string(), reason: z.string() }).optional(),
});

export type GuildSettings = z.infer<typeof guildSettingsSchema>;

/**
 * Per-server settings. A missing record means the defaults: no mod-log. Updates to one server's settings run one
 * at a time, so a mod-log failure note written after a post cannot bring back a channel just turned off.
 */
export class SettingsRepository {
	readonly #store: Store;
	readonly #locks = new KeyedLock();

	constructor(store: Store) {
		this.#store = store;
	}

	async get(guildId: string): Promise<GuildSettings> {
		const raw = await this.#store.get('settings', guildId);
		const parsed = guildSettingsSchema.safeParse(raw ?? {});
		return parsed.success ? parsed.data : {};
	}

	update(guildId: string, change: (current: GuildSettings) => GuildSettings): Promise<GuildSettings> {
		return this.#locks.run(guildId, async () => {
			const next = change(await this.get(guildId));
			await this.#store.set('settings', guildId, next);
			return next;
		});
	}
}
