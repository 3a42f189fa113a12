import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteConnection, type SqliteConnection } from '../../../src/storage/sqliteConnection.js';

const scratch = mkdtempSync(join(tmpdir(), 'veil-sqlite-connection-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a SQLite connection with prepared statements', () => {
	let connection: SqliteConnection;
	let file = 0;

	beforeEach(async () => {
		connection = await openSqliteConnection(join(scratch, `${file++}.sqlite`), 100);
		await connection.query('CREATE TABLE t (key TEXT PRIMARY KEY, n INTEGER NOT NULL)');
	});
	afterEach(() => connection.close());

	it('runs one statement again and again with new parameters, each run seeing the last', async () => {
		for (let n = 0; n < 20; n++) {
			await connection.query('INSERT INTO t (key, n) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET n = excluded.n', 'k', n);
			expect(await connection.query('SELECT n FROM t WHERE key = ?', 'k')).toEqual([{ n }]);
		}
		expect(await connection.query('SELECT n FROM t WHERE key = ?', 'missing')).toEqual([]);
	});

	it('gives calls of one statement at once each its own rows', async () => {
		await Promise.all(Array.from({ length: 50 }, (_, n) => connection.query('INSERT INTO t (key, n) VALUES (?, ?)', `k${n}`, n)));
		const rows = await Promise.all(Array.from({ length: 50 }, (_, n) => connection.query('SELECT n FROM t WHERE key = ?', `k${n}`)));
		expect(rows).toEqual(Array.from({ length: 50 }, (_, n) => [{ n }]));
	});

	it("fails a statement SQLite cannot prepare with SQLite's own error, every time, and goes on with the others", async () => {
		for (let attempt = 0; attempt < 3; attempt++) {
			await expect(connection.query('SELECT a_column FROM missing_table')).rejects.toThrow(/no such table: missing_table/);
		}
		await expect(Promise.all([connection.query('SELEC 1'), connection.query('SELEC 1')])).rejects.toThrow(/syntax error/);
		expect(await connection.query('SELECT count(*) AS rows FROM t')).toEqual([{ rows: 0 }]);
	});

	it('keeps a bounded number prepared and still runs one it has let go of', async () => {
		for (let n = 0; n < 150; n++) expect(await connection.query(`SELECT ${n} AS n`)).toEqual([{ n }]);
		expect(await connection.query('SELECT 0 AS n')).toEqual([{ n: 0 }]);
	});

	it('fails a run whose constraint fails, and the statement then runs again', async () => {
		const insert = 'INSERT INTO t (key, n) VALUES (?, ?)';
		await connection.query(insert, 'k', 1);
		await expect(connection.query(insert, 'k', 2)).rejects.toThrow(/UNIQUE constraint failed/);
		await connection.query(insert, 'j', 3);
		expect(await connection.query('SELECT key, n FROM t ORDER BY key')).toEqual([
			{ key: 'j', n: 3 },
			{ key: 'k', n: 1 },
		]);
	});

	it('answers reads of one statement made at once in the same turn of a busy loop, not one a turn', async () => {
		await connection.query('INSERT INTO t (key, n) VALUES (?, ?)', 'k', 1);
		let answered = 0;
		await Promise.all(Array.from({ length: 8 }, () => connection.query('SELECT n FROM t WHERE key = ?', 'k')));
		const reads = Array.from({ length: 8 }, () => connection.query('SELECT n FROM t WHERE key = ?', 'k').then(() => answered++));
		// Each read hands its statement to the driver once the microtasks before it have run.
		for (let tick = 0; tick < 5; tick++) await Promise.resolve();
		// A loop busy with other asks: SQLite's threads could run every read meanwhile, if they had been handed them.
		const until = Date.now() + 200;
		while (Date.now() < until);
		for (let turn = 0; turn < 3; turn++) await new Promise((next) => setImmediate(next));
		expect(answered).toBeGreaterThanOrEqual(4);
		await Promise.all(reads);
	});
});
