import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { expect, it, vi } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import type { Store } from '../../../src/storage/store.js';
import { openStore } from '../../../src/storage/openStorage.js';

const run = promisify(execFile);
const silent = createLogger('silent');

function inChildProcess(storeUrl: string, namespace: string, ...args: string[]) {
	return run(process.execPath, ['--import', 'tsx', 'test/support/storeProcess.ts', storeUrl, namespace, ...args], { timeout: 20_000 });
}

/** What every store backend does alike (test/unit/storage/store.test.ts runs it on SQLite, test/services/ on Redis). */
export function storeContract(makeUrl: () => string): void {
	const open = (url: string, namespace: string) => openStore(url, silent, { namespace });

	it('keeps what one process wrote for the next process to read', async () => {
		const url = makeUrl();
		const namespace = `test-${randomUUID()}`;
		await inChildProcess(url, namespace, 'set', 'guild-1', JSON.stringify({ modlogChannelId: '123' }));
		const { stdout } = await inChildProcess(url, namespace, 'get', 'guild-1');
		expect(JSON.parse(stdout)).toEqual({ modlogChannelId: '123' });
	});

	it('sets, reads many, and deletes, each area apart from the others', async () => {
		const store: Store = await open(makeUrl(), `test-${randomUUID()}`);
		try {
			await store.set('accounts', 'u1', { a: 1 });
			await store.set('settings', 'u1', { b: 2 });
			expect(await store.get('accounts', 'u1')).toEqual({ a: 1 });
			expect(await store.get('settings', 'u1')).toEqual({ b: 2 });
			expect(await store.getMany('accounts', ['u1', 'missing'])).toEqual([{ a: 1 }, undefined]);
			expect(await store.delete('accounts', 'u1')).toBe(true);
			expect(await store.delete('accounts', 'u1')).toBe(false);
			expect(await store.get('accounts', 'u1')).toBeUndefined();
			expect(await store.get('settings', 'u1')).toEqual({ b: 2 });
		} finally {
			await store.close();
		}
	});

	it('writes many records at once, each readable alone, over what was there, with their time to live', async () => {
		const store = await open(makeUrl(), `test-${randomUUID()}`);
		try {
			await store.set('conversations', 'c2', { old: true });
			const entries = Array.from({ length: 40 }, (_, n) => ({ key: `c${n}`, value: { n, text: `it's "quoted" ${'é'.repeat(n)}` } }));
			await store.setMany(
				'conversations',
				entries.map((entry) => ({ ...entry, ttlMs: 60_000 })),
			);
			expect(
				await store.getMany(
					'conversations',
					entries.map(({ key }) => key),
				),
			).toEqual(entries.map(({ value }) => value));
			expect(await store.get('accounts', 'c1')).toBeUndefined();
			vi.useFakeTimers({ toFake: ['Date'] });
			await store.setMany('conversations', [{ key: 'short', value: { n: 'short' }, ttlMs: 5000 }]);
			expect(await store.get('conversations', 'short')).toEqual({ n: 'short' });
			vi.setSystemTime(Date.now() + 5001);
			expect(await store.get('conversations', 'short')).toBeUndefined();
			expect(await store.get('conversations', 'c39')).toEqual(entries[39]?.value);
		} finally {
			vi.useRealTimers();
			await store.close();
		}
	});

	it('forgets a record after its time to live', async () => {
		const store = await open(makeUrl(), `test-${randomUUID()}`);
		// The clock moves, not the test: only Date is faked, so a Redis connection keeps its real timers.
		vi.useFakeTimers({ toFake: ['Date'] });
		try {
			await store.set('flags', 'f1', { id: 'f1' }, 5000);
			await store.set('flags', 'f2', { id: 'f2' }, 60_000);
			expect(await store.get('flags', 'f1')).toEqual({ id: 'f1' });
			vi.setSystemTime(Date.now() + 4999);
			expect(await store.get('flags', 'f1')).toEqual({ id: 'f1' });
			vi.setSystemTime(Date.now() + 2);
			expect(await store.get('flags', 'f1')).toBeUndefined();
			expect(await store.get('flags', 'f2')).toEqual({ id: 'f2' });
		} finally {
			vi.useRealTimers();
			await store.close();
		}
	});
}
