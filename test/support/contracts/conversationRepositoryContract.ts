import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { createClient } from '@keyv/redis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationRepository } from '../../../src/conversations/conversationRepository.js';
import { PendingQuestionRepository } from '../../../src/conversations/pendingQuestions.js';
import type { Turn } from '../../../src/conversations/buildContents.js';
import { generateEncryptionKey, parseEncryptionKey } from '../../../src/crypto/sealing.js';
import { createLogger } from '../../../src/logging/logger.js';
import type { Store } from '../../../src/storage/store.js';
import { openStore } from '../../../src/storage/openStorage.js';

const logger = createLogger('silent');

const KEY = parseEncryptionKey(generateEncryptionKey());
const OTHER_KEY = parseEncryptionKey(generateEncryptionKey());
const GUILD = '100000000000000001';
const OTHER_GUILD = '100000000000000002';
const MEMBER = '300000000000000001';
const OTHER_MEMBER = '300000000000000002';
const HOUR = 3_600_000;

const exchange = (n: number, size = 2): Turn[] => [
	{ role: 'user', text: `P${n}`.padEnd(size, '.') },
	{ role: 'model', text: `A${n}`.padEnd(size, '.') },
];

const redisClient = (url: string) => createClient({ url });
type RedisClient = ReturnType<typeof redisClient>;

/** A logger whose lines the test reads. */
function capturingLogger(): { log: ReturnType<typeof createLogger>; lines: string[] } {
	const lines: string[] = [];
	return { log: createLogger('info', { write: (line: string) => void lines.push(line) }), lines };
}

/** Conversations on any backend (test/unit/conversations runs it on memory and SQLite, test/services/ on Redis). */
export function conversationRepositoryContract(storeUrl: () => string): void {
	let store: Store;
	let url: string;
	let namespace: string;
	beforeEach(async () => {
		url = storeUrl();
		namespace = `conversations-${Math.random().toString(36).slice(2)}`;
		store = await openStore(url, logger, { operationTimeoutMs: 5000, namespace });
	});
	afterEach(async () => {
		await store.close();
		if (url.startsWith('redis://')) {
			await withRedis(async (client) => {
				const keys = await client.keys(`*${namespace}*`);
				if (keys.length > 0) await client.del(keys);
			});
		}
	});

	/** Runs `use` with a plain Redis client of its own, to see what Redis holds beneath the store. */
	async function withRedis<T>(use: (client: RedisClient) => Promise<T>): Promise<T> {
		const client = redisClient(url);
		await client.connect();
		try {
			return await use(client);
		} finally {
			await client.quit();
		}
	}

	/**
	 * What the store itself holds for `area`/`key`: every byte of the SQLite file and its journals, every raw value
	 * Redis has under this test's namespace, or the record as the memory store gives it back.
	 */
	async function rawStored(area: 'conversations' | 'pending-questions', key: string): Promise<string> {
		if (url.startsWith('sqlite://')) {
			const path = url.slice('sqlite://'.length);
			return readdirSync(dirname(path))
				.filter((name) => name.startsWith(basename(path)))
				.map((name) => readFileSync(join(dirname(path), name)).toString('latin1'))
				.join('\n');
		}
		if (url.startsWith('redis://')) {
			return withRedis(async (client) => {
				const keys = await client.keys(`*${namespace}*`);
				const values = await Promise.all(keys.map((name) => client.get(name)));
				return keys.map((name, at) => `${name} ${values[at] ?? ''}`).join('\n');
			});
		}
		return JSON.stringify(await store.get(area, key));
	}

	describe('ConversationRepository', () => {
		it('finds a saved conversation in its server only, with its turns and visibility', async () => {
			const conversations = new ConversationRepository(store, 24, { current: KEY }, logger);
			const saved = await conversations.save(GUILD, { ownerId: MEMBER, ephemeral: true, turns: exchange(1) });
			expect(saved.id).toMatch(/^[a-z0-9]{12}$/);
			expect(await conversations.find(GUILD, saved.id)).toEqual(saved);
			expect(await conversations.find(OTHER_GUILD, saved.id)).toBeUndefined();
			expect(await conversations.find(GUILD, 'nosuchconver')).toBeUndefined();
			expect(await conversations.find(GUILD, `${saved.id}:x`)).toBeUndefined();
		});

		it('saves each answer under a new id and never changes an earlier one', async () => {
			const conversations = new ConversationRepository(store, 24, { current: KEY }, logger);
			const first = await conversations.save(GUILD, { ownerId: MEMBER, ephemeral: false, turns: exchange(1) });
			const second = await conversations.save(GUILD, { ownerId: MEMBER, ephemeral: false, turns: [...first.turns, ...exchange(2)] });
			expect(second.id).not.toBe(first.id);
			expect((await conversations.find(GUILD, first.id))?.turns).toEqual(exchange(1));
			expect((await conversations.find(GUILD, second.id))?.turns).toEqual([...exchange(1), ...exchange(2)]);
		});

		it('erases a conversation, one whose save is still on its way included, and only that one', async () => {
			const conversations = new ConversationRepository(store, 24, { current: KEY }, logger);
			const kept = await conversations.save(GUILD, { ownerId: MEMBER, ephemeral: false, turns: exchange(1) });
			const saved = await conversations.save(GUILD, { ownerId: MEMBER, ephemeral: false, turns: exchange(2) });
			await conversations.erase(GUILD, saved.id);
			expect(await conversations.find(GUILD, saved.id)).toBeUndefined();
			const saving = conversations.save(GUILD, { id: 'erasedwhilst', ownerId: MEMBER, ephemeral: false, turns: exchange(3) });
			await conversations.erase(GUILD, 'erasedwhilst');
			await saving;
			expect(await conversations.find(GUILD, 'erasedwhilst')).toBeUndefined();
			expect(await conversations.find(GUILD, kept.id)).toEqual(kept);
		});

		it('is gone CONVERSATION_TTL_HOURS after its last turn', async () => {
			const conversations = new ConversationRepository(store, 2, { current: KEY }, logger);
			const now = new Date();
			const saved = await conversations.save(GUILD, { ownerId: MEMBER, ephemeral: false, turns: exchange(1) }, now);
			expect(saved.expiresAt.getTime()).toBe(now.getTime() + 2 * HOUR);
			expect(await conversations.find(GUILD, saved.id, new Date(now.getTime() + 2 * HOUR - 1))).toBeDefined();
			expect(await conversations.find(GUILD, saved.id, new Date(now.getTime() + 2 * HOUR))).toBeUndefined();
		});

		it('keeps only the turns a later body could hold', async () => {
			const conversations = new ConversationRepository(store, 24, { current: KEY }, logger);
			const turns = Array.from({ length: 15 }, (_, n) => exchange(n + 1)).flat();
			const saved = await conversations.save(GUILD, { ownerId: MEMBER, ephemeral: false, turns });
			// 19 turns leave room for the new prompt; whole exchanges only, so 18.
			expect(saved.turns).toHaveLength(18);
			expect(saved.turns[0]).toEqual({ role: 'user', text: 'P7' });
			expect((await conversations.find(GUILD, saved.id))?.turns).toEqual(saved.turns);
		});

		it('reads an unreadable record as no conversation', async () => {
			const conversations = new ConversationRepository(store, 24, { current: KEY }, logger);
			await store.set('conversations', `${GUILD}:abcdefghijkm`, { version: 9 });
			expect(await conversations.find(GUILD, 'abcdefghijkm')).toBeUndefined();
		});

		it("stores neither a turn's prompt nor its answer in plain, anywhere in the store", async () => {
			const conversations = new ConversationRepository(store, 24, { current: KEY }, logger);
			const turns: Turn[] = [
				{ role: 'user', text: 'PROMPT-CANARY-5b1e' },
				{ role: 'model', text: 'ANSWER-CANARY-c04d' },
			];
			const saved = await conversations.save(GUILD, { ownerId: MEMBER, ephemeral: false, turns });
			const raw = await rawStored('conversations', `${GUILD}:${saved.id}`);
			// The record is there (its expiry in plain), so the canaries' absence means they were sealed.
			expect(raw).toContain(saved.expiresAt.toISOString());
			expect(raw).not.toContain('CANARY');
			expect((await conversations.find(GUILD, saved.id))?.turns).toEqual(turns);
		});

		it('does not open a record copied under another conversation id or server, and logs it', async () => {
			const { log, lines } = capturingLogger();
			const conversations = new ConversationRepository(store, 24, { current: KEY }, log);
			const saved = await conversations.save(GUILD, { ownerId: MEMBER, ephemeral: false, turns: exchange(1) });
			const record = await store.get('conversations', `${GUILD}:${saved.id}`);
			await store.set('conversations', `${GUILD}:abcdefghijkm`, record, 60_000);
			await store.set('conversations', `${OTHER_GUILD}:${saved.id}`, record, 60_000);
			expect(await conversations.find(GUILD, 'abcdefghijkm')).toBeUndefined();
			expect(await conversations.find(OTHER_GUILD, saved.id)).toBeUndefined();
			expect(await conversations.find(GUILD, saved.id)).toBeDefined();
			const warned = lines.filter((line) => line.includes('a stored conversation did not open'));
			expect(warned).toHaveLength(2);
			expect(warned[0]).toContain('"conversationId":"abcdefghijkm"');
			expect(warned.join('\n')).not.toContain(String((record as { sealed?: string }).sealed));
		});

		it('opens a record sealed with the previous key during a rotation, and none once that key is gone', async () => {
			const { log, lines } = capturingLogger();
			const before = new ConversationRepository(store, 24, { current: KEY }, log);
			const saved = await before.save(GUILD, { ownerId: MEMBER, ephemeral: true, turns: exchange(1) });
			const rotated = new ConversationRepository(store, 24, { current: OTHER_KEY, previous: KEY }, log);
			expect(await rotated.find(GUILD, saved.id)).toEqual(saved);
			expect(lines).toEqual([]);
			const after = new ConversationRepository(store, 24, { current: OTHER_KEY }, log);
			expect(await after.find(GUILD, saved.id)).toBeUndefined();
			expect(lines.filter((line) => line.includes('did not open'))).toHaveLength(1);
		});

		it('does not honour a record planted in plain (version 1), whatever its turns, visibility or expiry', async () => {
			const conversations = new ConversationRepository(store, 24, { current: KEY }, logger);
			const expiresAt = new Date(Date.now() + HOUR);
			const planted = { version: 1, ephemeral: false, turns: exchange(1), createdAt: new Date().toISOString(), expiresAt: expiresAt.toISOString() };
			await store.set('conversations', `${GUILD}:abcdefghijkm`, planted, HOUR);
			expect(await conversations.find(GUILD, 'abcdefghijkm')).toBeUndefined();
		});

		it('keeps its owner and who asked each prompt inside the sealed part', async () => {
			const conversations = new ConversationRepository(store, 24, { current: KEY }, logger);
			const turns: Turn[] = [
				{ role: 'user', text: 'P1', by: MEMBER },
				{ role: 'model', text: 'A1' },
				{ role: 'user', text: 'P2', by: OTHER_MEMBER },
				{ role: 'model', text: 'A2' },
			];
			const saved = await conversations.save(GUILD, { ownerId: OTHER_MEMBER, ephemeral: false, turns });
			const found = await conversations.find(GUILD, saved.id);
			expect(found?.ownerId).toBe(OTHER_MEMBER);
			expect(found?.turns).toEqual(turns);
			const raw = await rawStored('conversations', `${GUILD}:${saved.id}`);
			expect(raw).not.toContain(OTHER_MEMBER);
			expect(raw).not.toContain(MEMBER);
		});

		it('keeps a cut copy of an exchange too long to keep whole, not nothing', async () => {
			const conversations = new ConversationRepository(store, 24, { current: KEY }, logger);
			const long: Turn[] = [...exchange(1), { role: 'user', text: 'Q', by: MEMBER }, { role: 'model', text: 'x'.repeat(20_000) }];
			const saved = await conversations.save(GUILD, { ownerId: MEMBER, ephemeral: false, turns: long });
			expect(saved.turns.map((turn) => turn.role)).toEqual(['user', 'model']);
			expect(saved.turns[0]).toEqual({ role: 'user', text: 'Q', by: MEMBER });
			expect(saved.turns[1]?.text.startsWith('xxxx')).toBe(true);
			expect(saved.turns[1]?.text.endsWith('[…]')).toBe(true);
			expect((await conversations.find(GUILD, saved.id))?.turns).toEqual(saved.turns);
		});
	});

	describe('PendingQuestionRepository', () => {
		const message = (text: string) => ({ text, author: { id: OTHER_MEMBER, name: 'Author' } });

		it("gives a message's text back to the member who opened the form only, until it is forgotten", async () => {
			const pending = new PendingQuestionRepository(store, { current: KEY }, logger);
			const key = await pending.save(MEMBER, message('the message'));
			expect(key).toMatch(/^[A-Za-z0-9_-]{16}$/);
			expect(await pending.find(key, OTHER_MEMBER)).toBeUndefined();
			expect(await pending.find(key, MEMBER)).toEqual(message('the message'));
			await pending.forget(key, MEMBER);
			expect(await pending.find(key, MEMBER)).toBeUndefined();
			expect(await pending.find('not a key', MEMBER)).toBeUndefined();
		});

		it('keeps one form per member: a new one replaces the one before, which the old form no longer finds', async () => {
			const pending = new PendingQuestionRepository(store, { current: KEY }, logger);
			const first = await pending.save(MEMBER, message('first message'));
			const second = await pending.save(MEMBER, message('second message'));
			expect(await pending.find(first, MEMBER)).toBeUndefined();
			expect(await store.get('pending-questions', `${MEMBER}:${first}`)).toBeUndefined();
			expect(await pending.find(second, MEMBER)).toEqual(message('second message'));
			// The old form's submit, answered as expired, leaves the newer form's text for its own submit.
			await pending.forget(first, MEMBER);
			expect(await pending.find(second, MEMBER)).toEqual(message('second message'));
		});

		it('forgets a used form without touching a form opened while it was being forgotten', async () => {
			const pending = new PendingQuestionRepository(store, { current: KEY }, logger);
			const used = await pending.save(MEMBER, message('used'));
			const [, next] = await Promise.all([pending.forget(used, MEMBER), pending.save(MEMBER, message('next'))]);
			expect(await pending.find(next, MEMBER)).toEqual(message('next'));
			expect(await pending.find(used, MEMBER)).toBeUndefined();
		});

		it('refuses a form older than 15 minutes at the read, whatever the store still holds', async () => {
			const pending = new PendingQuestionRepository(store, { current: KEY }, logger);
			const now = Date.now();
			const key = await pending.save(MEMBER, message('the message'), now);
			expect(await pending.find(key, MEMBER, now + 15 * 60_000 - 1)).toEqual(message('the message'));
			expect(await pending.find(key, MEMBER, now + 15 * 60_000)).toBeUndefined();
		});

		it("stores the message's text and author only sealed", async () => {
			const pending = new PendingQuestionRepository(store, { current: KEY }, logger);
			const key = await pending.save(MEMBER, { text: 'PENDING-CANARY-e7a2', author: { id: OTHER_MEMBER, name: 'AUTHOR-CANARY' } });
			const raw = await rawStored('pending-questions', `${MEMBER}:${key}`);
			expect(raw).toContain(key);
			expect(raw).not.toContain('PENDING-CANARY');
			expect(raw).not.toContain('AUTHOR-CANARY');
			expect(raw).not.toContain(OTHER_MEMBER);
			expect((await pending.find(key, MEMBER))?.text).toBe('PENDING-CANARY-e7a2');
		});

		it('does not open a record copied to another member, logs it, and opens with the previous key', async () => {
			const { log, lines } = capturingLogger();
			const pending = new PendingQuestionRepository(store, { current: KEY }, log);
			const key = await pending.save(MEMBER, message('the message'));
			const record = (await store.get('pending-questions', `${MEMBER}:${key}`)) as Record<string, unknown>;
			await store.set('pending-questions', `${OTHER_MEMBER}:${key}`, record, 60_000);
			// The pointer too, so that it is the seal (bound to the member) that refuses it.
			await store.set('pending-questions', `${OTHER_MEMBER}:newest`, key, 60_000);
			expect(await pending.find(key, OTHER_MEMBER)).toBeUndefined();
			expect(lines.filter((line) => line.includes('did not open'))).toHaveLength(1);
			expect(lines.join('\n')).not.toContain(key);

			expect(await new PendingQuestionRepository(store, { current: OTHER_KEY, previous: KEY }, log).find(key, MEMBER)).toEqual(
				message('the message'),
			);
			expect(await new PendingQuestionRepository(store, { current: OTHER_KEY }, log).find(key, MEMBER)).toBeUndefined();
			expect(lines.filter((line) => line.includes('did not open'))).toHaveLength(2);
		});

		it('does not honour a form planted in plain (version 1)', async () => {
			const pending = new PendingQuestionRepository(store, { current: KEY }, logger);
			await store.set('pending-questions', MEMBER, { version: 1, userId: MEMBER, formId: 'CCCCCCCCCCCCCCCC', text: 'a planted form' }, 60_000);
			await store.set('pending-questions', 'CCCCCCCCCCCCCCCC', { version: 1, userId: MEMBER, text: 'a planted form' }, 60_000);
			expect(await pending.find('CCCCCCCCCCCCCCCC', MEMBER)).toBeUndefined();
		});
	});
}
