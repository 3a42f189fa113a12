/**
 * `npm run bench [-- --quick] [--runs=N]`: Veil against the least a discord.js bot can do for /ask, in one run, each
 * bot its own process on its own local Discord (test/support's emulator) and upstream stand-in (50 ms per generation
 * call), one loaded at a time: memory after GC and the CPU of the start at 500 and 2,500 servers; acks, completions
 * and overhead at 40, 100, 200, 400 and 800 asks a second, answers per second and CPU per ask (the rates N times over,
 * the bots' phases alternating); then 1,000 asks in flight on a 5 s upstream. It prints every figure for both and
 * the ratio, and with N > 1 the tail ratios run by run; it asserts nothing. Last, through the proxy: two Veil
 * processes behind one `npm run rest-proxy` at 200 asks a second, beside the bare bot's figure at that rate (see
 * proxyPhase.ts). `--proxy` runs only the bare bot's 200/s phase and that one. Beside the table, the CPU a server's
 * AutoMod rules add to an ask (automodCost.ts); `--automod` prints only that. `--chatter` prints only what the
 * message intents cost under 500 messages a second of chatter (chatterPhase.ts); `--mentions` only what a mention in
 * a thread costs against /ask (mentionsPhase.ts).
 *
 * 1,000 linked members ask in turn: Veil answers one ask per member at a time (the admission of the scale issue),
 * so the 1,000 asks in flight of the slow phase need as many members, and no phase is refused for it.
 *
 * `--rates=800` (a list) runs only those rate phases, to look into one.
 *
 * `npm run bench` builds first (dist/, and dist/bench/ for the bare bot and the probe both bots are started with).
 */
import { cpus } from 'node:os';
import { PROXY_PROCESSES, runProxyPhase } from './proxyPhase.js';
import { runChatterPhase } from './chatterPhase.js';
import { runMentionsPhase } from './mentionsPhase.js';
import { formatAutomodCost, measureAutomodCost } from './automodCost.js';
import { formatAutomodWorst, measureAutomodWorst } from './automodWorst.js';
import { buildRows, buildTailRows, formatProxyTable, formatTable, pooled, type BotFigures } from './report.js';
import { bareBot, BotBench, veil, type BenchPlan, type RateFigures } from './scenario.js';

const quick = process.argv.includes('--quick');
const proxyOnly = process.argv.includes('--proxy');
const PROXY_RATE = 200;

const fullPlan: BenchPlan = quick
	? {
			rates: [
				{ rate: 40, count: 120 },
				{ rate: 100, count: 200 },
				// 5 s at 200/s, so answers per second says what a bot sustains, not what its first second allows.
				{ rate: 200, count: 1000 },
				{ rate: 400, count: 400 },
				{ rate: 800, count: 800 },
			],
			warmUp: 50,
			slowAsks: 500,
			guildsFirst: 500,
			guildsThen: 2500,
			members: 1000,
			upstreamMs: 50,
			slowUpstreamMs: 5000,
		}
	: {
			rates: [
				{ rate: 40, count: 600 },
				{ rate: 100, count: 1000 },
				{ rate: 200, count: 2000 },
				{ rate: 400, count: 2000 },
				// Issue 33: the acknowledgement's tail at a rate past what one process is asked to sustain.
				{ rate: 800, count: 2000 },
			],
			// 20 s at 50/s: both bots' code is compiled and optimised before anything is measured.
			warmUp: 1000,
			slowAsks: 1000,
			guildsFirst: 500,
			guildsThen: 2500,
			members: 1000,
			upstreamMs: 50,
			slowUpstreamMs: 5000,
		};

// `--rates=400,800`: only those phases (to look into one rate; the table then has only their rows).
const onlyRates = process.argv
	.find((arg) => arg.startsWith('--rates='))
	?.slice('--rates='.length)
	.split(',')
	.map(Number);
const plan: BenchPlan = onlyRates ? { ...fullPlan, rates: fullPlan.rates.filter(({ rate }) => onlyRates.includes(rate)) } : fullPlan;

const proxyCount = plan.rates.find(({ rate }) => rate === PROXY_RATE)?.count ?? 1000;
const runs = Math.max(1, Number(/^--runs=(\d+)$/.exec(process.argv.find((arg) => arg.startsWith('--runs=')) ?? '')?.[1] ?? 1));
const log = (line: string) => process.stderr.write(`${line}\n`);
const started = performance.now();
if (process.argv.includes('--chatter')) {
	log(`bench --chatter${quick ? ' --quick' : ''}: the message intents' cost, each bot alone`);
	console.log(await runChatterPhase(plan, quick, log));
	process.exit(0);
}
if (process.argv.includes('--mentions')) {
	log(`bench --mentions${quick ? ' --quick' : ''}: mentions in a thread against /ask, Veil alone`);
	console.log(await runMentionsPhase(plan, quick, log));
	process.exit(0);
}
if (process.argv.includes('--automod')) {
	console.log(formatAutomodCost(await measureAutomodCost()));
	console.log(formatAutomodWorst(await measureAutomodWorst()));
	process.exit(0);
}
if (proxyOnly) {
	log(`bench --proxy: the bare bot at ${PROXY_RATE}/s, then Veil ×${PROXY_PROCESSES} behind the REST proxy`);
	const bench = await BotBench.create(bareBot, plan);
	let bare: RateFigures;
	try {
		await bench.start(log);
		await bench.warmUp();
		bare = await bench.load(PROXY_RATE, proxyCount, log);
	} finally {
		await bench.close();
	}
	const proxy = await runProxyPhase(plan, PROXY_RATE, proxyCount, log);
	console.log(
		`\nnpm run bench -- --proxy${quick ? ' --quick' : ''}: ${cpus().length} cores, Node ${process.versions.node}, ${((performance.now() - started) / 60_000).toFixed(1)} min\n`,
	);
	console.log(formatProxyTable(bare, proxy, PROXY_PROCESSES));
	process.exit(0);
}
// First, on a machine no bot of the bench has loaded yet.
const automod = await measureAutomodCost();
const automodWorst = await measureAutomodWorst();
log(`bench${quick ? ' --quick' : ''}, ${runs} run${runs > 1 ? 's' : ''}: each phase bare bot first, then Veil`);

const benches = [await BotBench.create(bareBot, plan), await BotBench.create(veil, plan)];
const figures = benches.map((bench): BotFigures => ({
	name: bench.kind.name,
	start: {} as BotFigures['start'],
	runs: [],
	slow: {} as BotFigures['slow'],
}));
try {
	// Memory and the start with the first count of servers, one bot at a time; then each starts again with the
	// second count and stays up (idle) while the other is loaded.
	for (const [n, bench] of benches.entries()) {
		(figures[n] as BotFigures).start.first = await bench.start(log);
		await bench.stop();
		bench.growTo(plan.guildsThen);
	}
	for (const [n, bench] of benches.entries()) (figures[n] as BotFigures).start.then = await bench.start(log);
	for (const bench of benches) await bench.warmUp();
	for (let run = 0; run < runs; run++) {
		for (const figure of figures) figure.runs.push([]);
		for (const { rate, count } of plan.rates) {
			for (const [n, bench] of benches.entries()) (figures[n] as BotFigures).runs[run]?.push(await bench.load(rate, count, log));
		}
	}
	if (!onlyRates) for (const [n, bench] of benches.entries()) (figures[n] as BotFigures).slow = await bench.slow(log);
} finally {
	for (const bench of benches) await bench.close();
}
if (onlyRates) {
	console.log(formatTable(buildRows(figures[0] as BotFigures, figures[1] as BotFigures, plan)));
	process.exit(0);
}
// Alone on the machine, once both bots above have stopped.
const proxy = await runProxyPhase(plan, PROXY_RATE, proxyCount, log);
const minutes = (performance.now() - started) / 60_000;
const [bare, veilFigures] = figures as [BotFigures, BotFigures];

const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
console.log(
	`\n${quick ? 'npm run bench -- --quick' : 'npm run bench'}${runs > 1 ? ` --runs=${runs}` : ''}: ${cpus().length} cores (${cpu}), Node ${process.versions.node}, ` +
		`${plan.members} linked members, upstream ${plan.upstreamMs} ms, ${minutes.toFixed(1)} min\n`,
);
console.log(formatTable(buildRows(bare, veilFigures, plan)));
console.log(`\n${formatAutomodCost(automod)}`);
console.log(formatAutomodWorst(automodWorst));
const bareAtProxyRate = pooled(
	bare,
	plan.rates.findIndex(({ rate }) => rate === PROXY_RATE),
);
console.log(
	`\nThrough the proxy: Veil ×${PROXY_PROCESSES} (shards 0 and 1 of 2, one Redis) behind one npm run rest-proxy, against the bare bot's phase at ${PROXY_RATE}/s above:\n`,
);
console.log(formatProxyTable(bareAtProxyRate, proxy, PROXY_PROCESSES));
if (runs > 1) console.log(`\nTail ratios, run by run (Veil / bare):\n\n${buildTailRows(bare, veilFigures, plan.upstreamMs).join('\n')}`);
