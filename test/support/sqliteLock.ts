import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';

const SCRIPT = resolve(import.meta.dirname, 'sqliteLockProcess.ts');

export interface SqliteLock {
	/** Commits the other connection's empty transaction and waits until its process has ended. */
	release(): Promise<void>;
}

/**
 * Locks a SQLite file from another process (BEGIN EXCLUSIVE, or IMMEDIATE to keep out writers only, on its own
 * connection), so the bot's statements meet a real lock and nothing in this process (its thread pool) holds it.
 */
export async function lockSqliteFile(path: string, mode: 'EXCLUSIVE' | 'IMMEDIATE' = 'EXCLUSIVE'): Promise<SqliteLock> {
	const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, path, mode], { stdio: ['pipe', 'pipe', 'inherit'] });
	const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => {
		output += chunk.toString('utf8');
	});
	await Promise.race([
		once(child.stdout, 'data').then(async function untilLocked(): Promise<void> {
			if (!output.includes('locked\n')) return once(child.stdout, 'data').then(untilLocked);
		}),
		exited.then(() => Promise.reject(new Error('the locking process ended before it held the lock'))),
	]);
	return {
		async release() {
			child.stdin.end('release\n');
			const [code] = await exited;
			if (code !== 0) throw new Error(`the locking process ended with ${code}`);
		},
	};
}
