import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { generateEncryptionKey, parseEncryptionKey } from '../../../src/crypto/sealing.js';
import { askedPrivately, FlagRepository, type FlagRecord, type NewFlag } from '../../../src/moderation/flagRepository.js';
import { moveLegacyFlags } from '../../../src/moderation/flagMigration.js';
import { createLogger } from '../../../src/logging/logger.js';
import type { Store } from '../../../src/storage/store.js';
import { openStorage } from '../../../src/storage/openStorage.js';
import type { AtomicStore } from '../../../src/storage/atomicStore.js';

const logger = createLogger('silent');

export const KEY = parseEncryptionKey(generateEncryptionKey());
const OTHER_KEY = parseEncryptionKey(generateEncryptionKey());
export const GUILD = '100000000000000001';
const OTHER_GUILD = '100000000000000002';
const OPEN_CHANNEL = '200000000000000001';
const STAFF_CHANNEL = '200000000000000002';

export function newFlag(overrides: Partial<NewFlag> = {}): NewFlag {
	return {
		guildId: GUILD,
		channelId: '200000000000000001',
		userId: '300000000000000001',
		noticeMessageId: '400000000000000001',
		prompt: 'a prompt',
		text: 'a held answer',
		ratings: [{ source: 'reply', category: 'HARM_CATEGORY_HARASSMENT', probability: 'MEDIUM', blocked: false }],
		finishReason: 'STOP',
		model: 'textmodel-pro',
		...overrides,
	};
}

/** FlagRepository on any backend (test/unit/moderation/flagRepository.test.ts runs it on memory and SQLite, test/services/ on Redis). */
export function flagRepositoryContract(storeUrl: () => string): void {
	let store: Store;
	let atomic: AtomicStore;
	let url: string;
	beforeEach(async () => {
		url = storeUrl();
		const options = { operationTimeoutMs: 5000, namespace: `flags-${Math.random().toString(36).slice(2)}` };
		({ store, atomic } = await openStorage(url, logger, options));
	});
	afterEach(async () => {
		vi.useRealTimers();
		await Promise.all([store.close(), atomic.close()]);
	});

	it('keeps every index entry when 50 flags are created at once', async () => {
		const flags = new FlagRepository(store, atomic, 30, { current: KEY });
		const created = await Promise.all(Array.from({ length: 50 }, (_, n) => flags.create(newFlag({ prompt: `prompt ${n}` }))));
		const listed = [];
		for (let page = 1; page <= 5; page += 1) listed.push(...(await flags.list(GUILD, page, { pageSize: 10 })).flags);
		expect(listed).toHaveLength(50);
		expect(new Set(listed.map((flag) => flag.id))).toEqual(new Set(created.map((flag) => flag.id)));
		expect((await flags.list(GUILD, 1, { pageSize: 10 })).pageCount).toBe(5);
	});

	it('lists newest first, ten a page, and clamps the page number', async () => {
		const flags = new FlagRepository(store, atomic, 30, { current: KEY });
		const start = Date.parse('2030-01-01T00:00:00Z');
		for (let n = 0; n < 25; n += 1) await flags.create(newFlag({ prompt: `prompt ${n}` }), new Date(start + n * 1000));
		const now = new Date(start + 60_000);
		const first = await flags.list(GUILD, 1, { pageSize: 10, now });
		expect(first).toMatchObject({ page: 1, pageCount: 3, total: 25 });
		expect(first.flags.map((flag) => flag.prompt)).toEqual(Array.from({ length: 10 }, (_, n) => `prompt ${24 - n}`));
		const last = await flags.list(GUILD, 99, { pageSize: 10, now });
		expect(last.page).toBe(3);
		expect(last.flags.map((flag) => flag.prompt)).toEqual(['prompt 4', 'prompt 3', 'prompt 2', 'prompt 1', 'prompt 0']);
		expect((await flags.list(GUILD, 0, { pageSize: 10, now })).page).toBe(1);
	});

	it('scopes flags to their server: another server neither finds nor lists them', async () => {
		const flags = new FlagRepository(store, atomic, 30, { current: KEY });
		const flag = await flags.create(newFlag());
		expect(await flags.find(GUILD, flag.id)).toMatchObject({ id: flag.id, text: 'a held answer' });
		expect(await flags.find(OTHER_GUILD, flag.id)).toBeUndefined();
		expect((await flags.list(OTHER_GUILD, 1)).total).toBe(0);
		expect(await flags.decide(OTHER_GUILD, flag.id, { kind: 'dismissed', by: '5' })).toEqual({ kind: 'not-found' });
		expect((await flags.find(GUILD, flag.id))?.text).toBe('a held answer');
	});

	it('records one decision per flag, even when three presses arrive together', async () => {
		const flags = new FlagRepository(store, atomic, 30, { current: KEY });
		const flag = await flags.create(newFlag());
		let acted = 0;
		const act = async () => {
			acted += 1;
			await new Promise((resolve) => setTimeout(resolve, 20));
		};
		const outcomes = await Promise.all([
			flags.decide(GUILD, flag.id, { kind: 'released', by: '501' }, act),
			flags.decide(GUILD, flag.id, { kind: 'released', by: '502' }, act),
			flags.decide(GUILD, flag.id, { kind: 'dismissed', by: '503' }),
		]);
		// Whichever press the store saw first decided; the others report its decision and did nothing.
		const decided = outcomes.filter((outcome) => outcome.kind === 'decided');
		expect(decided).toHaveLength(1);
		const winner = decided[0]?.kind === 'decided' ? decided[0].flag.decision : undefined;
		expect(acted).toBe(winner?.kind === 'released' ? 1 : 0);
		for (const outcome of outcomes) {
			expect(outcome.kind === 'not-found' ? undefined : outcome.flag.decision).toEqual(winner);
		}
		const stored = await flags.find(GUILD, flag.id);
		expect(stored?.decision).toEqual(winner);
		expect(stored?.text).toBe(winner?.kind === 'dismissed' ? null : 'a held answer');
	});

	it('dismissing erases the prompt and the text and keeps the rest', async () => {
		const flags = new FlagRepository(store, atomic, 30, { current: KEY });
		const flag = await flags.create(newFlag());
		const outcome = await flags.decide(GUILD, flag.id, { kind: 'dismissed', by: '501' });
		expect(outcome).toMatchObject({ kind: 'decided', flag: { prompt: null, text: null, decision: { kind: 'dismissed' } } });
		const stored = await flags.find(GUILD, flag.id);
		expect(stored).toMatchObject({ prompt: null, text: null, userId: flag.userId, ratings: flag.ratings, expiresAt: flag.expiresAt });
		expect((await flags.list(GUILD, 1)).flags[0]?.decision?.kind).toBe('dismissed');
	});

	it('records nothing when the action fails, so the flag can be decided later', async () => {
		const flags = new FlagRepository(store, atomic, 30, { current: KEY });
		const flag = await flags.create(newFlag());
		await expect(flags.decide(GUILD, flag.id, { kind: 'released', by: '501' }, () => Promise.reject(new Error('channel gone')))).rejects.toThrow(
			'channel gone',
		);
		expect((await flags.find(GUILD, flag.id))?.decision).toBeUndefined();
		expect((await flags.decide(GUILD, flag.id, { kind: 'reviewed', by: '502' })).kind).toBe('decided');
	});

	it('forgets flags after the retention period', async () => {
		// The clock moves, not the test: only Date is faked, so the store's own connection keeps its real timers.
		vi.useFakeTimers({ toFake: ['Date'] });
		const flags = new FlagRepository(store, atomic, 0.3 / 86_400, { current: KEY });
		const flag = await flags.create(newFlag());
		expect((await flags.list(GUILD, 1)).total).toBe(1);
		vi.setSystemTime(Date.now() + 450);
		expect(await flags.find(GUILD, flag.id)).toBeUndefined();
		expect((await flags.list(GUILD, 1)).total).toBe(0);
		expect(await flags.decide(GUILD, flag.id, { kind: 'reviewed', by: '1' })).toEqual({ kind: 'not-found' });
	});

	it('lists, counts and pages only the flags of the channels the filter keeps', async () => {
		const flags = new FlagRepository(store, atomic, 30, { current: KEY });
		const start = Date.parse('2030-01-01T00:00:00Z');
		const open: string[] = [];
		for (let n = 0; n < 14; n += 1) {
			const channelId = n % 2 === 0 ? OPEN_CHANNEL : STAFF_CHANNEL;
			const flag = await flags.create(newFlag({ channelId }), new Date(start + n * 1000));
			if (channelId === OPEN_CHANNEL) open.unshift(flag.id);
		}
		const asked: string[][] = [];
		const onlyOpen = async (ids: readonly string[]) => {
			asked.push([...ids].sort());
			return new Set(ids.filter((id) => id === OPEN_CHANNEL));
		};
		const now = new Date(start + 60_000);
		const first = await flags.list(GUILD, 1, { pageSize: 5, now, channels: onlyOpen });
		expect(first).toMatchObject({ page: 1, pageCount: 2, total: 7 });
		expect(first.flags.map((flag) => flag.id)).toEqual(open.slice(0, 5));
		expect((await flags.list(GUILD, 2, { pageSize: 5, now, channels: onlyOpen })).flags.map((flag) => flag.id)).toEqual(open.slice(5));
		// One question per listing, about each channel once.
		expect(asked).toEqual([[OPEN_CHANNEL, STAFF_CHANNEL].sort(), [OPEN_CHANNEL, STAFF_CHANNEL].sort()]);
		expect((await flags.list(GUILD, 1, { pageSize: 5, now, channels: async () => new Set() })).total).toBe(0);
	});

	it('moves, once at start, index entries and flags of earlier shapes, so that a listing filters by channel', async () => {
		const flags = new FlagRepository(store, atomic, 30, { current: KEY });
		const open = await flags.create(newFlag({ channelId: OPEN_CHANNEL }), new Date(Date.now() - 3000));
		const staff = await flags.create(newFlag({ channelId: STAFF_CHANNEL }), new Date(Date.now() - 2000));
		const bare = await flags.create(newFlag({ channelId: OPEN_CHANNEL }), new Date(Date.now() - 1000));
		// As earlier versions kept the index: a JSON array in the keyv store without the channels, and a sorted-set
		// member without its channel.
		await atomic.indexRemove(`flag-index:${GUILD}`, [`${open.id}:${OPEN_CHANNEL}`, `${staff.id}:${STAFF_CHANNEL}`, `${bare.id}:${OPEN_CHANNEL}`]);
		await store.set(
			'flag-index',
			GUILD,
			[
				[staff.id, Date.parse(staff.createdAt)],
				[open.id, Date.parse(open.createdAt)],
			],
			60_000,
		);
		await atomic.indexAdd(`flag-index:${GUILD}`, [{ member: bare.id, score: Date.parse(bare.createdAt) }], {
			limit: 100,
			minScore: 0,
			ttlMs: 60_000,
		});
		// And a flag from before `private` was kept: a public ask, with its notice.
		const { private: _private, ...older } = (await flags.find(GUILD, staff.id)) as FlagRecord;
		await flags.replace(older as FlagRecord);
		expect(askedPrivately((await flags.find(GUILD, staff.id))!)).toBe(true);

		await Promise.all([moveLegacyFlags(store, atomic, flags, logger), moveLegacyFlags(store, atomic, flags, logger)]);
		const listed = await flags.list(GUILD, 1, { pageSize: 10, channels: async (ids) => new Set(ids.filter((id) => id === OPEN_CHANNEL)) });
		expect(listed.flags.map((flag) => flag.id)).toEqual([bare.id, open.id]);
		expect(listed.total).toBe(2);
		expect((await flags.list(GUILD, 1)).flags.map((flag) => flag.id)).toEqual([bare.id, staff.id, open.id]);
		expect(await store.get('flag-index', GUILD)).toBeUndefined();
		expect(await flags.find(GUILD, staff.id)).toMatchObject({ private: false });
		expect(askedPrivately((await flags.find(GUILD, staff.id))!)).toBe(false);
	});

	it('stores the prompt and the text only sealed, and a dismissal leaves neither anywhere in the store', async () => {
		const flags = new FlagRepository(store, atomic, 30, { current: KEY });
		const flag = await flags.create(newFlag({ prompt: 'PROMPT-CANARY-7f3e', text: 'TEXT-CANARY-91ac' }));
		const raw = JSON.stringify(await store.get('flags', `${GUILD}:${flag.id}`));
		expect(raw).not.toContain('CANARY');
		expect(raw).toContain(flag.userId);
		expect(await flags.find(GUILD, flag.id)).toMatchObject({ prompt: 'PROMPT-CANARY-7f3e', text: 'TEXT-CANARY-91ac' });
		const inFile = () => (url.startsWith('sqlite://') ? readFileSync(url.slice('sqlite://'.length)).toString('latin1') : '');
		expect(inFile()).not.toContain('CANARY');
		await flags.decide(GUILD, flag.id, { kind: 'dismissed', by: '501' });
		expect(JSON.stringify(await store.get('flags', `${GUILD}:${flag.id}`))).toMatch(/"sealed":null/);
		expect(inFile()).not.toContain('CANARY');
	});

	it('does not open a flag copied under another id, nor one sealed with another key, but lists it and keeps its content', async () => {
		const flags = new FlagRepository(store, atomic, 30, { current: KEY });
		const flag = await flags.create(newFlag());
		const copied = await flags.create(newFlag({ prompt: 'other', text: 'other' }));
		await store.set('flags', `${GUILD}:${copied.id}`, await store.get('flags', `${GUILD}:${flag.id}`));
		expect(await flags.find(GUILD, copied.id)).toMatchObject({ prompt: null, text: null, unopened: expect.any(String) });

		const stranger = new FlagRepository(store, atomic, 30, { current: OTHER_KEY });
		const unreadable = await stranger.find(GUILD, flag.id);
		expect(unreadable).toMatchObject({ id: flag.id, userId: flag.userId, prompt: null, text: null });
		expect(unreadable?.unopened).toEqual(expect.any(String));
		expect((await stranger.list(GUILD, 1)).flags.map((listed) => listed.id)).toContain(flag.id);
		// A decision on it keeps the sealed content, which the right key still opens.
		await stranger.decide(GUILD, flag.id, { kind: 'reviewed', by: '501' });
		expect(await flags.find(GUILD, flag.id)).toMatchObject({ text: 'a held answer', decision: { kind: 'reviewed' } });
	});

	it('opens a flag sealed with the previous key during a rotation, and seals it with the current one when saved', async () => {
		const before = new FlagRepository(store, atomic, 30, { current: KEY });
		const flag = await before.create(newFlag());
		const rotated = new FlagRepository(store, atomic, 30, { current: OTHER_KEY, previous: KEY });
		expect(await rotated.find(GUILD, flag.id)).toMatchObject({ text: 'a held answer' });
		expect((await rotated.list(GUILD, 1)).flags.find((listed) => listed.id === flag.id)?.text).toBe('a held answer');
		await rotated.decide(GUILD, flag.id, { kind: 'reviewed', by: '501' });
		const after = new FlagRepository(store, atomic, 30, { current: OTHER_KEY });
		expect(await after.find(GUILD, flag.id)).toMatchObject({ text: 'a held answer', decision: { kind: 'reviewed' } });
		expect((await before.find(GUILD, flag.id))?.unopened).toEqual(expect.any(String));
	});

	it('reads a flag stored in plain before flags were sealed, and seals it when it is next saved', async () => {
		const flags = new FlagRepository(store, atomic, 30, { current: KEY });
		const {
			version: _version,
			sealed: _sealed,
			...metadata
		} = (await store.get('flags', `${GUILD}:${(await flags.create(newFlag())).id}`)) as Record<string, unknown>;
		const legacy = { ...metadata, version: 1, prompt: 'OLD-PROMPT', text: 'OLD-TEXT' };
		await store.set('flags', `${GUILD}:${String(metadata.id)}`, legacy);
		expect(await flags.find(GUILD, String(metadata.id))).toMatchObject({ prompt: 'OLD-PROMPT', text: 'OLD-TEXT' });
		await flags.decide(GUILD, String(metadata.id), { kind: 'reviewed', by: '501' });
		expect(JSON.stringify(await store.get('flags', `${GUILD}:${String(metadata.id)}`))).not.toContain('OLD-');
		expect(await flags.find(GUILD, String(metadata.id))).toMatchObject({ prompt: 'OLD-PROMPT', text: 'OLD-TEXT' });
	});

	it('drops index entries whose record is gone', async () => {
		const flags = new FlagRepository(store, atomic, 30, { current: KEY });
		const kept = await flags.create(newFlag());
		const gone = await flags.create(newFlag());
		await store.delete('flags', `${GUILD}:${gone.id}`);
		expect((await flags.list(GUILD, 1)).flags.map((flag) => flag.id)).toEqual([kept.id]);
		expect((await flags.list(GUILD, 1)).total).toBe(1);
	});
}
