import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

export interface SandboxProcess {
	readonly child: ChildProcess;
	readonly stdout: string[];
	readonly stderr: string[];
	readonly exited: Promise<number | string>;
	/** Resolves with the page's address once the sandbox says it is ready. */
	ready(timeoutMs?: number): Promise<string>;
	/** Ends it by its pid (SIGKILL) if it still runs. */
	kill(): void;
}

/**
 * A sandbox for a test file's tests: started before them on a free port and handed to `started` with its page's
 * address; killed by its pid after them, with anything left below it.
 */
export function useSandbox(started: (sandbox: SandboxProcess, url: string) => void): void {
	let sandbox: SandboxProcess | undefined;
	beforeAll(async () => {
		sandbox = startSandboxProcess({ SANDBOX_PORT: '0' });
		started(sandbox, await sandbox.ready());
	}, 180_000);
	afterAll(() => {
		sandbox?.kill();
		for (const below of descendantsOf(sandbox?.child.pid ?? -1)) if (isAlive(below.pid)) process.kill(below.pid, 'SIGKILL');
	});
}

/**
 * Runs the sandbox as `npm run sandbox` does (`node --import tsx sandbox/main.ts`, without npm in between, so a
 * signal reaches it), with exactly `env` plus PATH: nothing of the developer's environment leaks in.
 */
export function startSandboxProcess(env: Record<string, string>): SandboxProcess {
	const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/main.ts'], {
		cwd: ROOT,
		env: { PATH: process.env.PATH ?? '', ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const stdout: string[] = [];
	const stderr: string[] = [];
	child.stdout?.on('data', (chunk: Buffer) => stdout.push(...chunk.toString('utf8').split('\n')));
	child.stderr?.on('data', (chunk: Buffer) => stderr.push(...chunk.toString('utf8').split('\n')));
	const exited = new Promise<number | string>((resolveExit) => child.on('exit', (code, signal) => resolveExit(code ?? signal ?? 'unknown')));
	return {
		child,
		stdout,
		stderr,
		exited,
		async ready(timeoutMs = 120_000) {
			const deadline = Date.now() + timeoutMs;
			for (;;) {
				const line = stdout.find((l) => /sandbox is ready: http/.test(l));
				if (line) return (/(http:\/\/\S+)/.exec(line) as RegExpExecArray)[1] as string;
				if (child.exitCode !== null || Date.now() > deadline) {
					throw new Error(`the sandbox did not get ready:\n${stdout.join('\n')}\n${stderr.join('\n')}`);
				}
				await new Promise((r) => setTimeout(r, 100));
			}
		},
		kill() {
			if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
		},
	};
}

/** Every process below `pid` (children, their children…), read from /proc. */
export function descendantsOf(pid: number): Array<{ pid: number; command: string }> {
	const parents = new Map<number, number[]>();
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			// The command name may hold spaces and parentheses: the fields after its last ')' are fixed.
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
		} catch {
			// It ended while we read.
		}
	}
	const found: Array<{ pid: number; command: string }> = [];
	const queue = [pid];
	while (queue.length > 0) {
		for (const child of parents.get(queue.shift() as number) ?? []) {
			found.push({ pid: child, command: commandLine(child) });
			queue.push(child);
		}
	}
	return found;
}

function commandLine(pid: number): string {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
	} catch {
		return '';
	}
}

/** Whether a process with this pid still exists (a zombie counts as gone: it runs nothing). */
export function isAlive(pid: number): boolean {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
	} catch {
		return false;
	}
}
