/**
 * A separate process that holds an exclusive lock on a SQLite file until told to let go, as another program
 * (a backup, an operator's sqlite3 shell) would. Usage: sqliteLockProcess.ts <path> [EXCLUSIVE|IMMEDIATE]; prints
 * `locked` once it holds the lock, and `released` after a line on stdin made it commit. IMMEDIATE keeps out writers
 * only: others still read.
 */
import KeyvSqlite from '@keyv/sqlite';

const [path = '', mode = 'EXCLUSIVE'] = process.argv.slice(2);
if (mode !== 'EXCLUSIVE' && mode !== 'IMMEDIATE') throw new Error(`unknown lock mode ${mode}`);
const connection = new KeyvSqlite({ uri: `sqlite://${path}` });
await connection.query(`BEGIN ${mode}`);
process.stdout.write('locked\n');
process.stdin.once('data', () => {
	void connection
		.query('COMMIT')
		.then(() => connection.disconnect())
		.then(() => {
			process.stdout.write('released\n');
			process.exit(0);
		});
});
