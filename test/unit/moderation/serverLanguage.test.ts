import { describe, expect, it } from 'vitest';
import { languageName } from '../../../src/i18n/languageNames.js';
import type { FlagRecord } from '../../../src/moderation/flagRepository.js';
import { memberLocaleOf } from '../../../src/moderation/releaseFlag.js';
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

describe("a member's language, for what reaches them alone", () => {
	const flag = (locale?: string) => ({ locale }) as FlagRecord;

	it("is the one they asked in, and for a flag kept before it was recorded, the server's", () => {
		expect(memberLocaleOf(flag('de'), 'fr')).toBe('de');
		expect(memberLocaleOf(flag('es-419'), 'fr')).toBe('es-ES');
		expect(memberLocaleOf(flag('sv-SE'), 'fr')).toBe('en-US');
		expect(memberLocaleOf(flag(undefined), 'fr')).toBe('fr');
	});
});

describe('language names', () => {
	it("names a language in the reader's words, then its own, as Discord's language picker does", () => {
		expect(languageName('de', 'en-US')).toBe('German · Deutsch');
		expect(languageName('de', 'de')).toBe('Deutsch');
		expect(languageName('fr', 'ja')).toBe('フランス語 · Français');
	});
});
