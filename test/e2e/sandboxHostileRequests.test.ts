import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { describe, expect, test } from 'vitest';
import { launchChromium, openPage, shown } from '../support/sandboxBrowser.js';
import { descendantsOf, isAlive, type SandboxProcess, useSandbox } from '../support/sandboxProcess.js';

// Issue 32 item 4: any web page could end the sandbox with `fetch('http://127.0.0.1:3000//', {mode: 'no-cors'})`,
// and the Veil it started kept running without a parent.

/** Request targets that `new URL(target, base)` reads as an authority, and throws on. */
const TARGETS = ['//', '//@', '//a:b@', '//[', '///..//'];

describe('npm run sandbox against requests from any web page', () => {
	let sandbox: SandboxProcess;
	let url: string;

	useSandbox((started, at) => {
		sandbox = started;
		url = at;
	});

	test('no request to any port the sandbox listens on ends it: odd targets, on plain requests and WebSocket upgrades', async () => {
		const pid = sandbox.child.pid as number;
		const ports = listeningPorts(pid);
		// The page, the local Discord (REST, CDN, gateway) and the local model.
		expect(ports.length, `ports of ${pid}`).toBeGreaterThanOrEqual(3);
		for (const port of ports) {
			for (const target of TARGETS) {
				for (const method of ['GET', 'POST'])
					await rawRequest(port, `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 0\r\n\r\n`);
				await rawRequest(port, `GET /api/v10${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
				await rawRequest(
					port,
					`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
						'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
				);
			}
			// A page elsewhere, through a browser: its Host is the sandbox's own, its Origin another site's.
			await fetch(`http://127.0.0.1:${port}//`, { headers: { origin: 'https://evil.example' } }).catch(() => undefined);
		}
		await new Promise((r) => setTimeout(r, 500));
		expect(sandbox.child.exitCode, `stderr: ${sandbox.stderr.join('\n')}`).toBeNull();
		const page = await fetch(url);
		expect(page.status).toBe(200);
		const state = await fetch(new URL('api/state?person=member', url));
		expect(state.status).toBe(200);
	}, 60_000);

	test('when the sandbox is killed outright, every process it started dies with it, and an open page says so', async () => {
		// A page with a half-typed /ask open: it must say the sandbox stopped, and keep what was typed (issue 35, item 7).
		const browser = await launchChromium();
		const page = await openPage(browser, url, 'member');
		await page.locator('#composer-input').fill('/ask A question I typed');
		await page.locator('#composer-input').press('Enter');
		await expect.poll(() => page.locator('#command-form input[name="prompt"]').inputValue()).toBe('A question I typed');
		const pid = sandbox.child.pid as number;
		const started = descendantsOf(pid);
		expect(
			started.some((p) => p.command.includes('dist/src/main.js')),
			`Veil runs below the sandbox: ${JSON.stringify(started)}`,
		).toBe(true);
		// SIGKILL: the sandbox has no chance to stop anything itself.
		process.kill(pid, 'SIGKILL');
		await sandbox.exited;
		const deadline = Date.now() + 15_000;
		while (started.some((p) => isAlive(p.pid)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
		const survivors = started.filter((p) => isAlive(p.pid));
		// Orphans are no longer below the sandbox: ended here by pid, so a failure leaves nothing running.
		for (const p of survivors) process.kill(p.pid, 'SIGKILL');
		expect(survivors).toEqual([]);
		try {
			await shown(page.locator('#stopped[data-kind="stopped"]'));
			await page.locator('#command-form button[type="submit"]').click();
			await page.waitForTimeout(500);
			expect(await page.locator('#command-form input[name="prompt"]').inputValue()).toBe('A question I typed');
			expect(await page.locator('#toast').isVisible()).toBe(false);
		} finally {
			await browser.close();
		}
	}, 30_000);
});

/** Sends one raw request and waits for the answer (or the connection's end); a refusal is fine, a crash is not. */
function rawRequest(port: number, request: string): Promise<void> {
	return new Promise((resolve) => {
		const socket = connect(port, '127.0.0.1', () => socket.end(request));
		socket.setTimeout(2000, () => socket.destroy());
		socket.on('data', () => socket.destroy());
		socket.on('error', () => resolve());
		socket.on('close', () => resolve());
	});
}

/** The TCP ports the process listens on, from /proc: its socket inodes matched against the listening sockets. */
function listeningPorts(pid: number): number[] {
	const inodes = new Set<string>();
	for (const fd of readdirSync(`/proc/${pid}/fd`)) {
		try {
			const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
			const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
			if (inode) inodes.add(inode);
		} catch {
			// Closed while we read.
		}
	}
	const ports = new Set<number>();
	for (const table of ['tcp', 'tcp6']) {
		for (const line of readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1)) {
			const fields = line.trim().split(/\s+/);
			// local_address is HEX_IP:HEX_PORT; state 0A is LISTEN; the inode is the tenth field.
			if (fields[3] === '0A' && inodes.has(fields[9] ?? '')) ports.add(Number.parseInt((fields[1] ?? '').split(':')[1] ?? '', 16));
		}
	}
	return [...ports];
}
