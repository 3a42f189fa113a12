/**
 * `npm run bench -- --chatter [--quick]`: what the message intents cost (SPEC §17). Each bot on its own local
 * Discord with 2,500 servers: memory at rest, then 500 messages a second of chatter that does not address it (the
 * stream Guild Messages brings), its CPU and memory after. The bare bot takes it without the message intents (Discord
 * sends it nothing: the intents off) and with them (discord.js builds a Message of each); Veil takes the intents and
 * drops each packet raw (gatewayScreen.ts). It asserts nothing.
 */
import { bareBot, bareBotWithMessages, BotBench, veil, type BenchPlan, type ChatterFigures, type Memory } from './scenario.js';
import { MB } from './stats.js';

export async function runChatterPhase(plan: BenchPlan, quick: boolean, log: (line: string) => void): Promise<string> {
	const rate = 500;
	const count = quick ? 2500 : 15_000;
	const rows: string[] = [];
	for (const kind of [bareBot, bareBotWithMessages, veil]) {
		const bench = await BotBench.create(kind, { ...plan, guildsFirst: plan.guildsThen });
		try {
			await bench.start(log);
			const rest: Memory = await bench.memory();
			const figures: ChatterFigures = await bench.chatter(rate, count, log);
			rows.push(
				`| ${kind.name} | ${mb(rest.heap)} | ${mb(rest.rss)} | ${mb(figures.memory.heap)} | ${mb(figures.memory.rss)} | ${mb(figures.peakRss)} | ${(figures.cpuMicros / 1000 / figures.seconds).toFixed(0)} ms/s | ${((figures.cpuMicros / count) | 0).toString()} µs |`,
			);
		} finally {
			await bench.close();
		}
	}
	return [
		`\nChatter: ${count} messages at ${rate}/s not addressing the bot, over ${plan.guildsThen} servers (heap and RSS after two full collections):\n`,
		'| bot | heap at rest | RSS at rest | heap after | RSS after | peak RSS | CPU while it came | CPU a message |',
		'| --- | --- | --- | --- | --- | --- | --- | --- |',
		...rows,
	].join('\n');
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
