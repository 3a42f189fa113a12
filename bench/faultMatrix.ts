/**
 * The fault matrix as a bench: 1,000 asks over about 30 s through a bot process on its own Redis, while the
 * upstream, Discord's REST, the gateway and Redis fail in turn (see the README). Prints the count of each outcome
 * and whether anything was left unanswered, answered twice, crashed or lost (exits 1 if so), and beside them what the
 * bot's own /metrics and /readyz said at the end.
 * Usage: npm run bench:faults -- [asks] [seconds] [seed]
 */
import { runFaultMatrix } from '../test/support/faultMatrix.js';
import { askMetricCounts, UPSTREAM_MIX } from '../test/support/faultMix.js';

const [asks = 1000, seconds = 30, seed = 20_261_123] = process.argv.slice(2).map(Number);
const stamp = () => new Date().toISOString().slice(11, 19);
console.log(
	`fault matrix: ${asks} asks over ${seconds} s (seed ${seed}); upstream mix by weight: ${UPSTREAM_MIX.map(([fault, weight]) => `${fault} ${weight}`).join(', ')}`,
);
const report = await runFaultMatrix({ asks, durationMs: seconds * 1000, seed, log: (line) => console.log(`${stamp()}  ${line}`) });

const table = (title: string, counts: Record<string, number>) => {
	console.log(`\n${title}`);
	const entries = Object.entries(counts).sort(([, a], [, b]) => b - a);
	const total = entries.reduce((sum, [, n]) => sum + n, 0);
	for (const [name, n] of entries) console.log(`  ${name.padEnd(24)} ${String(n).padStart(6)}  ${((100 * n) / total).toFixed(1).padStart(5)} %`);
	console.log(`  ${'total'.padEnd(24)} ${String(total).padStart(6)}`);
};
table('interactions by outcome (as the member saw it)', report.outcomes);
table('upstream attempts by what the stand-in answered', report.upstreamAttempts);
console.log(`\nDiscord edits answered 429 (with retry_after) or 502 on purpose: ${report.discordEditFailures}`);
console.log(`dispatches made again while the gateway had no session: ${report.redispatched}`);
console.log(`unanswered: ${report.unanswered.length}; answered twice: ${report.answeredTwice.length}`);
for (const problem of report.problems.slice(0, 20)) console.log(`  ${problem}`);
console.log(`crashed: ${report.crashed ? 'yes' : 'no'} (exit ${report.exitCode}); unhandled rejections: ${report.unhandledRejections}`);
console.log(
	`lost after the Redis restart: links ${report.lost.links.length}, flags ${report.lost.flags.length}, settings ${report.lost.settings.join(', ') || 'none'}`,
);

const { metrics } = report;
const seen = askMetricCounts(report.askOutcomes);
console.log(
	`\nveil_asks_total by outcome (GET /metrics at the end), beside what members saw of every /ask (${report.asksAfterRun} of them after the run)`,
);
console.log(`  ${'outcome'.padEnd(10)} ${'metric'.padStart(7)} ${'seen'.padStart(7)}`);
const disagreeing = Object.entries(metrics.asks).filter(([outcome, n]) => n !== seen[outcome as keyof typeof seen]);
for (const [outcome, n] of Object.entries(metrics.asks))
	console.log(`  ${outcome.padEnd(10)} ${String(n).padStart(7)} ${String(seen[outcome as keyof typeof seen]).padStart(7)}`);
console.log(`  ${disagreeing.length === 0 ? 'each count agrees' : `DISAGREE: ${disagreeing.map(([outcome]) => outcome).join(', ')}`}`);
console.log(
	`\nveil_links_total by outcome (${report.members} members linked before the run, ${Object.values(report.lateLinkOutcomes).reduce((a, b) => a + b, 0)} /links during it)`,
);
for (const [outcome, n] of Object.entries(metrics.links)) console.log(`  ${outcome.padEnd(10)} ${String(n).padStart(7)}`);
console.log('\nother metrics at the end');
console.log(`  veil_store_errors_total                 ${String(metrics.storeErrors).padStart(7)}`);
console.log(
	`  veil_generation_duration_seconds_count  ${String(metrics.generationCalls).padStart(7)}   (generation requests the stand-in received: ${report.generationRequests})`,
);
console.log(`  veil_ask_queue_length                   ${String(metrics.queueLength).padStart(7)}`);
console.log(`  veil_asks_in_flight                     ${String(metrics.inFlight).padStart(7)}`);
console.log(`  /readyz: ${metrics.ready ? 'ready' : 'NOT ready'} (${metrics.readyz})`);
console.log(`\nelapsed: ${(report.elapsedMs / 1000).toFixed(1)} s`);
const failed =
	report.unanswered.length +
		report.answeredTwice.length +
		report.unhandledRejections +
		report.lost.links.length +
		report.lost.flags.length +
		report.lost.settings.length >
		0 || report.crashed;
process.exit(failed ? 1 : 0);
