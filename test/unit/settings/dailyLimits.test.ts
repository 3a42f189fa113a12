import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAILY_LIMITS_KEY, limitFor } from '../../../src/settings/dailyLimits.js';
import { SettingsRepository } from '../../../src/settings/settingsRepository.js';
import { MemoryAtomicStore } from '../../../src/storage/memoryAtomicStore.js';

const GUILD = '100000000000000009';

describe('the limit a member meets', () => {
	it("is the server's without a limited role, else the highest of their roles', none when one of them has none", () => {
		fc.assert(
			fc.property(fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }), fc.array(fc.integer({ min: 0, max: 100 })), (server, roles) => {
				const applied = limitFor(server, roles);
				if (roles.length === 0) expect(applied).toBe(server);
				else if (roles.includes(0)) expect(applied).toBeUndefined();
				else expect(applied).toBe(Math.max(...roles));
			}),
		);
	});

	it("reads roles' limits from the record of limits, and from the server's settings when the record is lost", async () => {
		const atomic = new MemoryAtomicStore();
		const settings = new SettingsRepository(atomic);
		await settings.limits.make(new Map());
		await settings.update(GUILD, (current) => ({ ...current, asksPerDay: 2, roleAsksPerDay: { trial: 1, regular: 3, staff: 0 } }));
		const now = Date.now();
		const check = async (at: number) => {
			expect(await settings.asksPerDay(GUILD, at, [])).toBe(2);
			expect(await settings.asksPerDay(GUILD, at, ['trial', 'other'])).toBe(1);
			expect(await settings.asksPerDay(GUILD, at, ['trial', 'regular'])).toBe(3);
			expect(await settings.asksPerDay(GUILD, at, ['regular', 'staff'])).toBeUndefined();
		};
		await check(now);
		await atomic.mapWrite(
			DAILY_LIMITS_KEY,
			[...(await atomic.mapRead(DAILY_LIMITS_KEY)).keys()].map((field) => [field, undefined] as const),
		);
		await check(now + 60_000);
		// Made again from the settings, the record has the roles too.
		await settings.limits.make(await settings.storedLimits());
		await check(now + 120_000);
		expect((await atomic.mapRead(DAILY_LIMITS_KEY)).get(`${GUILD}/role/staff`)).toBe('0');
	});
});
