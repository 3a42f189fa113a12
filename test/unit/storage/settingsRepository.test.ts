import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import type { AtomicStore } from '../../../src/storage/atomicStore.js';
import { openStore, openAtomicStore } from '../../../src/storage/openStorage.js';
import { RECENT_SETTINGS_MS, SettingsRepository } from '../../../src/storage/settingsRepository.js';
import type { Store } from '../../../src/storage/store.js';

const logger = createLogger('silent');
const dir = mkdtempSync(join(tmpdir(), 'veil-settings-'));
const storeUrl = `sqlite://${join(dir, 'bot.sqlite')}`;
const GUILD = '100000000000000002';

/** Two processes' repositories on one SQLite file. */
let open: Array<{ store: Store; atomic: AtomicStore }> = [];
let here: SettingsRepository;
let elsewhere: SettingsRepository;

beforeAll(async () => {
	open = [];
	for (let n = 0; n < 2; n++) open.push({ store: await openStore(storeUrl, logger), atomic: await openAtomicStore(storeUrl, logger) });
	[here, elsewhere] = open.map(({ store, atomic }) => new SettingsRepository(store, atomic)) as [SettingsRepository, SettingsRepository];
});
afterAll(async () => {
	for (const { store, atomic } of open) await Promise.all([store.close(), atomic.close()]);
	rmSync(dir, { recursive: true, force: true });
});

describe('SettingsRepository.getRecent', () => {
	it("sees its own process's change at once, another process's once its read is older than the window", async () => {
		const start = Date.now();
		expect((await here.getRecent(GUILD, start)).asksPerDay).toBeUndefined();

		await here.update(GUILD, (settings) => ({ ...settings, asksPerDay: 3 }));
		expect((await here.getRecent(GUILD, start)).asksPerDay).toBe(3);

		await elsewhere.update(GUILD, (settings) => ({ ...settings, asksPerDay: 7 }));
		// Within the window the earlier read stands; get() always reads.
		expect((await here.getRecent(GUILD, Date.now() + RECENT_SETTINGS_MS - 1000)).asksPerDay).toBe(3);
		expect((await here.get(GUILD)).asksPerDay).toBe(7);

		await elsewhere.update(GUILD, (settings) => ({ ...settings, asksPerDay: undefined }));
		expect((await here.getRecent(GUILD, Date.now() + RECENT_SETTINGS_MS + 1)).asksPerDay).toBeUndefined();
	});
});

/** An atomic store that counts the reads made through it. */
function countingReads(atomic: AtomicStore): { atomic: AtomicStore; reads: () => number } {
	let reads = 0;
	const counted: AtomicStore = {
		...atomic,
		read: (key) => {
			reads++;
			return atomic.read(key);
		},
		readPrefixed: (prefix) => {
			reads++;
			return atomic.readPrefixed(prefix);
		},
	};
	return { atomic: counted, reads: () => reads };
}

describe('SettingsRepository.asksPerDay', () => {
	it("reads one list for every server without a limit, at most once a window, and another process's new limit after it", async () => {
		const [{ store, atomic }] = open as [{ store: Store; atomic: AtomicStore }];
		const counted = countingReads(atomic);
		const asking = new SettingsRepository(store, counted.atomic);
		const start = Date.now();
		const quiet = Array.from({ length: 50 }, (_, n) => `2000000000000000${String(n).padStart(2, '0')}`);
		for (const guildId of quiet) expect(await asking.asksPerDay(guildId, start)).toBeUndefined();
		const afterFirst = counted.reads();
		expect(afterFirst).toBeLessThanOrEqual(2);
		for (const guildId of quiet) expect(await asking.asksPerDay(guildId, start + 1000)).toBeUndefined();
		expect(counted.reads()).toBe(afterFirst);

		const limitedElsewhere = quiet[7] as string;
		await elsewhere.update(limitedElsewhere, (settings) => ({ ...settings, asksPerDay: 4 }));
		// Within the window the list read before stands; past it, the new limit counts.
		expect(await asking.asksPerDay(limitedElsewhere, start + RECENT_SETTINGS_MS - 1)).toBeUndefined();
		expect(await asking.asksPerDay(limitedElsewhere, Date.now() + RECENT_SETTINGS_MS)).toBe(4);
		expect(asking.lastSeenLimited(limitedElsewhere)).toBe(true);
		expect(await asking.asksPerDay(quiet[8] as string, Date.now() + RECENT_SETTINGS_MS)).toBeUndefined();

		await elsewhere.update(limitedElsewhere, (settings) => ({ ...settings, asksPerDay: undefined }));
		expect(await asking.asksPerDay(limitedElsewhere, Date.now() + 2 * RECENT_SETTINGS_MS)).toBeUndefined();
		expect(asking.lastSeenLimited(limitedElsewhere)).toBe(false);
	});

	it('applies its own process’s new limit at once, even with the list read just before', async () => {
		const guildId = '300000000000000001';
		expect(await here.asksPerDay(guildId)).toBeUndefined();
		await here.update(guildId, (settings) => ({ ...settings, asksPerDay: 2 }));
		expect(await here.asksPerDay(guildId)).toBe(2);
		expect(here.lastSeenLimited(guildId)).toBe(true);
	});

	it('loses no server when processes set limits in many servers at once', async () => {
		const guildIds = Array.from({ length: 12 }, (_, n) => `40000000000000000${String(n).padStart(2, '0')}`);
		await Promise.all(guildIds.map((guildId, n) => (n % 2 === 0 ? here : elsewhere).update(guildId, (settings) => ({ ...settings, asksPerDay: n + 1 }))));
		const [{ store, atomic }] = open as [{ store: Store; atomic: AtomicStore }];
		const fresh = new SettingsRepository(store, atomic);
		expect(await Promise.all(guildIds.map((guildId) => fresh.asksPerDay(guildId)))).toEqual(guildIds.map((_, n) => n + 1));
	});
});

describe('SettingsRepository.asksPerDay on a store from before the list of limited servers', () => {
	it('finds the limits already stored, and a list that is not one is made again', async () => {
		const older = mkdtempSync(join(tmpdir(), 'veil-settings-older-'));
		const url = `sqlite://${join(older, 'bot.sqlite')}`;
		const store = await openStore(url, logger);
		const atomic = await openAtomicStore(url, logger);
		try {
			// As the previous version stored them: settings by compare-and-set, and no list.
			await atomic.compareAndSet('settings:500000000000000001', undefined, JSON.stringify({ asksPerDay: 3 }));
			await atomic.compareAndSet('settings:500000000000000002', undefined, JSON.stringify({ modlogChannelId: '1' }));
			const upgraded = new SettingsRepository(store, atomic);
			expect(await upgraded.asksPerDay('500000000000000001')).toBe(3);
			expect(await upgraded.asksPerDay('500000000000000002')).toBeUndefined();

			await atomic.compareAndSet('limited-servers', await atomic.read('limited-servers'), '{"not":"a list"}');
			const again = new SettingsRepository(store, atomic);
			expect(await again.asksPerDay('500000000000000001')).toBe(3);
			expect(JSON.parse((await atomic.read('limited-servers')) ?? '')).toEqual(['500000000000000001']);
		} finally {
			await Promise.all([store.close(), atomic.close()]);
			rmSync(older, { recursive: true, force: true });
		}
	});
});
