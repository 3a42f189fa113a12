import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationRepository } from '../../../src/conversations/conversationRepository.js';
import { PendingQuestionRepository } from '../../../src/conversations/pendingQuestions.js';
import type { Turn } from '../../../src/conversations/buildContents.js';
import { createLogger } from '../../../src/logging/logger.js';
import { openStore, type Store } from '../../../src/storage/store.js';

const logger = createLogger('silent');
const dir = mkdtempSync(join(tmpdir(), 'veil-conversations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const GUILD = '100000000000000001';
const OTHER_GUILD = '100000000000000002';
const HOUR = 3_600_000;

const exchange = (n: number, size = 2): Turn[] => [
	{ role: 'user', text: `P${n}`.padEnd(size, '.') },
	{ role: 'model', text: `A${n}`.padEnd(size, '.') },
];

const stores = [
	['memory', () => 'memory://'],
	['sqlite', () => `sqlite://${join(dir, `c-${Math.random().toString(36).slice(2)}.sqlite`)}`],
] as const;

describe.each(stores)('ConversationRepository on %s', (_kind, storeUrl) => {
	let store: Store;
	beforeEach(async () => {
		store = await openStore(storeUrl(), logger, { operationTimeoutMs: 5000 });
	});
	afterEach(async () => {
		await store.close();
	});

	it('finds a saved conversation in its server only, with its turns and visibility', async () => {
		const conversations = new ConversationRepository(store, 24);
		const saved = await conversations.save(GUILD, { ephemeral: true, turns: exchange(1) });
		expect(saved.id).toMatch(/^[a-z0-9]{12}$/);
		expect(await conversations.find(GUILD, saved.id)).toEqual(saved);
		expect(await conversations.find(OTHER_GUILD, saved.id)).toBeUndefined();
		expect(await conversations.find(GUILD, 'nosuchconver')).toBeUndefined();
		expect(await conversations.find(GUILD, `${saved.id}:x`)).toBeUndefined();
	});

	it('saves each answer under a new id and never changes an earlier one', async () => {
		const conversations = new ConversationRepository(store, 24);
		const first = await conversations.save(GUILD, { ephemeral: false, turns: exchange(1) });
		const second = await conversations.save(GUILD, { ephemeral: false, turns: [...first.turns, ...exchange(2)] });
		expect(second.id).not.toBe(first.id);
		expect((await conversations.find(GUILD, first.id))?.turns).toEqual(exchange(1));
		expect((await conversations.find(GUILD, second.id))?.turns).toEqual([...exchange(1), ...exchange(2)]);
	});

	it('is gone CONVERSATION_TTL_HOURS after its last turn', async () => {
		const conversations = new ConversationRepository(store, 2);
		const now = new Date();
		const saved = await conversations.save(GUILD, { ephemeral: false, turns: exchange(1) }, now);
		expect(saved.expiresAt.getTime()).toBe(now.getTime() + 2 * HOUR);
		expect(await conversations.find(GUILD, saved.id, new Date(now.getTime() + 2 * HOUR - 1))).toBeDefined();
		expect(await conversations.find(GUILD, saved.id, new Date(now.getTime() + 2 * HOUR))).toBeUndefined();
	});

	it('keeps only the turns a later body could hold', async () => {
		const conversations = new ConversationRepository(store, 24);
		const turns = Array.from({ length: 15 }, (_, n) => exchange(n + 1)).flat();
		const saved = await conversations.save(GUILD, { ephemeral: false, turns });
		// 19 turns leave room for the new prompt; whole exchanges only, so 18.
		expect(saved.turns).toHaveLength(18);
		expect(saved.turns[0]).toEqual({ role: 'user', text: 'P7' });
		expect((await conversations.find(GUILD, saved.id))?.turns).toEqual(saved.turns);
	});

	it('reads an unreadable record as no conversation', async () => {
		const conversations = new ConversationRepository(store, 24);
		await store.set('conversations', `${GUILD}:abcdefghijkm`, { version: 9 });
		expect(await conversations.find(GUILD, 'abcdefghijkm')).toBeUndefined();
	});
});

describe('PendingQuestionRepository', () => {
	let store: Store;
	beforeEach(async () => {
		store = await openStore('memory://', logger);
	});
	afterEach(async () => {
		await store.close();
	});

	it("gives a message's text back to the member who opened the form only, until it is forgotten", async () => {
		const pending = new PendingQuestionRepository(store);
		const key = await pending.save('300000000000000001', 'the message');
		expect(key).toMatch(/^[A-Za-z0-9_-]{16}$/);
		expect(await pending.find(key, '300000000000000002')).toBeUndefined();
		expect(await pending.find(key, '300000000000000001')).toBe('the message');
		await pending.forget(key);
		expect(await pending.find(key, '300000000000000001')).toBeUndefined();
		expect(await pending.find('not a key', '300000000000000001')).toBeUndefined();
	});
});
