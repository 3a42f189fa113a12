/**
 * `npm run bench [-- --quick]`: Veil against the least a discord.js bot can do for /ask, one after the other in one
 * run, each as its own process on a fresh local Discord (test/support's emulator) and upstream stand-in (50 ms per
 * generation call). For each bot: memory after GC and the CPU of the start at 500 and 2,500 servers; acks,
 * completions and overhead at 40, 100, 200 and 400 asks a second, answers per second and CPU per ask; then 1,000
 * asks in flight on a 5 s upstream. It prints every figure for both and the ratio; it asserts nothing.
 *
 * `npm run bench` builds first (dist/, and dist/bench/ for the bare bot and the probe both bots are started with).
 */
import { cpus } from 'node:os';
import { buildRows, formatTable } from './report.js';
import { bareBot, benchBot, veil, type BenchPlan } from './scenario.js';

const quick = process.argv.includes('--quick');

const plan: BenchPlan = quick
	? {
			rates: [
				{ rate: 40, count: 120 },
				{ rate: 100, count: 200 },
				// 5 s at 200/s, so answers per second says what a bot sustains, not what its first second allows.
				{ rate: 200, count: 1000 },
				{ rate: 400, count: 400 },
			],
			warmUp: 50,
			slowAsks: 500,
			guildsFirst: 500,
			guildsThen: 2500,
			members: 50,
			upstreamMs: 50,
			slowUpstreamMs: 5000,
		}
	: {
			rates: [
				{ rate: 40, count: 600 },
				{ rate: 100, count: 1000 },
				{ rate: 200, count: 2000 },
				{ rate: 400, count: 2000 },
			],
			warmUp: 200,
			slowAsks: 1000,
			guildsFirst: 500,
			guildsThen: 2500,
			members: 50,
			upstreamMs: 50,
			slowUpstreamMs: 5000,
		};

const log = (line: string) => process.stderr.write(`${line}\n`);
const started = performance.now();
log(`bench${quick ? ' --quick' : ''}: bare bot first, then Veil`);
const bare = await benchBot(bareBot, plan, log);
const veilFigures = await benchBot(veil, plan, log);
const minutes = (performance.now() - started) / 60_000;

const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
console.log(
	`\n${quick ? 'npm run bench -- --quick' : 'npm run bench'}: ${cpus().length} cores (${cpu}), Node ${process.versions.node}, ` +
		`${plan.members} linked members, upstream ${plan.upstreamMs} ms, ${minutes.toFixed(1)} min\n`,
);
console.log(formatTable(buildRows(bare, veilFigures, plan)));
