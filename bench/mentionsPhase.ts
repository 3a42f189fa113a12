/**
 * `npm run bench -- --mentions [--quick]`: what a turn by message costs against /ask (SPEC §17, issue 37). Veil alone
 * (the bare bot answers no mentions), on its own local Discord with 2,500 servers where it may speak in threads:
 * `count` asks by /ask at `rate` a second, then as many members' mentions of Veil at the same rate, each in a thread
 * of its own that a member started: first round the servers (each server's roles and channels read for its first
 * mention), then all in one busy server. Answers a second, completion and overhead (completion less the upstream's
 * time) and CPU an answer, side by side. It asserts nothing.
 */
import { BotBench, veil, type BenchPlan, type RateFigures } from './scenario.js';
import { percentile } from './stats.js';

export async function runMentionsPhase(plan: BenchPlan, quick: boolean, log: (line: string) => void): Promise<string> {
	const rate = 100;
	const count = quick ? 200 : 1000;
	const bench = await BotBench.create(veil, { ...plan, guildsFirst: plan.guildsThen });
	let ask: RateFigures;
	let mentions: RateFigures;
	let oneServer: RateFigures;
	try {
		bench.grantThreads();
		await bench.start(log);
		await bench.warmUp();
		ask = await bench.load(rate, count, log);
		mentions = await bench.mentions(rate, await bench.openThreads(count), log);
		oneServer = await bench.mentions(rate, await bench.openThreads(count, 1), log, 'mentions in threads of one server');
	} finally {
		await bench.close();
	}
	const row = (name: string, f: RateFigures) => {
		const done = f.load.completionMs;
		const over = done.map((ms) => ms - plan.upstreamMs);
		const perSecond = f.load.answered / f.load.seconds;
		const cpu = f.cpuMicros / 1000 / Math.max(1, f.load.answered);
		return { name, answered: `${f.load.answered}/${f.load.offered}${f.load.wrong ? ` (${f.load.wrong} wrong)` : ''}`, perSecond, done, over, cpu };
	};
	const [a, m, o] = [row('/ask', ask), row('mention in a thread, round the servers', mentions), row('mention in a thread of one server', oneServer)];
	const ms = (values: number[], p: number) => `${percentile(values, p).toFixed(1)}`;
	const ratio = (x: number, y: number) => `${(x / y).toFixed(2)}×`;
	return [
		`\nMentions in a thread against /ask: Veil, ${count} of each at ${rate}/s, ${plan.guildsThen} servers, upstream ${plan.upstreamMs} ms:\n`,
		'| | answered | answers a second | completion p50 / p90 / p99 | overhead p50 / p99 | CPU an answer |',
		'| --- | --- | --- | --- | --- | --- |',
		...[a, m, o].map(
			(r) =>
				`| ${r.name} | ${r.answered} | ${r.perSecond.toFixed(1)} | ${ms(r.done, 50)} / ${ms(r.done, 90)} / ${ms(r.done, 99)} ms | ${ms(r.over, 50)} / ${ms(r.over, 99)} ms | ${r.cpu.toFixed(2)} ms |`,
		),
		...[m, o].map(
			(r) =>
				`| ${r === m ? 'round the servers' : 'one server'} / ask | | ${ratio(r.perSecond, a.perSecond)} | ${ratio(percentile(r.done, 50), percentile(a.done, 50))} / … / ${ratio(percentile(r.done, 99), percentile(a.done, 99))} | ${ratio(percentile(r.over, 50), percentile(a.over, 50))} / ${ratio(percentile(r.over, 99), percentile(a.over, 99))} | ${ratio(r.cpu, a.cpu)} |`,
		),
	].join('\n');
}
