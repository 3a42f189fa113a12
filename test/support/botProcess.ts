import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const TSX = import.meta.resolve('tsx');
const ROOT = resolve(import.meta.dirname, '../..');

export interface BotProcess {
	readonly child: ChildProcess;
	readonly stdout: string[];
	readonly stderr: string[];
	/** Resolves with the exit code (or the signal's name) once the process has ended. */
	readonly exited: Promise<number | string>;
	/** Waits until a stdout line matches, at most `timeoutMs`. */
	waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
	/** Ends the process by its pid if it still runs. */
	kill(): void;
}

/**
 * Runs a script of the project (`src/main.ts`, `src/deployCommands.ts`) as its own process with exactly `env`
 * (plus PATH), in an empty working directory so no developer's `.env` can leak in.
 */
export function runScript(script: string, env: Record<string, string>): BotProcess {
	const cwd = mkdtempSync(join(tmpdir(), 'veil-proc-'));
	const child = spawn(process.execPath, ['--import', TSX, join(ROOT, script)], {
		cwd,
		env: { PATH: process.env.PATH ?? '', ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const stdout: string[] = [];
	const stderr: string[] = [];
	const listeners = new Set<() => void>();
	const collect = (into: string[]) => {
		let pending = '';
		return (chunk: Buffer) => {
			pending += chunk.toString('utf8');
			const lines = pending.split('\n');
			pending = lines.pop() ?? '';
			into.push(...lines);
			for (const listener of listeners) listener();
		};
	};
	child.stdout?.on('data', collect(stdout));
	child.stderr?.on('data', collect(stderr));
	const exited = new Promise<number | string>((resolveExit) => {
		child.on('exit', (code, signal) => resolveExit(code ?? signal ?? 'unknown'));
	});
	return {
		child,
		stdout,
		stderr,
		exited,
		waitForLine(pattern, timeoutMs = 15_000) {
			return new Promise((resolveLine, reject) => {
				const check = () => {
					const line = stdout.find((candidate) => pattern.test(candidate));
					if (line === undefined) return;
					cleanup();
					resolveLine(line);
				};
				const timer = setTimeout(() => {
					cleanup();
					reject(new Error(`no stdout line matched ${pattern} within ${timeoutMs} ms; stderr: ${stderr.join('\n')}`));
				}, timeoutMs);
				const cleanup = () => {
					clearTimeout(timer);
					listeners.delete(check);
				};
				listeners.add(check);
				check();
			});
		},
		kill() {
			if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
		},
	};
}
