import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withBuildLock } from '../../sandbox/processes.js';

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
 * Runs a TypeScript script of the project (`src/main.ts`, `src/deployCommands.ts`) through tsx as its own process
 * with exactly `env` (plus PATH), in an empty working directory so no developer's `.env` can leak in.
 */
export function runScript(script: string, env: Record<string, string>): BotProcess {
	return runNode(['--import', TSX, join(ROOT, script)], env);
}

/**
 * Runs `node` with these arguments as its own process, like {@link runScript} but with no loader: a path argument
 * (`dist/src/main.js`) is taken from the project's root, so a compiled entry runs as the Procfile runs it.
 */
export function runCompiled(args: readonly string[], env: Record<string, string>): BotProcess {
	return runNode(
		args.map((arg) => (arg.startsWith('-') ? arg : join(ROOT, arg))),
		env,
	);
}

function runNode(args: string[], env: Record<string, string>): BotProcess {
	const cwd = mkdtempSync(join(tmpdir(), 'veil-proc-'));
	const child = spawn(process.execPath, args, {
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

/** Compiles the project as `npm run build` does, into the root's `dist/`; rejects with tsc's output on an error. */
export function buildProject(): Promise<void> {
	const tsc = fileURLToPath(import.meta.resolve('typescript/bin/tsc'));
	// The sandbox's test builds dist/ too, maybe at the same time: one build at a time.
	return withBuildLock(
		() =>
			new Promise((resolveBuild, reject) => {
				execFile(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { cwd: ROOT }, (error, stdout, stderr) => {
					if (error) reject(new Error(`the build failed: ${stdout}${stderr}`));
					else resolveBuild();
				});
			}),
	);
}

/** A Procfile process type's command (`worker`, `release`): the `NAME=value` words before it, and its words. */
export function procfileCommand(processType: string): { env: Record<string, string>; argv: string[] } {
	const line = readFileSync(join(ROOT, 'Procfile'), 'utf8')
		.split('\n')
		.find((candidate) => candidate.startsWith(`${processType}:`));
	if (line === undefined) throw new Error(`the Procfile has no ${processType}: line`);
	const words = line
		.slice(processType.length + 1)
		.trim()
		.split(/\s+/);
	const program = words.findIndex((word) => !/^[A-Z_][A-Z0-9_]*=/.test(word));
	if (program === -1) throw new Error(`the Procfile's ${processType}: line sets variables but runs no command`);
	const assignments = words.slice(0, program).map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]);
	return { env: Object.fromEntries(assignments), argv: words.slice(program) };
}

/** The command of an npm script of the project. */
export function npmScript(name: string): string | undefined {
	const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
	return manifest.scripts[name];
}
