/**
 * What counting an ask for /usage costs the store, on a SQLite file (the default store): asks counted through
 * UsageCounts (batched: the asks ending within 100 ms share one statement) against the same changes written one
 * statement per ask, and against the daily limit's own increment, one statement per ask. Prints the store writes
 * and the wall time per ask. Run: node --import tsx bench/usageCost.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../src/logging/logger.js';
import { openAtomicStore } from '../src/storage/openStorage.js';
import type { AtomicStore } from '../src/storage/atomicStore.js';
import { UsageCounts } from '../src/usage/usageCounts.js';
import { median } from './stats.js';

const ASKS = 2000;
const ROUNDS = 5;
const silent = createLogger('silent');
const dir = mkdtempSync(join(tmpdir(), 'veil-usage-bench-'));
const GUILD = '100000000000000001';

/** The store with its writes counted. */
function counting(atomic: AtomicStore): { atomic: AtomicStore; writes: () => number } {
	let writes = 0;
	return {
		atomic: {
			...atomic,
			tally: (changes) => (writes++, atomic.tally(changes)),
			increment: (key, expiresAt) => (writes++, atomic.increment(key, expiresAt)),
		},
		writes: () => writes,
	};
}

const ask = (n: number) => ({
	guildId: GUILD,
	channelId: String(200 + (n % 20)),
	memberId: String(300 + (n % 200)),
	outcome: 'shown' as const,
	countsForMember: true,
	at: Date.now(),
});

async function round(kind: 'batched' | 'one-per-ask' | 'limit increment'): Promise<{ msPerAsk: number; writesPerAsk: number }> {
	const store = await openAtomicStore(`sqlite://${join(dir, `${kind}-${Math.random()}.sqlite`)}`, silent, { operationTimeoutMs: 30_000 });
	const { atomic, writes } = counting(store);
	const usage = new UsageCounts({ atomic, retentionDays: 30, log: silent, hashKey: Buffer.alloc(32, 7) });
	const started = performance.now();
	if (kind === 'batched') {
		// Asks ending over time, as they do: 200 every 10 ms (2,000 in 100 ms, 20,000 a second).
		for (let n = 0; n < ASKS; n++) {
			usage.record(ask(n));
			if (n % 200 === 199) await new Promise((resolve) => setTimeout(resolve, 10));
		}
		await usage.server(GUILD, 1);
	} else if (kind === 'one-per-ask') {
		await Promise.all(
			Array.from({ length: ASKS }, () => new UsageCounts({ atomic, retentionDays: 30, log: silent, hashKey: Buffer.alloc(32, 7) })).map(
				async (own, n) => {
					own.record(ask(n));
					await own.member(GUILD, ask(n).memberId);
				},
			),
		);
	} else {
		await Promise.all(Array.from({ length: ASKS }, (_, n) => atomic.increment(`asks:${GUILD}:${300 + (n % 200)}:day`, Date.now() + 86_400_000)));
	}
	const ms = performance.now() - started;
	const counted = writes();
	await store.close();
	return { msPerAsk: ms / ASKS, writesPerAsk: counted / ASKS };
}

for (const kind of ['limit increment', 'one-per-ask', 'batched'] as const) {
	const results = [];
	for (let r = 0; r < ROUNDS; r++) results.push(await round(kind));
	const ms = median(results.map((result) => result.msPerAsk));
	const writesPerAsk = median(results.map((result) => result.writesPerAsk));
	console.log(
		`${kind.padEnd(16)} ${(ms * 1000).toFixed(1).padStart(7)} µs/ask (wall, median of ${ROUNDS})  ${writesPerAsk.toFixed(3)} store writes/ask`,
	);
}
rmSync(dir, { recursive: true, force: true });
