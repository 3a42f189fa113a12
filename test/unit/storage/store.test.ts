import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../../src/storage/storeError.js';
import { createLogger } from '../../../src/logging/logger.js';
import { openStore, sqlitePath, type Store } from '../../../src/storage/store.js';

const run = promisify(execFile);
const silent = createLogger('silent');
const scratch = mkdtempSync(join(tmpdir(), 'veil-store-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function inChildProcess(storeUrl: string, namespace: string, ...args: string[]) {
	return run(process.execPath, ['--import', 'tsx', 'test/support/storeProcess.ts', storeUrl, namespace, ...args], { timeout: 20_000 });
}

const backends: Array<[string, () => string]> = [['sqlite', () => `sqlite://${join(scratch, `nested/dir/${randomUUID()}.sqlite`)}`]];
if (process.env.REDIS_URL) backends.push(['redis', () => process.env.REDIS_URL as string]);

describe.each(backends)('store on %s', (_kind, makeUrl) => {
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

	it('forgets a record after its time to live', async () => {
		const store = await open(makeUrl(), `test-${randomUUID()}`);
		try {
			// A record beside it with a long life shows the write itself worked, whatever the machine's load did to the
			// short one's 50 ms before it could be read back.
			await store.set('flags', 'f1', { id: 'f1' }, 50);
			await store.set('flags', 'f2', { id: 'f2' }, 60_000);
			let gone = false;
			for (let attempt = 0; attempt < 50 && !gone; attempt++) {
				await new Promise((resolve) => setTimeout(resolve, 20));
				gone = (await store.get('flags', 'f1')) === undefined;
			}
			expect(gone).toBe(true);
			expect(await store.get('flags', 'f2')).toEqual({ id: 'f2' });
		} finally {
			await store.close();
		}
	});
});

describe('erasing expired records from SQLite', () => {
	it('sweeps records past their time to live out of the file, leaving the rest', async () => {
		const path = join(scratch, `${randomUUID()}.sqlite`);
		const store = await openStore(`sqlite://${path}`, silent, { namespace: 'sweep' });
		try {
			await store.set('flags', 'old', { text: 'EXPIRED-TEXT-CANARY' }, 30);
			await store.set('flags', 'young', { text: 'still here' }, 60_000);
			await store.set('accounts', 'forever', { sealed: 'kept' });
			expect(await store.sweepExpired(Date.now() + 1000)).toBe(1);
			expect(await store.sweepExpired(Date.now() + 1000)).toBe(0);
			expect(await store.get('flags', 'young')).toEqual({ text: 'still here' });
			expect(await store.get('accounts', 'forever')).toEqual({ sealed: 'kept' });
		} finally {
			await store.close();
		}
		expect(readFileSync(path).toString('latin1')).not.toContain('EXPIRED-TEXT-CANARY');
	});

	it('leaves no copy of a swept record in the write-ahead log while the bot runs', async () => {
		const path = join(scratch, `${randomUUID()}.sqlite`);
		const store = await openStore(`sqlite://${path}`, silent, { namespace: 'wal' });
		const bytes = (file: string) => (existsSync(file) ? readFileSync(file).toString('latin1') : '');
		try {
			await store.set('conversations', 'old', { text: 'LOGGED-TEXT-CANARY' }, 30);
			await store.set('conversations', 'young', { text: 'still here' }, 60_000);
			// Writes go to the log first: that is where a copy would stay.
			expect(bytes(`${path}-wal`)).toContain('LOGGED-TEXT-CANARY');
			expect(await store.sweepExpired(Date.now() + 1000)).toBe(1);
			expect(bytes(`${path}-wal`)).not.toContain('LOGGED-TEXT-CANARY');
			expect(bytes(path)).not.toContain('LOGGED-TEXT-CANARY');
			expect(await store.get('conversations', 'young')).toEqual({ text: 'still here' });
		} finally {
			await store.close();
		}
	});
});

describe('store URLs and faults', () => {
	it('creates missing directories for a relative or absolute sqlite path', async () => {
		const path = join(scratch, 'a/b/c/bot.sqlite');
		const store = await openStore(`sqlite://${path}`, silent);
		await store.set('settings', 'x', { y: 1 });
		await store.close();
		expect(existsSync(path)).toBe(true);
		expect(sqlitePath('sqlite://data/bot.sqlite')).toBe(join(process.cwd(), 'data/bot.sqlite'));
		expect(sqlitePath('sqlite:///var/lib/veil.sqlite')).toBe('/var/lib/veil.sqlite');
	});

	it('warns that memory:// keeps nothing', async () => {
		const lines: string[] = [];
		const logger = createLogger('info', { write: (line: string) => lines.push(line) });
		const store = await openStore('memory://', logger);
		await store.close();
		expect(lines.some((line) => JSON.parse(line).level === 40 && /lost when the bot stops/.test(line))).toBe(true);
	});

	it('fails a start against a Redis that does not answer, with a StoreError', async () => {
		await expect(openStore('redis://127.0.0.1:1', silent, { operationTimeoutMs: 500 })).rejects.toBeInstanceOf(StoreError);
	});
});
