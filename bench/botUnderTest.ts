import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ProbeReply, ProbeRequest } from './probeProtocol.js';

export const ROOT = resolve(import.meta.dirname, '..');
const PROBE = pathToFileURL(join(ROOT, 'dist/bench/probe.js')).href;

/** One bot as its own process, with the probe preloaded, asked for figures over IPC. */
export interface BotUnderTest {
	readonly pid: number;
	/** CPU since start and RSS now. */
	sample(): Promise<ProbeReply>;
	/** Starts the CPU profiler; with `path`, stops it and writes the profile there. */
	profile(path?: string): Promise<ProbeReply>;
	/** The same after two full garbage collections, with the V8 heap then in use. */
	measure(): Promise<ProbeReply>;
	/** Writes a heap snapshot of the process to `path`. */
	snapshot(path: string): Promise<ProbeReply>;
	/**
	 * Resolves once the process has used less than `quietMicros` of CPU over `windowMs`, with its CPU at the start of
	 * that quiet window: the CPU it took to start (or to finish what it was doing).
	 */
	waitForIdle(options?: { windowMs?: number; quietMicros?: number; timeoutMs?: number }): Promise<number>;
	/** SIGTERM, then SIGKILL by pid after 10 s. */
	stop(): Promise<void>;
	/** Its stderr so far, for when something goes wrong. */
	readonly stderr: string[];
}

/**
 * Starts `node --expose-gc --import probe [nodeArgs] <entry>` with exactly `env` (plus PATH) in an empty directory.
 */
export function startBotProcess(entry: string, env: Record<string, string>, nodeArgs: readonly string[] = []): BotUnderTest {
	const child: ChildProcess = spawn(process.execPath, ['--expose-gc', '--import', PROBE, ...nodeArgs, join(ROOT, entry)], {
		cwd: mkdtempSync(join(tmpdir(), 'veil-bench-')),
		env: { PATH: process.env.PATH ?? '', ...env },
		// stdout (Veil's info log lines) is written as in production, and thrown away.
		stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
	});
	if (child.pid === undefined) throw new Error(`could not start ${entry}`);
	const pid = child.pid;
	const stderr: string[] = [];
	child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
	const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
	let alive = true;
	void exited.then(() => (alive = false));

	let nextId = 0;
	const pending = new Map<number, (reply: ProbeReply) => void>();
	child.on('message', (reply: ProbeReply) => {
		pending.get(reply.id)?.(reply);
		pending.delete(reply.id);
	});
	const ask = (type: ProbeRequest['type'], path?: string) =>
		new Promise<ProbeReply>((resolveReply, reject) => {
			if (!alive) {
				reject(new Error(`${entry} has exited: ${stderr.join('').slice(-2000)}`));
				return;
			}
			const id = nextId++;
			pending.set(id, resolveReply);
			child.send({ id, type, path } satisfies ProbeRequest);
		});

	return {
		pid,
		stderr,
		sample: () => ask('sample'),
		profile: (path) => ask('profile', path),
		measure: () => ask('measure'),
		snapshot: (path) => ask('snapshot', path),
		async waitForIdle({ windowMs = 1000, quietMicros = 15_000, timeoutMs = 120_000 } = {}) {
			const started = performance.now();
			const history: Array<{ at: number; cpu: number }> = [];
			for (;;) {
				const { cpuMicros } = await ask('sample');
				const now = performance.now();
				history.push({ at: now, cpu: cpuMicros });
				const windowStart = history.find((entry) => entry.at >= now - windowMs - 1);
				if (windowStart && now - history[0]!.at >= windowMs && cpuMicros - windowStart.cpu < quietMicros) return windowStart.cpu;
				if (now - started > timeoutMs) throw new Error(`${entry} never went idle`);
				await new Promise((wake) => setTimeout(wake, 100));
			}
		},
		async stop() {
			if (!alive) return;
			process.kill(pid, 'SIGTERM');
			const killer = setTimeout(() => {
				if (alive) process.kill(pid, 'SIGKILL');
			}, 10_000);
			await exited;
			clearTimeout(killer);
		},
	};
}
