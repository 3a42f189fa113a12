import { describe, expect, it } from 'vitest';
import { languageName } from '../../../src/i18n/languageNames.js';
import { serverLocaleOf } from '../../../src/moderation/serverLocale.js';
import { SettingsRepository } from '../../../src/settings/settingsRepository.js';
import { MemoryAtomicStore } from '../../../src/storage/memoryAtomicStore.js';
import { createLogger } from '../../../src/logging/logger.js';

const log = createLogger('silent');

describe("a server's language", () => {
	it("is the server's choice, else Discord's guild_locale, else English; a failed read leaves guild_locale", async () => {
		const settings = new SettingsRepository(new MemoryAtomicStore());
		expect(await serverLocaleOf('1', 'fr', { settings, log })).toBe('fr');
		expect(await serverLocaleOf('1', 'sv-SE', { settings, log })).toBe('en-US');
		await settings.update('1', (current) => ({ ...current, locale: 'de' }));
		expect(await serverLocaleOf('1', 'fr', { settings, log })).toBe('de');
		const failing = { getRecent: () => Promise.reject(new Error('store down')) } as unknown as SettingsRepository;
		expect(await serverLocaleOf('1', 'ja', { settings: failing, log })).toBe('ja');
	});

	it('drops a stored language Veil no longer speaks, and keeps the rest of the settings', async () => {
		const atomic = new MemoryAtomicStore();
		await atomic.compareAndSet('settings:1', undefined, JSON.stringify({ locale: 'xx-YY', asksPerDay: 5 }));
		expect(await new SettingsRepository(atomic).get('1')).toEqual({ asksPerDay: 5 });
	});
});

describe('language names', () => {
	it("names a language in the reader's words, then its own, as Discord's language picker does", () => {
		expect(languageName('de', 'en-US')).toBe('German · Deutsch');
		expect(languageName('de', 'de')).toBe('Deutsch');
		expect(languageName('fr', 'ja')).toBe('フランス語 · Français');
	});
});
