import { z } from 'zod';
import type { AtomicStore, IndexEntry } from '../storage/atomicStore.js';
import type { Store } from '../storage/store.js';

/** [flag id, created at (ms), channel id]; entries from before the channel id was kept have two items. */
export type FlagIndexEntry = readonly [id: string, createdAt: number, channelId: string] | readonly [id: string, createdAt: number];

// How indexes were kept before they were sorted sets: one JSON array per server in the keyv store.
const legacySchema = z.array(z.union([z.tuple([z.string(), z.number(), z.string()]), z.tuple([z.string(), z.number()])]));

/** Past this many entries a server's index drops its oldest: listing stays one read, whatever the traffic. */
const INDEX_LIMIT = 5000;

/**
 * Each server's flags, newest first, as a sorted set the store updates atomically (a Redis sorted set, rows in
 * SQLite): flags created at once, by one process or several, all stay listed. Entries older than the retention
 * are dropped as new ones come.
 */
export class FlagIndex {
	readonly #store: Store;
	readonly #atomic: AtomicStore;
	readonly #retentionMs: number;

	constructor(store: Store, atomic: AtomicStore, retentionMs: number) {
		this.#store = store;
		this.#atomic = atomic;
		this.#retentionMs = retentionMs;
	}

	add(guildId: string, entries: readonly FlagIndexEntry[], now = Date.now()): Promise<void> {
		return this.#atomic.indexAdd(indexKey(guildId), entries.map(toMember), {
			limit: INDEX_LIMIT,
			minScore: now - this.#retentionMs,
			ttlMs: this.#retentionMs,
		});
	}

	/** The server's live entries, newest first. */
	async read(guildId: string, now = Date.now()): Promise<FlagIndexEntry[]> {
		const cutoff = now - this.#retentionMs;
		await this.#importLegacy(guildId, now);
		return (await this.#atomic.indexRead(indexKey(guildId), cutoff)).map(fromMember);
	}

	remove(guildId: string, entries: readonly FlagIndexEntry[]): Promise<void> {
		return this.#atomic.indexRemove(indexKey(guildId), entries.map((entry) => toMember(entry).member));
	}

	/** Moves a server's index from the keyv store, where earlier versions kept it, into the sorted set, once. */
	async #importLegacy(guildId: string, now: number): Promise<void> {
		const legacy = legacySchema.safeParse(await this.#store.get('flag-index', guildId));
		if (!legacy.success) return;
		if (legacy.data.length > 0) await this.add(guildId, legacy.data, now);
		await this.#store.delete('flag-index', guildId);
	}
}

function indexKey(guildId: string): string {
	return `flag-index:${guildId}`;
}

// Flag ids and snowflakes hold no colon, so the member splits back unambiguously.
function toMember([id, createdAt, channelId]: FlagIndexEntry): IndexEntry {
	return { member: channelId === undefined ? id : `${id}:${channelId}`, score: createdAt };
}

function fromMember({ member, score }: IndexEntry): FlagIndexEntry {
	const [id = '', channelId] = member.split(':');
	return channelId === undefined ? [id, score] : [id, score, channelId];
}
