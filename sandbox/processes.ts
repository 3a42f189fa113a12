import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = resolve(import.meta.dirname, '..');

/** A process the sandbox started; stopped by its pid, never by name. */
export interface StartedProcess {
	readonly name: string;
	readonly child: ChildProcess;
	readonly exited: Promise<number | string>;
	/** Its last lines of output, for a failure message. */
	readonly output: string[];
}

export interface RunOptions {
	env: Record<string, string>;
	cwd: string;
	/** Each line of the process's output, prefixed with its name. Default: nothing shown. */
	onLine?: (line: string) => void;
}

const started = new Set<StartedProcess>();
/** Stops a child when the sandbox ends, however it ends. */
const PARENT_GUARD = pathToFileURL(resolve(import.meta.dirname, 'parentGuard.js')).href;

/** Runs `node` with these arguments (a relative path is from the project's root) as a child of the sandbox. */
export function startNode(name: string, args: readonly string[], options: RunOptions): StartedProcess {
	const child = spawn(process.execPath, ['--import', PARENT_GUARD, ...args.map((arg) => (arg.startsWith('-') ? arg : resolve(ROOT, arg)))], {
		cwd: options.cwd,
		env: { PATH: process.env.PATH ?? '', ...options.env },
		// The IPC channel is how the child learns that the sandbox is gone (see parentGuard.js).
		stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
	});
	const output: string[] = [];
	const collect = (chunk: Buffer) => {
		for (const line of chunk.toString('utf8').split('\n')) {
			if (!line) continue;
			output.push(line);
			if (output.length > 200) output.shift();
			options.onLine?.(line);
		}
	};
	child.stdout?.on('data', collect);
	child.stderr?.on('data', collect);
	const exited = new Promise<number | string>((resolveExit) => {
		child.on('error', () => resolveExit('spawn failed'));
		child.on('exit', (code, signal) => resolveExit(code ?? signal ?? 'unknown'));
	});
	const startedProcess: StartedProcess = { name, child, exited, output };
	started.add(startedProcess);
	void exited.then(() => started.delete(startedProcess));
	return startedProcess;
}

/** Runs a process to its end; rejects with its output when it exits other than 0. */
export async function runToEnd(name: string, args: readonly string[], options: RunOptions): Promise<void> {
	const p = startNode(name, args, options);
	const code = await p.exited;
	if (code !== 0) throw new Error(`${name} failed (${code}):\n${p.output.slice(-20).join('\n')}`);
}

/** Compiles Veil as `npm run build` does (tsc -p tsconfig.build.json, incremental), into dist/. */
export function buildVeil(onLine?: (line: string) => void): Promise<void> {
	const tsc = fileURLToPath(import.meta.resolve('typescript/bin/tsc'));
	return withBuildLock(() => runToEnd('build', [tsc, '-p', 'tsconfig.build.json'], { env: {}, cwd: ROOT, onLine }));
}

const BUILD_LOCK = resolve(ROOT, 'dist', '.build-lock');
/** A lock older than this was left by a build that was killed. */
const STALE_LOCK_MS = 5 * 60_000;

/**
 * One build of dist/ at a time across processes (two sandboxes, a sandbox and a test): tsc rewrites its files in
 * place, and a Veil starting meanwhile could load one half-written. After the first build, an unchanged tree
 * emits nothing, so the next waits briefly and writes nothing.
 */
export async function withBuildLock<T>(run: () => Promise<T>, timeoutMs = 180_000): Promise<T> {
	mkdirSync(resolve(ROOT, 'dist'), { recursive: true });
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		try {
			mkdirSync(BUILD_LOCK);
			break;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
			if (Date.now() - lockTakenAt() > STALE_LOCK_MS) rmSync(BUILD_LOCK, { recursive: true, force: true });
			else if (Date.now() > deadline) throw new Error(`another build of dist/ holds ${BUILD_LOCK}; remove it if none runs`);
			else await sleep(200);
		}
	}
	try {
		return await run();
	} finally {
		rmSync(BUILD_LOCK, { recursive: true, force: true });
	}
}

function lockTakenAt(): number {
	try {
		return statSync(BUILD_LOCK).mtimeMs;
	} catch {
		return Date.now();
	}
}

/** The pids of the processes the sandbox started that still run. */
export function runningPids(): number[] {
	return [...started].flatMap((p) => (p.child.pid !== undefined && p.child.exitCode === null && p.child.signalCode === null ? [p.child.pid] : []));
}

/**
 * Stops every process the sandbox started: SIGTERM by pid (Veil closes its store and exits 0 within 10 s), then
 * SIGKILL for any still running after `graceMs`.
 */
export async function stopAll(graceMs = 10_000): Promise<void> {
	const running = [...started];
	for (const p of running) signal(p, 'SIGTERM');
	const timer = setTimeout(() => {
		for (const p of running) signal(p, 'SIGKILL');
	}, graceMs);
	await Promise.all(running.map((p) => p.exited));
	clearTimeout(timer);
}

function signal(p: StartedProcess, name: NodeJS.Signals): void {
	const pid = p.child.pid;
	if (pid === undefined || p.child.exitCode !== null || p.child.signalCode !== null) return;
	try {
		process.kill(pid, name);
	} catch {
		// It ended between the check and the signal.
	}
}
