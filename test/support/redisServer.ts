import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noRedisForTests } from './testRedis.js';

/** Whether a `redis-server` binary is on PATH; tests that start their own Redis fail without one. */
export const redisServerAvailable = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

/**
 * A Redis of the test's own, on a free port of 127.0.0.1. By default with an append-only file synced on every write,
 * so what it acknowledged survives a stop and a start (on the same port and directory); `persistent: false` writes
 * nothing to disk. Stopped by its pid.
 */
export class RedisServer {
	readonly port: number;
	readonly #directory: string;
	readonly #persistent: boolean;
	#child: ChildProcess | undefined;

	private constructor(port: number, directory: string, persistent: boolean) {
		this.port = port;
		this.#directory = directory;
		this.#persistent = persistent;
	}

	static async start({ persistent = true }: { persistent?: boolean } = {}): Promise<RedisServer> {
		if (!redisServerAvailable) throw new Error(noRedisForTests);
		const server = new RedisServer(await freePort(), mkdtempSync(join(tmpdir(), 'veil-redis-')), persistent);
		await server.resume();
		return server;
	}

	get url(): string {
		return `redis://127.0.0.1:${this.port}`;
	}

	/** Starts the server again on the same port and directory: it reloads what it had written. */
	async resume(): Promise<void> {
		if (this.#child) throw new Error('redis-server is already running');
		const appendOnly = this.#persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
		const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.#directory, ...appendOnly, '--save', ''], {
			stdio: 'ignore',
		});
		this.#child = child;
		for (let attempt = 0; !(await answersPing(this.port)); attempt++) {
			if (child.exitCode !== null || attempt > 100) throw new Error('redis-server did not start');
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
	}

	/** Stops the server (SIGTERM to its pid: it finishes writing its file) and waits until it has exited. */
	async halt(): Promise<void> {
		const child = this.#child;
		this.#child = undefined;
		if (!child?.pid || child.exitCode !== null) return;
		const exited = once(child, 'exit');
		process.kill(child.pid, 'SIGTERM');
		await exited;
	}

	async stop(): Promise<void> {
		await this.halt();
		rmSync(this.#directory, { recursive: true, force: true });
	}
}

/** A port on 127.0.0.1 that nothing listens on at the moment of asking. */
export async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	await new Promise((resolve) => server.close(resolve));
	if (address === null || typeof address === 'string') throw new Error('no free port');
	return address.port;
}

function answersPing(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = createConnection({ host: '127.0.0.1', port });
		let reply = '';
		socket.setTimeout(500);
		socket.on('connect', () => socket.write('PING\r\n'));
		socket.on('data', (chunk) => {
			reply += chunk.toString('latin1');
			if (reply.includes('\r\n')) {
				socket.destroy();
				resolve(reply.startsWith('+PONG'));
			}
		});
		socket.on('error', () => resolve(false));
		socket.on('timeout', () => {
			socket.destroy();
			resolve(false);
		});
	});
}
