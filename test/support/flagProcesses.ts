import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const TSX = import.meta.resolve('tsx');
const SCRIPT = join(resolve(import.meta.dirname), 'flagProcess.ts');

/**
 * Runs flagProcess.ts once per argument list, all at once: each opens the store, and only when every one is ready
 * are they told to go, so their operations meet in the store. Resolves with each process's output lines.
 */
export async function runTogether(store: { url: string; namespace: string; key: string }, runs: readonly string[][]): Promise<string[][]> {
	const children = runs.map((args) => {
		const child = spawn(process.execPath, ['--import', TSX, SCRIPT, store.url, store.namespace, store.key, ...args], {
			stdio: ['pipe', 'pipe', 'inherit'],
		});
		const lines: string[] = [];
		const reader = createInterface({ input: child.stdout });
		const ready = new Promise<void>((resolveReady, reject) => {
			reader.on('line', (line) => {
				lines.push(line);
				if (line === 'ready') resolveReady();
			});
			child.on('exit', (code) => reject(new Error(`flagProcess exited ${code} before it was ready`)));
		});
		const exited = once(child, 'exit');
		return { child, lines, ready, exited };
	});
	try {
		await Promise.all(children.map((running) => running.ready));
		for (const { child } of children) child.stdin.end('go\n');
		const codes = await Promise.all(children.map((running) => running.exited));
		if (codes.some(([code]) => code !== 0)) throw new Error(`a flagProcess failed: ${JSON.stringify(codes)}`);
		return children.map((running) => running.lines.filter((line) => line !== 'ready'));
	} finally {
		for (const { child } of children) if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
	}
}
