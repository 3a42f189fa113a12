import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { lockSqliteFile } from '../../support/sqliteLock.js';
import { StoreError } from '../../../src/storage/storeError.js';
import { createLogger } from '../../../src/logging/logger.js';
import { openStore } from '../../../src/storage/openStorage.js';
import { sqlitePath } from '../../../src/storage/storeBackend.js';
import { storeContract } from '../../support/contracts/storeContract.js';

const silent = createLogger('silent');
const scratch = mkdtempSync(join(tmpdir(), 'veil-store-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const backends: Array<[string, () => string]> = [['sqlite', () => `sqlite://${join(scratch, `nested/dir/${randomUUID()}.sqlite`)}`]];

describe.each(backends)('store on %s', (_kind, makeUrl) => storeContract(makeUrl));

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

describe('writes while another process locks the SQLite file', () => {
	it('fail plainly while it holds the lock, and what each caller was told is what the file holds once it lets go', async () => {
		const path = join(scratch, `${randomUUID()}.sqlite`);
		const store = await openStore(`sqlite://${path}`, silent, { namespace: 'locked' });
		try {
			await store.set('accounts', 'kept', { n: 0 });
			const lock = await lockSqliteFile(path);
			const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
			const writes = [store.delete('accounts', 'kept'), ...keys.map((key) => store.set('accounts', key, { key }))];
			// The lock clears while later writes are still waiting their turn or waiting on it.
			const first = await Promise.allSettled([writes[0]]);
			await lock.release();
			const outcomes = [...first, ...(await Promise.allSettled(writes.slice(1)))];

			expect(outcomes[0]?.status).toBe('rejected');
			for (const outcome of outcomes) {
				if (outcome.status === 'fulfilled') continue;
				expect(outcome.reason).toBeInstanceOf(StoreError);
				expect((outcome.reason as StoreError).outcomeUnknown).toBe(false);
			}
			const told = (index: number) => outcomes[index]?.status === 'fulfilled';
			const expected = [told(0) ? undefined : { n: 0 }, ...keys.map((key, index) => (told(index + 1) ? { key } : undefined))];
			// SQLite retries a busy lock at least every 100 ms: a write still waiting would land inside this window.
			for (let round = 0; round < 10; round++) {
				await new Promise((resolve) => setTimeout(resolve, 50));
				expect(await store.getMany('accounts', ['kept', ...keys])).toEqual(expected);
			}
		} finally {
			await store.close();
		}
	});
});

describe('who may read the SQLite file', () => {
	const mode = (path: string) => statSync(path).mode & 0o777;

	it('creates missing directories 0700 and the file 0600', async () => {
		const top = join(scratch, randomUUID());
		const path = join(top, 'inner/bot.sqlite');
		const store = await openStore(`sqlite://${path}`, silent);
		await store.set('settings', 'x', { y: 1 });
		await store.close();
		expect(mode(top)).toBe(0o700);
		expect(mode(join(top, 'inner'))).toBe(0o700);
		expect(mode(path)).toBe(0o600);
	});

	it('narrows an existing file, and a directory that holds only the store, made readable before', async () => {
		const directory = join(scratch, randomUUID());
		const path = join(directory, 'bot.sqlite');
		await (await openStore(`sqlite://${path}`, silent)).close();
		chmodSync(directory, 0o755);
		chmodSync(path, 0o644);
		await (await openStore(`sqlite://${path}`, silent)).close();
		expect(mode(directory)).toBe(0o700);
		expect(mode(path)).toBe(0o600);
	});

	it('leaves a shared directory as it is and says so, the file still 0600', async () => {
		const directory = join(scratch, randomUUID());
		mkdirSync(directory, { mode: 0o755 });
		chmodSync(directory, 0o755);
		writeFileSync(join(directory, 'notes.txt'), "not Veil's");
		const lines: string[] = [];
		const logger = createLogger('info', { write: (line: string) => lines.push(line) });
		await (await openStore(`sqlite://${join(directory, 'bot.sqlite')}`, logger)).close();
		expect(mode(directory)).toBe(0o755);
		expect(mode(join(directory, 'bot.sqlite'))).toBe(0o600);
		expect(lines.some((line) => JSON.parse(line).level === 40 && /directory can be listed/.test(line))).toBe(true);
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

describe('a busy process and the store bound', () => {
	it('takes an answer SQLite gave in time, though the process was too busy to read it before the bound ran out', async () => {
		const store = await openStore(`sqlite://${join(scratch, `${randomUUID()}.sqlite`)}`, silent, { operationTimeoutMs: 100 });
		try {
			await store.set('accounts', 'member', { sealed: 'kept' });
			// Once read, the statement is prepared: the next read goes to SQLite's thread at once, before the loop is held.
			await store.get('accounts', 'member');
			const reading = store.get('accounts', 'member');
			// The read reaches SQLite's thread a few promise steps in: those run now, and no turn of the loop with them
			// (a turn could take the answer before the bound runs out, and test nothing).
			for (let step = 0; step < 32; step++) await Promise.resolve();
			// The loop held well past the bound, as a burst of asks holds it: SQLite's thread answers meanwhile. The main
			// thread sleeps rather than spins, so on a machine busy with other test files SQLite's thread gets a core.
			Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
			await expect(reading).resolves.toEqual({ sealed: 'kept' });
		} finally {
			await store.close();
		}
	});
});
