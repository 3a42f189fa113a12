import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import { openAtomicStore, type AtomicStore } from '../../../src/storage/atomicStore.js';
import { RECENT_SETTINGS_MS, SettingsRepository } from '../../../src/storage/settingsRepository.js';
import { openStore, type Store } from '../../../src/storage/store.js';

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
