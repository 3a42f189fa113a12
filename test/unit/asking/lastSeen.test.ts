import { describe, expect, it } from 'vitest';
import { LastSeen, lastSeenOf } from '../../../src/asking/lastSeen.js';
import type { BotContext } from '../../../src/app/context.js';

describe('LastSeen', () => {
	it('guesses a member linked from the last read until one finds them unlinked', () => {
		const lastSeen = new LastSeen();
		expect(lastSeen.linked('1')).toBe(false);
		lastSeen.sawLink('1', true);
		expect(lastSeen.linked('1')).toBe(true);
		lastSeen.sawLink('1', false);
		expect(lastSeen.linked('1')).toBe(false);
	});

	it('guesses a server limited from the last read until one finds no limit', () => {
		const lastSeen = new LastSeen();
		lastSeen.sawLimit('9', true);
		expect(lastSeen.limited('9')).toBe(true);
		expect(lastSeen.limited('8')).toBe(false);
		lastSeen.sawLimit('9', false);
		expect(lastSeen.limited('9')).toBe(false);
	});

	it('forgets the oldest member first past 5,000, so that a busy process keeps a bounded memory', () => {
		const lastSeen = new LastSeen();
		for (let n = 0; n <= 5_000; n++) lastSeen.sawLink(String(n), true);
		expect(lastSeen.linked('0')).toBe(false);
		expect(lastSeen.linked('1')).toBe(true);
		expect(lastSeen.linked('5000')).toBe(true);
	});

	it("keeps one bot's guesses apart from another's in the same process", () => {
		const one = { admission: {} } as Pick<BotContext, 'admission'>;
		const other = { admission: {} } as Pick<BotContext, 'admission'>;
		lastSeenOf(one).sawLink('1', true);
		expect(lastSeenOf({ ...one }).linked('1')).toBe(true);
		expect(lastSeenOf(other).linked('1')).toBe(false);
	});
});
