import type { AtomicStore, IndexEntry } from '../storage/atomicStore.js';

/** [flag id, created at (ms), channel id]. */
export type FlagIndexEntry = readonly [id: string, createdAt: number, channelId: string];

/** Past this many entries a server's index drops its oldest: listing stays one read, whatever the traffic. */
const INDEX_LIMIT = 5000;

export const INDEX_KEY_PREFIX = 'flag-index:';

/**
 * Each server's flags, newest first, as a sorted set the store updates atomically (a Redis sorted set, rows in
 * SQLite): flags created at once, by one process or several, all stay listed. Entries older than the retention
 * are dropped as new ones come.
 */
export class FlagIndex {
	readonly #atomic: AtomicStore;
	readonly #retentionMs: number;

	constructor(atomic: AtomicStore, retentionMs: number) {
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
		const entries = await this.#atomic.indexRead(indexKey(guildId), now - this.#retentionMs);
		// A member without its channel (an earlier version's) is moved at start; one written meanwhile is left out.
		return entries.map(fromMember).filter((entry): entry is FlagIndexEntry => entry !== undefined);
	}

	remove(guildId: string, entries: readonly FlagIndexEntry[]): Promise<void> {
		return this.#atomic.indexRemove(
			indexKey(guildId),
			entries.map((entry) => toMember(entry).member),
		);
	}
}

export function indexKey(guildId: string): string {
	return `${INDEX_KEY_PREFIX}${guildId}`;
}

// Flag ids and snowflakes hold no colon, so the member splits back unambiguously.
function toMember([id, createdAt, channelId]: FlagIndexEntry): IndexEntry {
	return { member: `${id}:${channelId}`, score: createdAt };
}

function fromMember({ member, score }: IndexEntry): FlagIndexEntry | undefined {
	const [id = '', channelId] = member.split(':');
	return channelId === undefined ? undefined : [id, score, channelId];
}
