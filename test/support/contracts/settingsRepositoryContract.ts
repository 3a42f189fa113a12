import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import type { AtomicStore } from '../../../src/storage/atomicStore.js';
import { openStorage, type Storage } from '../../../src/storage/openStorage.js';
import { RECENT_SETTINGS_MS, SettingsRepository } from '../../../src/settings/settingsRepository.js';
import { DAILY_LIMITS_KEY } from '../../../src/settings/dailyLimits.js';
import { makeDailyLimitsIfMissing } from '../../../src/settings/settingsAtStart.js';

const logger = createLogger('silent');
const GUILD = '100000000000000002';

/** An atomic store that counts the reads made through it. */
function countingReads(atomic: AtomicStore): { atomic: AtomicStore; reads: () => number } {
	let reads = 0;
	const count = <T>(read: () => Promise<T>) => {
		reads++;
		return read();
	};
	const counted: AtomicStore = {
		...atomic,
		read: (key) => count(() => atomic.read(key)),
		readPrefixed: (prefix) => count(() => atomic.readPrefixed(prefix)),
		mapRead: (key) => count(() => atomic.mapRead(key)),
	};
	return { atomic: counted, reads: () => reads };
}

/** Erases the record of daily limits the way an eviction or a restore from an older copy would. */
async function loseLimitsRecord(storage: Storage, namespace: string): Promise<void> {
	const { backend } = storage;
	if (backend.kind === 'sqlite') await backend.query('DELETE FROM veil_maps WHERE key = ?', `${namespace}:${DAILY_LIMITS_KEY}`);
	else if (backend.kind === 'redis') await backend.client.del(`${namespace}:atomic:${DAILY_LIMITS_KEY}`);
}

/** Settings read and written by two processes on one store (test/unit/settings runs it on SQLite, test/services/ on Redis). */
export function settingsRepositoryContract(makeUrl: () => string): void {
	let namespace: string;
	let open: Storage[];
	let here: SettingsRepository;
	let elsewhere: SettingsRepository;

	beforeAll(async () => {
		const url = makeUrl();
		namespace = `settings-${randomUUID()}`;
		open = [await openStorage(url, logger, { namespace }), await openStorage(url, logger, { namespace })];
		[here, elsewhere] = open.map(({ atomic }) => new SettingsRepository(atomic)) as [SettingsRepository, SettingsRepository];
		await makeDailyLimitsIfMissing(here, open[0]!.atomic, logger);
	});
	afterAll(async () => {
		for (const storage of open) await storage.close();
	});

	it("sees its own process's change at once, another process's once its read is older than the window", async () => {
		const start = Date.now();
		expect((await here.getRecent(GUILD, start)).asksPerDay).toBeUndefined();
		await here.update(GUILD, (settings) => ({ ...settings, asksPerDay: 3 }));
		expect((await here.getRecent(GUILD, start)).asksPerDay).toBe(3);
		await elsewhere.update(GUILD, (settings) => ({ ...settings, asksPerDay: 7 }));
		expect((await here.getRecent(GUILD, Date.now() + RECENT_SETTINGS_MS - 1000)).asksPerDay).toBe(3);
		expect((await here.get(GUILD)).asksPerDay).toBe(7);
		await elsewhere.update(GUILD, (settings) => ({ ...settings, asksPerDay: undefined }));
		expect((await here.getRecent(GUILD, Date.now() + RECENT_SETTINGS_MS + 1)).asksPerDay).toBeUndefined();
	});

	it("reads one record for every server's asks, at most once a window, and another process's new limit after it", async () => {
		const counted = countingReads(open[0]!.atomic);
		const asking = new SettingsRepository(counted.atomic);
		const start = Date.now();
		const quiet = Array.from({ length: 50 }, (_, n) => `2000000000000000${String(n).padStart(2, '0')}`);
		for (const guildId of quiet) expect(await asking.asksPerDay(guildId, start)).toBeUndefined();
		expect(counted.reads()).toBe(1);
		for (const guildId of quiet) expect(await asking.asksPerDay(guildId, start + 1000)).toBeUndefined();
		expect(counted.reads()).toBe(1);

		const limitedElsewhere = quiet[7]!;
		await elsewhere.update(limitedElsewhere, (settings) => ({ ...settings, asksPerDay: 4 }));
		expect(await asking.asksPerDay(limitedElsewhere, start + RECENT_SETTINGS_MS - 1)).toBeUndefined();
		expect(await asking.asksPerDay(limitedElsewhere, Date.now() + RECENT_SETTINGS_MS)).toBe(4);
		expect(await asking.asksPerDay(quiet[8]!, Date.now() + RECENT_SETTINGS_MS)).toBeUndefined();

		await elsewhere.update(limitedElsewhere, (settings) => ({ ...settings, asksPerDay: undefined }));
		expect(await asking.asksPerDay(limitedElsewhere, Date.now() + 2 * RECENT_SETTINGS_MS)).toBeUndefined();
	});

	it("applies its own process's new limit at once, even with the record read just before", async () => {
		const guildId = '300000000000000001';
		expect(await here.asksPerDay(guildId)).toBeUndefined();
		await here.update(guildId, (settings) => ({ ...settings, asksPerDay: 2 }));
		expect(await here.asksPerDay(guildId)).toBe(2);
	});

	it('loses no server when processes set limits in many servers at once', async () => {
		const guildIds = Array.from({ length: 12 }, (_, n) => `40000000000000000${String(n).padStart(2, '0')}`);
		await Promise.all(
			guildIds.map((guildId, n) => (n % 2 === 0 ? here : elsewhere).update(guildId, (settings) => ({ ...settings, asksPerDay: n + 1 }))),
		);
		const fresh = new SettingsRepository(open[0]!.atomic);
		expect(await Promise.all(guildIds.map((guildId) => fresh.asksPerDay(guildId)))).toEqual(guildIds.map((_, n) => n + 1));
	});

	it('keeps every limit when the record of limits is lost, and the next start makes it again', async () => {
		const limited = '600000000000000001';
		await here.update(limited, (settings) => ({ ...settings, asksPerDay: 5 }));
		await loseLimitsRecord(open[0]!, namespace);

		const counted = countingReads(open[1]!.atomic);
		const asking = new SettingsRepository(counted.atomic);
		expect(await asking.asksPerDay(limited)).toBe(5);
		expect(await asking.asksPerDay('600000000000000002')).toBeUndefined();
		expect((await asking.get(limited)).asksPerDay).toBe(5);

		await makeDailyLimitsIfMissing(asking, open[1]!.atomic, logger);
		const readsBefore = counted.reads();
		const restarted = new SettingsRepository(counted.atomic);
		expect(await restarted.asksPerDay(limited)).toBe(5);
		expect(await restarted.asksPerDay('600000000000000002')).toBeUndefined();
		// Made whole again: one read of the record answers every server.
		expect(counted.reads() - readsBefore).toBe(1);
	});

	it('makes the record on the first start of this version, from the old list of limited servers or from the settings', async () => {
		const { atomic } = open[0]!;
		const limited = '700000000000000001';
		const unlisted = '700000000000000002';
		for (const [guildId, asksPerDay] of [
			[limited, 3],
			[unlisted, 4],
		] as const) {
			await atomic.compareAndSet(`settings:${guildId}`, await atomic.read(`settings:${guildId}`), JSON.stringify({ asksPerDay }));
		}
		await loseLimitsRecord(open[0]!, namespace);
		// The previous version's list, which knew only the first.
		await atomic.compareAndSet('limited-servers', await atomic.read('limited-servers'), JSON.stringify([limited]));
		await makeDailyLimitsIfMissing(new SettingsRepository(atomic), atomic, logger);
		const fromList = await new SettingsRepository(atomic).limits.current();
		expect(fromList.whole && fromList.limits.get(limited)).toBe(3);
		expect(fromList.whole && fromList.limits.has(unlisted)).toBe(false);
		expect(await atomic.read('limited-servers')).toBeUndefined();

		await loseLimitsRecord(open[0]!, namespace);
		await atomic.compareAndSet('limited-servers', undefined, '{"not":"a list"}');
		await makeDailyLimitsIfMissing(new SettingsRepository(atomic), atomic, logger);
		const fromSettings = await new SettingsRepository(atomic).limits.current();
		expect(fromSettings.whole && [fromSettings.limits.get(limited), fromSettings.limits.get(unlisted)]).toEqual([3, 4]);
	});
}
