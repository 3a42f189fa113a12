/**
 * `node --import tsx bench/wakeCost.ts`: what one wake of an idle event loop costs on this machine, and what a trip
 * to libuv's thread pool adds to it, in CPU (user + system, every thread) per wake. Where asks come slowly, an ask's
 * CPU is mostly its wake-ups (docs/performance.md, 2026-11-28 evening): this says what each one costs here.
 *
 * Each way wakes 40 times a second (every 25 ms, as asks at 40/s), 200 times a round; the ways take turns, five
 * rounds after one to warm up, and the median round is printed with the lowest and highest. Nothing else runs.
 */
import { stat } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { median } from './stats.js';

const WAKES = 200;
const INTERVAL_MS = 25;
const ROUNDS = 5;

/** CPU per wake, in µs, of waking every {@link INTERVAL_MS} and doing `work` each time. */
async function cpuPerWake(work: () => Promise<unknown>): Promise<number> {
	const before = process.cpuUsage();
	let wakes = 0;
	await new Promise<void>((resolve) => {
		const interval = setInterval(() => {
			void work().then(() => {
				if (++wakes < WAKES) return;
				clearInterval(interval);
				resolve();
			});
		}, INTERVAL_MS);
	});
	const used = process.cpuUsage(before);
	return (used.user + used.system) / WAKES;
}

const directory = mkdtempSync(join(tmpdir(), 'veil-wake-'));
const database = new sqlite3.Database(join(directory, 'wake.sqlite'));
const exec = (sql: string) => new Promise<void>((resolve, reject) => database.exec(sql, (error) => (error ? reject(error) : resolve())));
try {
	await exec("PRAGMA journal_mode = WAL; CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT); INSERT INTO kv VALUES ('a', 'x');");
	const statement = database.prepare('SELECT value FROM kv WHERE key = ?');
	const ways: Record<string, () => Promise<unknown>> = {
		'a wake, nothing else': () => Promise.resolve(),
		'a wake and an fs.stat (the thread pool)': () => stat(directory),
		'a wake and a prepared SQLite read (the thread pool)': () =>
			new Promise<void>((resolve, reject) => statement.all(['a'], (error) => (error ? reject(error) : resolve()))),
	};
	for (const work of Object.values(ways)) await cpuPerWake(work);
	const rounds = new Map<string, number[]>(Object.keys(ways).map((name) => [name, []]));
	for (let round = 0; round < ROUNDS; round++) {
		for (const [name, work] of Object.entries(ways)) rounds.get(name)?.push(await cpuPerWake(work));
	}
	console.log(`CPU per wake (user + system, every thread), ${WAKES} wakes every ${INTERVAL_MS} ms a round, ${ROUNDS} rounds:`);
	for (const [name, micros] of rounds) {
		console.log(`  ${name}: ${median(micros).toFixed(0)} µs (rounds ${Math.min(...micros).toFixed(0)}–${Math.max(...micros).toFixed(0)})`);
	}
	statement.finalize();
} finally {
	await new Promise<void>((resolve) => database.close(() => resolve()));
	rmSync(directory, { recursive: true, force: true });
}
