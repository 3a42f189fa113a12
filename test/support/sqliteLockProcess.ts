/**
 * A separate process that holds an exclusive lock on a SQLite file until told to let go, as another program
 * (a backup, an operator's sqlite3 shell) would. Usage: sqliteLockProcess.ts <path> [EXCLUSIVE|IMMEDIATE]; prints
 * `locked` once it holds the lock, and `released` after a line on stdin made it commit. IMMEDIATE keeps out writers
 * only: others still read.
 */
import Database from 'better-sqlite3';

const [path = '', mode = 'EXCLUSIVE'] = process.argv.slice(2);
if (mode !== 'EXCLUSIVE' && mode !== 'IMMEDIATE') throw new Error(`unknown lock mode ${mode}`);
// Waits for a lock the bot may hold for a moment, as a shell would.
const connection = new Database(path, { timeout: 5000 });
connection.exec(`BEGIN ${mode}`);
process.stdout.write('locked\n');
process.stdin.once('data', () => {
	connection.exec('COMMIT');
	connection.close();
	process.stdout.write('released\n');
	process.exit(0);
});
