import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccountRepository } from '../../../src/accounts/accountRepository.js';
import { SealError } from '../../../src/crypto/sealError.js';
import { UnreadableLinkError } from '../../../src/accounts/unreadableLinkError.js';
import { generateEncryptionKey, parseEncryptionKey } from '../../../src/crypto/sealing.js';
import { openTokens } from '../../../src/accounts/sealTokens.js';
import { createLogger } from '../../../src/logging/logger.js';
import type { Store } from '../../../src/storage/store.js';
import { openStore } from '../../../src/storage/openStorage.js';
import { lockSqliteFile } from '../../support/sqliteLock.js';

const [keyA, keyB, keyC] = [0, 1, 2].map(() => parseEncryptionKey(generateEncryptionKey())) as [Buffer, Buffer, Buffer];
const USER = '300000000000000001';
const TOKENS = { accessToken: 'access-1', sessionToken: 'session-1' };
const silent = createLogger('silent');
const scratch = mkdtempSync(join(tmpdir(), 'veil-accounts-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('AccountRepository during a key rotation', () => {
	let path: string;
	let store: Store;
	beforeEach(async () => {
		path = join(scratch, `${randomUUID()}.sqlite`);
		store = await openStore(`sqlite://${path}`, silent);
	});
	afterEach(async () => {
		await store.close();
	});

	const sealedInStore = async () => ((await store.get('accounts', USER)) as { sealedTokens: string }).sealedTokens;

	it('opens a link sealed with the previous key and seals it again with the current one', async () => {
		await new AccountRepository(store, { current: keyA }, silent).save(USER, 'member@example.com', TOKENS);
		const rotated = new AccountRepository(store, { current: keyB, previous: keyA }, silent);
		expect(await rotated.find(USER)).toMatchObject({ credentials: TOKENS, maskedEmail: 'm***@example.com' });
		expect(openTokens(await sealedInStore(), USER, keyB)).toEqual(TOKENS);
		const resealed = await sealedInStore();
		expect(() => openTokens(resealed, USER, keyA)).toThrow(SealError);
		expect(await new AccountRepository(store, { current: keyB }, silent).find(USER)).toMatchObject({ credentials: TOKENS });
	});

	it('does not open a link with keys that did not seal it', async () => {
		await new AccountRepository(store, { current: keyA }, silent).save(USER, 'member@example.com', TOKENS);
		await expect(new AccountRepository(store, { current: keyB }, silent).find(USER)).rejects.toBeInstanceOf(UnreadableLinkError);
		await expect(new AccountRepository(store, { current: keyB, previous: keyC }, silent).find(USER)).rejects.toBeInstanceOf(UnreadableLinkError);
		// What failed to open was left as it was: the right key still opens it.
		expect(await new AccountRepository(store, { current: keyA }, silent).find(USER)).toMatchObject({ credentials: TOKENS });
	});

	it('answers with the link when sealing it again cannot be saved, and logs that', async () => {
		await new AccountRepository(store, { current: keyA }, silent).save(USER, 'member@example.com', TOKENS);
		const lines: string[] = [];
		const logger = createLogger('info', { write: (line: string) => lines.push(line) });
		const lock = await lockSqliteFile(path, 'IMMEDIATE');
		try {
			expect(await new AccountRepository(store, { current: keyB, previous: keyA }, logger).find(USER)).toMatchObject({ credentials: TOKENS });
		} finally {
			await lock.release();
		}
		expect(lines.some((line) => JSON.parse(line).level === 40 && /sealing a link again/.test(line))).toBe(true);
		expect(openTokens(await sealedInStore(), USER, keyA)).toEqual(TOKENS);
	});

	it('does not bring back a link removed while it was being sealed again', async () => {
		await new AccountRepository(store, { current: keyA }, silent).save(USER, 'member@example.com', TOKENS);
		const rotated = new AccountRepository(store, { current: keyB, previous: keyA }, silent);
		const [found, removed] = await Promise.all([rotated.find(USER), rotated.remove(USER)]);
		expect(found?.credentials).toEqual(TOKENS);
		expect(removed).toBe(true);
		expect(await store.get('accounts', USER)).toBeUndefined();
	});
});
