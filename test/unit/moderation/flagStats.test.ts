import { describe, expect, it } from 'vitest';
import { FlagStats } from '../../../src/moderation/flagStats.js';
import type { FlagRecord } from '../../../src/moderation/storedFlag.js';
import { MemoryAtomicStore } from '../../../src/storage/memoryAtomicStore.js';
import { DAY_MS, HOUR_MS } from '../../../src/time/durations.js';

const NOW = Date.now();
const MINUTE = 60_000;

function flag(overrides: Partial<FlagRecord>): FlagRecord {
	return {
		id: 'f',
		guildId: 'g',
		channelId: 'c',
		userId: 'u',
		ratings: [],
		model: 'm',
		createdAt: new Date(NOW).toISOString(),
		expiresAt: new Date(NOW + 30 * DAY_MS).toISOString(),
		prompt: null,
		text: null,
		...overrides,
	};
}
const rating = (category: string, probability: string) => ({ source: 'reply' as const, category, probability, blocked: false });
const decided = (base: FlagRecord, kind: 'released' | 'dismissed' | 'reviewed', afterMs: number): FlagRecord => ({
	...base,
	decision: { kind, by: 'm', at: new Date(Date.parse(base.createdAt) + afterMs).toISOString() },
});

describe('FlagStats', () => {
	it('counts held answers by each reason once, decisions, pending and the median bucket, from counters alone', async () => {
		const stats = new FlagStats(new MemoryAtomicStore(), 30 * DAY_MS);
		const harassment = flag({ ratings: [rating('HARM_CATEGORY_HARASSMENT', 'MEDIUM'), rating('HARM_CATEGORY_HARASSMENT', 'HIGH')] });
		const both = flag({ ratings: [rating('HARM_CATEGORY_HARASSMENT', 'LOW'), rating('HARM_CATEGORY_HATE_SPEECH', 'LOW')] });
		const automod = flag({ ratings: [rating('HARM_CATEGORY_HARASSMENT', 'NEGLIGIBLE')], automod: { ruleId: 'r', ruleName: 'n', keyword: 'k' } });
		const blocked = flag({ blockReason: 'SAFETY' });
		for (const held of [harassment, both, automod, blocked]) await stats.held(held);
		await stats.decided(decided(harassment, 'released', 2 * MINUTE));
		await stats.decided(decided(both, 'dismissed', 30 * MINUTE));
		await stats.decided(decided(automod, 'released', 5 * HOUR_MS));

		const summary = await stats.summary('g', 7, NOW);
		expect(summary.held).toBe(4);
		expect(Object.fromEntries(summary.byReason)).toEqual({ HARM_CATEGORY_HARASSMENT: 2, HARM_CATEGORY_HATE_SPEECH: 1, automod: 1, other: 1 });
		expect(summary.decided).toEqual({ released: 2, dismissed: 1, reviewed: 0 });
		expect(summary.pending).toBe(1);
		// 2 min, 30 min, 5 h: the median is the 30-minute one, in the "under an hour" bucket.
		expect(summary.medianUnderMs).toBe(HOUR_MS);
		expect((await stats.summary('other-guild', 7, NOW)).held).toBe(0);
	});

	it('counts a flag under the day it was held, so a window of days leaves out older ones', async () => {
		const stats = new FlagStats(new MemoryAtomicStore(), 30 * DAY_MS);
		await stats.held(flag({ createdAt: new Date(NOW - 3 * DAY_MS).toISOString() }));
		await stats.held(flag({}));
		expect((await stats.summary('g', 1, NOW)).held).toBe(1);
		expect((await stats.summary('g', 4, NOW)).held).toBe(2);
		expect((await stats.summary('g', 1, NOW)).medianUnderMs).toBeUndefined();
	});
});
