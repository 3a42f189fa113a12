import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keyv } from 'keyv';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteConnection, type SqliteConnection } from '../../../src/storage/sqliteConnection.js';
import { SqliteKeyvAdapter } from '../../../src/storage/sqliteKeyvAdapter.js';

const scratch = mkdtempSync(join(tmpdir(), 'veil-keyv-adapter-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("keyv's SQLite adapter over Veil's connection", () => {
	let connection: SqliteConnection;
	let adapter: SqliteKeyvAdapter;
	let file = 0;

	beforeEach(async () => {
		connection = await openSqliteConnection(join(scratch, `${file++}.sqlite`), 100);
		adapter = await SqliteKeyvAdapter.open(connection);
	});
	afterEach(() => adapter.disconnect().catch(() => undefined));

	it('keeps, finds, replaces and removes a value, and says whether a removal removed anything', async () => {
		expect(await adapter.get('k')).toBeUndefined();
		expect(await adapter.has('k')).toBe(false);
		await adapter.set('k', 'one');
		await adapter.set('k', 'two');
		expect(await adapter.get('k')).toBe('two');
		expect(await adapter.has('k')).toBe(true);
		expect(await adapter.delete('k')).toBe(true);
		expect(await adapter.delete('k')).toBe(false);
		expect(await adapter.get('k')).toBeUndefined();
	});

	it('reads and removes many in the order asked, missing ones as undefined', async () => {
		await adapter.set('a', '1');
		await adapter.set('c', '3');
		expect(await adapter.getMany(['c', 'b', 'a'])).toEqual(['3', undefined, '1']);
		expect(await adapter.deleteMany(['b'])).toBe(false);
		expect(await adapter.deleteMany(['a', 'b'])).toBe(true);
		expect(await adapter.getMany(['a', 'c'])).toEqual([undefined, '3']);
	});

	it("clears its own namespace only, and keeps @keyv/sqlite's table, so files written before open as they are", async () => {
		await connection.query("INSERT INTO keyv (key, value) VALUES ('other:x', 'kept')");
		adapter.namespace = 'veil';
		await adapter.set('veil:x', 'gone');
		await adapter.clear();
		expect(await adapter.get('veil:x')).toBeUndefined();
		expect(await connection.query('SELECT key, value FROM keyv')).toEqual([{ key: 'other:x', value: 'kept' }]);
		expect(await connection.query("SELECT name, type FROM pragma_table_info('keyv') ORDER BY cid")).toEqual([
			{ name: 'key', type: 'VARCHAR(255)' },
			{ name: 'value', type: 'TEXT' },
		]);
	});

	it('serves keyv itself: values with their expiry, namespaced', async () => {
		const keyv = new Keyv({ store: adapter, namespace: 'veil', throwOnErrors: true });
		await keyv.set('short', { n: 1 }, 1);
		await keyv.set('long', { n: 2 }, 60_000);
		await new Promise((resolve) => setTimeout(resolve, 20));
		expect(await keyv.get('short')).toBeUndefined();
		expect(await keyv.get('long')).toEqual({ n: 2 });
		expect(await keyv.get(['long', 'short'])).toEqual([{ n: 2 }, undefined]);
	});
});
