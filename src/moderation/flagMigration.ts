import { z } from 'zod';
import type { Logger } from '../logging/logger.js';
import type { AtomicStore } from '../storage/atomicStore.js';
import type { Store } from '../storage/store.js';
import { DAY_MS } from '../time/durations.js';
import { FlagIndex, INDEX_KEY_PREFIX, type FlagIndexEntry } from './flagIndex.js';
import type { FlagRepository } from './flagRepository.js';

/** Set once the flags of earlier versions' shapes have been moved; spares every later start the look. */
const MOVED_MARKER = 'moved:flags-v2';

// How indexes were kept before they were sorted sets: one JSON array per server in the keyv store.
const keyvIndexSchema = z.array(z.union([z.tuple([z.string(), z.number(), z.string()]), z.tuple([z.string(), z.number()])]));
const storedShapeSchema = z.object({ version: z.number().optional(), private: z.boolean().optional() });

/**
 * Moves, once per store, what earlier versions kept in older shapes, so that nothing on a moderator's path reads
 * them: indexes kept in the keyv store, index entries without their channel, and flags without `private` (set from
 * whether the ask left a public notice, the reading that never posts a private ask in public). Each step is
 * idempotent and writes what any process would write, so processes starting together may each run it.
 */
export async function moveLegacyFlags(store: Store, atomic: AtomicStore, flags: FlagRepository, logger: Logger): Promise<void> {
	if ((await atomic.read(MOVED_MARKER)) !== undefined) return;
	const index = new FlagIndex(atomic, flags.retentionDays * DAY_MS);
	let moved = 0;

	for (const [guildId, raw] of await store.entries('flag-index')) {
		const parsed = keyvIndexSchema.safeParse(raw);
		if (parsed.success) {
			await index.add(guildId, await withChannels(guildId, parsed.data, flags));
			moved += parsed.data.length;
		}
		await store.delete('flag-index', guildId);
	}

	for (const key of await atomic.indexKeys(INDEX_KEY_PREFIX)) {
		const guildId = key.slice(INDEX_KEY_PREFIX.length);
		const bare = (await atomic.indexRead(key, Number.NEGATIVE_INFINITY)).filter(({ member }) => !member.includes(':'));
		if (bare.length === 0) continue;
		await index.add(
			guildId,
			await withChannels(
				guildId,
				bare.map(({ member, score }) => [member, score] as const),
				flags,
			),
		);
		await atomic.indexRemove(
			key,
			bare.map(({ member }) => member),
		);
		moved += bare.length;
	}

	for (const [key, raw] of await store.entries('flags')) {
		const shape = storedShapeSchema.safeParse(raw);
		if (!shape.success || (shape.data.version === 2 && shape.data.private !== undefined)) continue;
		const [guildId = '', id = ''] = key.split(':');
		const flag = await flags.find(guildId, id);
		if (!flag) continue;
		await flags.replace({ ...flag, private: flag.private ?? flag.noticeMessageId === undefined });
		moved++;
	}

	await atomic.compareAndSet(MOVED_MARKER, undefined, new Date().toISOString());
	if (moved > 0) logger.info({ moved }, 'flags and index entries of earlier versions moved');
}

/** The entries with their channel, read from each flag's record; entries whose flag is gone are left out. */
async function withChannels(
	guildId: string,
	entries: ReadonlyArray<readonly [string, number] | readonly [string, number, string]>,
	flags: FlagRepository,
): Promise<FlagIndexEntry[]> {
	const found: FlagIndexEntry[] = [];
	for (const entry of entries) {
		const [id, createdAt] = entry;
		const channelId = entry.length === 3 ? entry[2] : (await flags.find(guildId, id))?.channelId;
		if (channelId !== undefined) found.push([id, createdAt, channelId]);
	}
	return found;
}
