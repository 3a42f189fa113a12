import { z } from 'zod';
import type { Logger } from '../logging/logger.js';
import type { AtomicStore } from '../storage/atomicStore.js';
import type { Store } from '../storage/store.js';
import { settingsKey, type SettingsRepository } from './settingsRepository.js';

/** Set once every server's settings have left the keyv store, where versions before compare-and-set kept them. */
const MOVED_MARKER = 'moved:keyv-settings';

/**
 * Moves settings an earlier version kept in the keyv store to where they are read now, once per store: each is
 * written only where there is no newer record, then erased from keyv. Several processes starting at once each move
 * the same records to the same place; a marker spares every later start the look.
 */
export async function moveLegacySettings(store: Store, atomic: AtomicStore, logger: Logger): Promise<void> {
	if ((await atomic.read(MOVED_MARKER)) !== undefined) return;
	const legacy = await store.entries('settings');
	for (const [guildId, settings] of legacy) {
		await atomic.compareAndSet(settingsKey(guildId), undefined, JSON.stringify(settings));
		await store.delete('settings', guildId);
	}
	await atomic.compareAndSet(MOVED_MARKER, undefined, new Date().toISOString());
	if (legacy.length > 0) logger.info({ servers: legacy.length }, 'settings moved from the keyv store');
}

/** The list of servers that might have a limit, as versions before the record of limits kept it. */
const OLD_LIST_KEY = 'limited-servers';
const oldListSchema = z.array(z.string());

/**
 * Makes the record of daily limits when a start finds it missing: on the first start of this version, or after the
 * store lost it. From the old list of limited servers when there is one (a read per listed server), else from every
 * server's settings (one look at them all). Run in the background at start: until it is done, asks read their
 * server's own settings instead, so no limit is ever off meanwhile. Several processes starting at once each make
 * the same record; what a change set meanwhile is kept (see DailyLimits.make).
 */
export async function makeDailyLimitsIfMissing(settings: SettingsRepository, atomic: AtomicStore, logger: Logger): Promise<void> {
	if ((await settings.limits.current(Number.POSITIVE_INFINITY)).whole) return;
	const oldList = await atomic.read(OLD_LIST_KEY);
	const listed = oldListSchema.safeParse(parseJson(oldList));
	let limits: Map<string, number>;
	if (listed.success) {
		limits = new Map();
		for (const guildId of listed.data) {
			const { asksPerDay } = await settings.get(guildId);
			if (asksPerDay !== undefined) limits.set(guildId, asksPerDay);
			// The old list predates limits by role: none to carry over.
		}
	} else {
		limits = await settings.storedLimits();
	}
	await settings.limits.make(limits);
	// The old list has done its part: nothing reads it any more.
	if (oldList !== undefined) await atomic.release(OLD_LIST_KEY, oldList);
	logger.info({ limitedServers: limits.size, from: listed.success ? 'old list' : 'settings' }, 'record of daily limits made');
}

function parseJson(text: string | undefined): unknown {
	if (text === undefined) return undefined;
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}
