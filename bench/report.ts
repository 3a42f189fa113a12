import type { LoadResult } from './load.js';
import type { ProxyOutcome } from './proxyPhase.js';
import type { RateFigures, SlowFigures, StartFigures } from './scenario.js';
import { formatFigure, MB, percentile } from './stats.js';

interface Row {
	figure: string;
	bare: string;
	veil: string;
	ratio: string;
	/** The issue's target and whether this run met it; empty for figures without one. */
	target: string;
}

const PERCENTILES = [50, 90, 99] as const;

/** Everything one bot's run measured. */
export interface BotFigures {
	name: string;
	start: { first: StartFigures; then: StartFigures };
	/** The phases of each run, by rate. */
	runs: RateFigures[][];
	slow: SlowFigures;
}

/** One rate's phases of every run as one: the samples together, the seconds and the CPU added up. */
export function pooled(figures: BotFigures, index: number): RateFigures {
	const phases = figures.runs.map((run) => run[index] as RateFigures);
	const load: LoadResult = {
		offered: phases.reduce((sum, f) => sum + f.load.offered, 0),
		answered: phases.reduce((sum, f) => sum + f.load.answered, 0),
		wrong: phases.reduce((sum, f) => sum + f.load.wrong, 0),
		wrongKinds: phases.flatMap((f) => f.load.wrongKinds),
		seconds: phases.reduce((sum, f) => sum + f.load.seconds, 0),
		ackMs: phases.flatMap((f) => f.load.ackMs),
		completionMs: phases.flatMap((f) => f.load.completionMs),
	};
	const mainThread = phases.map((f) => f.mainThreadMicros);
	return {
		rate: (phases[0] as RateFigures).rate,
		load,
		cpuMicros: phases.reduce((sum, f) => sum + f.cpuMicros, 0),
		mainThreadMicros: mainThread.includes(undefined) ? undefined : mainThread.reduce<number>((sum, micros) => sum + (micros ?? 0), 0),
		gcPauseMicros: phases.reduce((sum, f) => sum + (f.gcPauseMicros ?? 0), 0),
	};
}

const ratio = (veil: number, bare: number) => (bare > 0 && Number.isFinite(veil / bare) ? `${(veil / bare).toFixed(2)}×` : '—');
const verdict = (met: boolean, text: string) => `${met ? 'met' : 'MISSED'}: ${text}`;

function percentiles(values: readonly number[]): number[] {
	return PERCENTILES.map((p) => percentile(values, p));
}

function triple(values: readonly number[], unit: string): string {
	return values.map((value) => formatFigure(value)).join(' / ') + unit;
}

function ratios(veil: readonly number[], bare: readonly number[]): string {
	return veil.map((value, n) => ratio(value, bare[n] as number)).join(' / ');
}

/** Completion minus the stand-in's hold of the generation call: what the bot itself adds to an answer. */
function overheads(figures: RateFigures, upstreamMs: number): number[] {
	return figures.load.completionMs.map((ms) => ms - upstreamMs);
}

const answersPerSecond = (figures: RateFigures) => figures.load.answered / figures.load.seconds;
/** A share of each phase's CPU (all of it by default) per ask offered, in ms, over the phases together. */
const cpuPerAskMs = (figures: readonly RateFigures[], part: (f: RateFigures) => number = (f) => f.cpuMicros) =>
	figures.reduce((sum, f) => sum + part(f), 0) / 1000 / figures.reduce((sum, f) => sum + f.load.offered, 0);

/** The side-by-side table of one run, every figure for both bots and the ratio, with the issue's targets. */
export function buildRows(bare: BotFigures, veil: BotFigures, options: { upstreamMs: number; guildsFirst: number; guildsThen: number }): Row[] {
	const rows: Row[] = [];
	const add = (figure: string, b: number, v: number, unit: string, target = '') =>
		rows.push({ figure, bare: formatFigure(b, unit), veil: formatFigure(v, unit), ratio: ratio(v, b), target });
	const { guildsFirst: first, guildsThen: then } = options;
	const per1000 = (a: number, b: number) => ((b - a) / (then - first)) * 1000;

	add(`RSS after GC, ${first} servers`, bare.start.first.memory.rss / MB, veil.start.first.memory.rss / MB, ' MB');
	const rssRatio = veil.start.then.memory.rss / bare.start.then.memory.rss;
	add(`RSS after GC, ${then} servers`, bare.start.then.memory.rss / MB, veil.start.then.memory.rss / MB, ' MB', verdict(rssRatio <= 0.7, '≤ 0.7×'));
	add(`V8 heap after GC, ${first} servers`, bare.start.first.memory.heap / MB, veil.start.first.memory.heap / MB, ' MB');
	const heapRatio = veil.start.then.memory.heap / bare.start.then.memory.heap;
	add(
		`V8 heap after GC, ${then} servers`,
		bare.start.then.memory.heap / MB,
		veil.start.then.memory.heap / MB,
		' MB',
		verdict(heapRatio <= 0.6, '≤ 0.6×'),
	);
	const growth = (f: BotFigures, key: 'rss' | 'heap') => per1000(f.start.first.memory[key], f.start.then.memory[key]) / MB;
	for (const key of ['rss', 'heap'] as const) {
		const b = growth(bare, key);
		const v = growth(veil, key);
		add(`${key === 'rss' ? 'RSS' : 'heap'} growth per 1,000 servers`, b, v, ' MB', verdict(v <= 0.25 * b, '≤ 0.25×'));
	}
	add(`CPU from start to idle, ${first} servers`, bare.start.first.cpuMs, veil.start.first.cpuMs, ' ms');
	add(
		`CPU from start to idle, ${then} servers`,
		bare.start.then.cpuMs,
		veil.start.then.cpuMs,
		' ms',
		verdict(veil.start.then.cpuMs <= 1.2 * bare.start.then.cpuMs, '≤ 1.2×'),
	);

	const bareRates = (bare.runs[0] ?? []).map((_, n) => pooled(bare, n));
	const veilRates = bareRates.map((_, n) => pooled(veil, n));
	for (const [n, b] of bareRates.entries()) {
		const v = veilRates[n] as RateFigures;
		const at = `at ${b.rate}/s`;
		const answered = (f: RateFigures) => `${f.load.answered}/${f.load.offered}${f.load.wrong ? ` (${f.load.wrong} wrong)` : ''}`;
		rows.push({ figure: `answered ${at}`, bare: answered(b), veil: answered(v), ratio: '', target: '' });
		const perSecond = [answersPerSecond(b), answersPerSecond(v)] as const;
		add(
			`answers per second ${at}`,
			perSecond[0],
			perSecond[1],
			'',
			b.rate === 200 ? verdict(perSecond[1] >= 4 * perSecond[0] && v.load.answered === v.load.offered, '≥ 4×, every answer') : '',
		);
		const ackB = percentiles(b.load.ackMs);
		const ackV = percentiles(v.load.ackMs);
		rows.push({
			figure: `ack p50 / p90 / p99 ${at}`,
			bare: triple(ackB, ' ms'),
			veil: triple(ackV, ' ms'),
			ratio: ratios(ackV, ackB),
			target:
				b.rate === 100 || b.rate === 200
					? verdict((ackV[2] as number) <= (ackB[2] as number), 'p99 ≤ bare')
					: b.rate === 800
						? verdict((ackV[2] as number) < 100 && v.load.answered === v.load.offered, 'p99 < 100 ms, every answer')
						: '',
		});
		const doneB = percentiles(b.load.completionMs);
		const doneV = percentiles(v.load.completionMs);
		rows.push({
			figure: `completion p50 / p90 / p99 ${at}`,
			bare: triple(doneB, ' ms'),
			veil: triple(doneV, ' ms'),
			ratio: ratios(doneV, doneB),
			target: b.rate === 200 ? verdict((doneV[2] as number) < 1000, 'p99 < 1 s') : '',
		});
		const overB = percentiles(overheads(b, options.upstreamMs));
		const overV = percentiles(overheads(v, options.upstreamMs));
		rows.push({
			figure: `overhead p50 / p90 / p99 ${at}`,
			bare: triple(overB, ' ms'),
			veil: triple(overV, ' ms'),
			ratio: ratios(overV, overB),
			target: b.rate === 40 ? verdict((overV[0] as number) <= (overB[0] as number) + 1, 'p50 ≤ bare + 1 ms') : '',
		});
		add(`CPU per ask ${at}`, cpuPerAskMs([b]), cpuPerAskMs([v]), ' ms');
	}
	const cpuB = cpuPerAskMs(bareRates);
	const cpuV = cpuPerAskMs(veilRates);
	add('CPU per ask, all rates', cpuB, cpuV, ' ms', verdict(cpuV <= 1.2 * cpuB, '≤ 1.2×'));
	// Where it went: the main thread (the bot's own code, and the collector's pauses of it), and the rest: V8's
	// threads (concurrent marking, sweeping, compiling) and libuv's (SQLite).
	if ([...bareRates, ...veilRates].every((f) => f.mainThreadMicros !== undefined)) {
		const mainThread = (f: RateFigures) => f.mainThreadMicros ?? 0;
		add('  of which on the main thread', cpuPerAskMs(bareRates, mainThread), cpuPerAskMs(veilRates, mainThread), ' ms');
		add(
			'  of which on other threads',
			cpuPerAskMs(bareRates, (f) => f.cpuMicros - mainThread(f)),
			cpuPerAskMs(veilRates, (f) => f.cpuMicros - mainThread(f)),
			' ms',
		);
	}
	add(
		'  GC pauses of the main thread, per ask',
		cpuPerAskMs(bareRates, (f) => f.gcPauseMicros ?? 0),
		cpuPerAskMs(veilRates, (f) => f.gcPauseMicros ?? 0),
		' ms',
	);

	// `--rates=`: the slow phase was not run.
	if (!(veil.slow as Partial<BotFigures['slow']>).load) return rows;
	const slow = (f: BotFigures) => f.slow;
	rows.push({
		figure: `slow upstream: answered`,
		bare: `${slow(bare).load.answered}/${slow(bare).load.offered}`,
		veil: `${slow(veil).load.answered}/${slow(veil).load.offered}`,
		ratio: '',
		target: verdict(slow(veil).load.answered === slow(veil).load.offered, 'all'),
	});
	add('slow upstream: idle RSS', slow(bare).idleRss / MB, slow(veil).idleRss / MB, ' MB');
	add('slow upstream: peak RSS', slow(bare).peakRss / MB, slow(veil).peakRss / MB, ' MB');
	const rise = (f: BotFigures) => (slow(f).peakRss - slow(f).idleRss) / MB;
	add('slow upstream: peak − idle', rise(bare), rise(veil), ' MB', verdict(rise(veil) <= 60, '≤ 60 MB'));
	const listenerWarnings = (f: BotFigures) => slow(f).warnings.MaxListenersExceededWarning ?? 0;
	rows.push({
		figure: 'listener warnings',
		bare: String(listenerWarnings(bare)),
		veil: String(listenerWarnings(veil)),
		ratio: '',
		target: verdict(listenerWarnings(veil) === 0, 'none'),
	});
	return rows;
}

/**
 * The tail ratios of each run apart (Veil / bare): ack p99, completion p99, and overhead p50 and p99 by rate; a
 * tail from one run on a shared machine says little on its own.
 */
export function buildTailRows(bare: BotFigures, veil: BotFigures, upstreamMs: number): string[] {
	const lines = ['| rate | run | ack p99 | completion p99 | overhead p50 | overhead p99 |', '|---|---|---|---|---|---|'];
	for (const [run, phases] of bare.runs.entries()) {
		for (const [n, b] of phases.entries()) {
			const v = veil.runs[run]?.[n];
			if (!v) continue;
			const ack = ratio(percentile(v.load.ackMs, 99), percentile(b.load.ackMs, 99));
			const done = ratio(percentile(v.load.completionMs, 99), percentile(b.load.completionMs, 99));
			const [overV, overB] = [overheads(v, upstreamMs), overheads(b, upstreamMs)];
			const over50 = `${formatFigure(percentile(overV, 50))} vs ${formatFigure(percentile(overB, 50))} ms`;
			lines.push(`| ${b.rate}/s | ${run + 1} | ${ack} | ${done} | ${over50} | ${ratio(percentile(overV, 99), percentile(overB, 99))} |`);
		}
	}
	return lines;
}

/** The rows as a Markdown table, ready for the README. */
export function formatTable(rows: readonly Row[]): string {
	const lines = ['| figure | bare bot | Veil | Veil / bare | target |', '|---|---|---|---|---|'];
	for (const row of rows) lines.push(`| ${row.figure} | ${row.bare} | ${row.veil} | ${row.ratio} | ${row.target} |`);
	return lines.join('\n');
}

/**
 * The proxy phase beside the bare bot at the same rate: what several Veil processes behind one REST proxy answer,
 * against a single default discord.js client, held to the 50-a-second global limit.
 */
export function formatProxyTable(bare: RateFigures, proxy: ProxyOutcome, processes: number): string {
	const head = `| figure | bare bot | Veil ×${processes} behind the proxy | ratio | target |\n|---|---|---|---|---|`;
	const at = `at ${bare.rate}/s`;
	if ('skipped' in proxy) return `${head}\n| answers per second ${at} | ${formatFigure(answersPerSecond(bare))} | skipped: ${proxy.skipped} | | |`;
	const through: RateFigures = { rate: bare.rate, load: proxy.load, cpuMicros: 0 };
	const [b, v] = [answersPerSecond(bare), answersPerSecond(through)];
	const every = proxy.load.answered === proxy.load.offered;
	const [doneB, doneV] = [percentiles(bare.load.completionMs), percentiles(proxy.load.completionMs)];
	return [
		head,
		`| answered ${at} | ${bare.load.answered}/${bare.load.offered} | ${proxy.load.answered}/${proxy.load.offered} | | |`,
		`| answers per second ${at} | ${formatFigure(b)} | ${formatFigure(v)} | ${ratio(v, b)} | ${verdict(v >= 4 * b && every, '≥ 4×, every answer')} |`,
		`| completion p50 / p90 / p99 ${at} | ${triple(doneB, ' ms')} | ${triple(doneV, ' ms')} | ${ratios(doneV, doneB)} | |`,
		`| CPU per ask ${at} | ${formatFigure(cpuPerAskMs([bare]), ' ms')} | ${formatFigure(proxy.botsCpuMs, ' ms')} (bots) + ${formatFigure(proxy.proxyCpuMs, ' ms')} (proxy) | | |`,
	].join('\n');
}
