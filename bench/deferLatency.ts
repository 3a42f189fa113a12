/**
 * Defer latency of /ask against the local Discord: the time from the emulator dispatching INTERACTION_CREATE to
 * its receiving the bot's deferral callback, over a few hundred asks, plus the time to the final answer.
 *
 *   npm run bench -- [count=300] [concurrency=10]
 *
 * It prints figures; it asserts nothing. The bot runs in this process on a real SQLite file, with the account gate
 * on, so each ask pays the one store read that comes before the deferral.
 */
import { makeUser } from '../test/support/discord/emulator.js';
import { startHarness } from '../test/support/harness.js';

const count = Number(process.argv[2] ?? 300);
const concurrency = Number(process.argv[3] ?? 10);

function percentile(sorted: number[], p: number): number {
	if (sorted.length === 0) return Number.NaN;
	const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
	return sorted[index] as number;
}

function summary(name: string, values: number[]): string {
	const sorted = [...values].sort((a, b) => a - b);
	const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
	const figures = [50, 90, 99].map((p) => `p${p} ${percentile(sorted, p).toFixed(1)} ms`).join('  ');
	return `${name.padEnd(16)} ${figures}  max ${(sorted.at(-1) ?? Number.NaN).toFixed(1)} ms  mean ${mean.toFixed(1)} ms`;
}

const harness = await startHarness({ env: { LOG_LEVEL: 'warn' } });
try {
	const members = Array.from({ length: concurrency }, (_, i) => makeUser(`bench${i}`));
	for (const member of members) await harness.linkMember(member.id);

	const defer: number[] = [];
	const answer: number[] = [];
	let next = 0;
	const started = performance.now();
	const worker = async (member: (typeof members)[number]) => {
		while (next < count) {
			next += 1;
			const handle = harness.discord.slashCommand({ name: 'ask', user: member, options: [{ type: 3, name: 'prompt', value: `question ${next}` }] });
			const state = await handle.waitForAnswer(30_000);
			const first = state.callbacks[0];
			if (first?.type !== 5) throw new Error(`expected a deferral, got ${first?.type}`);
			defer.push(first.at - state.dispatchedAt);
			// The wait wakes on the emulator's own event for the edit, so this is when the answer reached Discord.
			answer.push(Date.now() - state.dispatchedAt);
		}
	};
	await Promise.all(members.map(worker));
	const seconds = (performance.now() - started) / 1000;

	console.log(`/ask x${count}, ${concurrency} at a time, ${(count / seconds).toFixed(1)} asks/s over ${seconds.toFixed(1)} s (node ${process.version})`);
	console.log(summary('defer latency', defer));
	console.log(summary('answer latency', answer));
} finally {
	await harness.stop();
}
