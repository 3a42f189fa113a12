import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { askedPrivately, DECISION_CLAIM_MS, FlagRepository, newFlagId, type FlagRecord } from '../../../src/moderation/flagRepository.js';
import { StoreError } from '../../../src/storage/storeError.js';
import { createLogger } from '../../../src/logging/logger.js';
import { openStore, openAtomicStore } from '../../../src/storage/openStorage.js';
import type { AtomicStore } from '../../../src/storage/atomicStore.js';
import { answerOf } from '../../support/errorChecks.js';
import { flagRepositoryContract, GUILD, KEY, newFlag } from '../../support/contracts/flagRepositoryContract.js';

const logger = createLogger('silent');
const dir = mkdtempSync(join(tmpdir(), 'veil-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const stores: Array<[string, () => string]> = [
	['memory', () => 'memory://'],
	['sqlite', () => `sqlite://${join(dir, `flags-${Math.random().toString(36).slice(2)}.sqlite`)}`],
];

describe.each(stores)('FlagRepository on %s', (_kind, storeUrl) => flagRepositoryContract(storeUrl));

describe('askedPrivately', () => {
	const base = { noticeMessageId: '400000000000000001' } as FlagRecord;
	it('follows the record, and counts a record that does not say as private', () => {
		expect(askedPrivately({ ...base, private: false })).toBe(false);
		expect(askedPrivately({ ...base, noticeMessageId: undefined, private: true })).toBe(true);
		expect(askedPrivately({ ...base, noticeMessageId: undefined, private: false })).toBe(false);
		expect(askedPrivately(base)).toBe(true);
	});
});

describe('flag ids', () => {
	it('are 10 characters of an unambiguous alphabet, and do not repeat', () => {
		const ids = Array.from({ length: 5000 }, () => newFlagId());
		for (const id of ids) expect(id).toMatch(/^[a-km-np-z2-9]{10}$/);
		expect(new Set(ids).size).toBe(ids.length);
	});

	it('does not look up malformed ids in the store', async () => {
		const store = await openStore('memory://', logger);
		const flags = new FlagRepository(store, await openAtomicStore('memory://', logger), 30, { current: KEY });
		expect(await flags.find(GUILD, '../settings')).toBeUndefined();
		expect(await flags.find(GUILD, '')).toBeUndefined();
		await store.close();
	});
});

describe('a decision whose claim reply never came (the store slow past its bound)', () => {
	/** An atomic store whose claims land but are reported as unanswered, and whose releases fail while `down`. */
	function lateClaims(atomic: AtomicStore, state: { down: boolean }): AtomicStore {
		return {
			...atomic,
			claim: async (key, value, ttlMs) => {
				const held = await atomic.claim(key, value, ttlMs);
				if (state.down) throw new StoreError('store did not answer claim within 1000 ms', { outcomeUnknown: true });
				return held;
			},
			release: async (key, value) => {
				if (state.down) throw new StoreError('store did not answer release within 1000 ms', { outcomeUnknown: true });
				return atomic.release(key, value);
			},
		};
	}

	afterEach(() => {
		vi.useRealTimers();
	});

	it('frees the flag within a minute, tells the moderator it may not have been saved, and records nothing', async () => {
		vi.useFakeTimers({ toFake: ['Date'] });
		const store = await openStore('memory://', logger);
		const state = { down: false };
		const flags = new FlagRepository(store, lateClaims(await openAtomicStore('memory://', logger), state), 30, { current: KEY });
		const flag = await flags.create(newFlag());
		state.down = true;
		const acted: string[] = [];
		const failed = await flags
			.decide(GUILD, flag.id, { kind: 'released', by: '501' }, async () => void acted.push('posted'))
			.catch((error: unknown) => error);
		expect(failed).toBeInstanceOf(StoreError);
		expect(answerOf(failed as StoreError)).toMatch(/may not have been saved/);
		expect(acted).toEqual([]);
		expect((await flags.find(GUILD, flag.id))?.decision).toBeUndefined();

		state.down = false;
		// The claim landed and could not be given back: it holds the flag for a minute at most, not its retention.
		expect((await flags.decide(GUILD, flag.id, { kind: 'dismissed', by: '502' })).kind).toBe('already-decided');
		vi.setSystemTime(Date.now() + DECISION_CLAIM_MS + 1);
		const later = await flags.decide(GUILD, flag.id, { kind: 'released', by: '502' }, async () => void acted.push('posted'));
		expect(later).toMatchObject({ kind: 'decided', flag: { decision: { kind: 'released', by: '502' } } });
		expect(acted).toEqual(['posted']);
		await store.close();
	});

	it('gives the claim back at once when the store answers the release, with a plain failure', async () => {
		const store = await openStore('memory://', logger);
		const atomic = await openAtomicStore('memory://', logger);
		const flags = new FlagRepository(
			store,
			{
				...atomic,
				claim: async (key, value, ttlMs) => {
					await atomic.claim(key, value, ttlMs);
					throw new StoreError('store did not answer claim within 1000 ms', { outcomeUnknown: true });
				},
			},
			30,
			{ current: KEY },
		);
		const flag = await flags.create(newFlag());
		const failed = await flags.decide(GUILD, flag.id, { kind: 'reviewed', by: '501' }).catch((error: unknown) => error);
		expect(answerOf(failed as StoreError)).toMatch(/storage isn't answering/);
		expect(answerOf(failed as StoreError)).not.toMatch(/may not have been saved/);
		const honest = new FlagRepository(store, atomic, 30, { current: KEY });
		expect((await honest.decide(GUILD, flag.id, { kind: 'reviewed', by: '502' })).kind).toBe('decided');
		await store.close();
	});
});
