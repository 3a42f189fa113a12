/**
 * A separate process that holds an exclusive lock on a SQLite file until told to let go, as another program
 * (a backup, an operator's sqlite3 shell) would. Usage: sqliteLockProcess.ts <path> [EXCLUSIVE|IMMEDIATE]; prints
 * `locked` once it holds the lock, and `released` after a line on stdin made it commit. IMMEDIATE keeps out writers
 * only: others still read.
 */
import sqlite3 from 'sqlite3';

const [path = '', mode = 'EXCLUSIVE'] = process.argv.slice(2);
if (mode !== 'EXCLUSIVE' && mode !== 'IMMEDIATE') throw new Error(`unknown lock mode ${mode}`);
const connection = new sqlite3.Database(path);
const run = (sql: string): Promise<void> => new Promise((resolve, reject) => connection.exec(sql, (error) => (error ? reject(error) : resolve())));
await run(`BEGIN ${mode}`);
process.stdout.write('locked\n');
process.stdin.once('data', () => {
	void run('COMMIT')
		.then(() => new Promise((resolve) => connection.close(resolve)))
		.then(() => {
			process.stdout.write('released\n');
			process.exit(0);
		});
});
