/**
 * `npm run bench:soak [-- --asks=40000 --rate=100 --every=10000 --servers=500 --members=1000 --settle=25
 * --warm-up=1000 --snapshots=DIR]`: what a long, steady load leaves behind in Veil's memory (issue 26). Veil alone,
 * started as production starts it (the Procfile's `worker:` command, with the bench's probe preloaded), on its own
 * local Discord and upstream stand-in (50 ms per generation call), with `--servers` servers and `--members` members
 * linked in its SQLite store.
 *
 * After `--warm-up` asks at 50/s (as `npm run bench` warms up), /ask arrives at `--rate` a second, open loop, every
 * tenth answer held by the safety ratings; beside it, 3 % of the rate is a conversation of its own members: an /ask,
 * Follow up pressed as soon as its answer shows, and the form sent. Every `--every` asks of the steady stream the
 * load pauses: once the bot is idle and `--settle` seconds have passed (its interaction handlers are released within
 * 20 s of their last use), the probe collects twice and reports RSS and the V8 heap, beside the store file's size.
 * The table, and the growth per 10,000 asks from the first checkpoint after the start on (the start's row still holds
 * less of what is filled once: pools, caches, optimised code), are printed with the issue's targets. It asserts
 * nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { makeUser, DiscordEmulator } from '../sandbox/discord/emulator.js';
import { contentsOf } from '../test/support/conversations.js';
import { generationResponse, safeResponse, UpstreamStandIn } from '../test/support/upstreamStandIn.js';
import { AskTracker } from './load.js';
import { addGuilds, localServicesEnv, startKind, veil } from './scenario.js';
import { ConversationLoop } from './soakConversations.js';
import { formatSoakTable, soakGrowth, storeBytes, type Checkpoint } from './soakReport.js';
import { MB } from './stats.js';

const option = (name: string, fallback: number) => {
	const value = Number(/^--[\w-]+=(.+)$/.exec(process.argv.find((arg) => arg.startsWith(`--${name}=`)) ?? '')?.[1] ?? fallback);
	if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number, 0 or more`);
	return value;
};
const asks = option('asks', 40_000);
const rate = option('rate', 100);
const every = option('every', 10_000);
const servers = option('servers', 500);
const memberCount = option('members', 1000);
const settleMs = option('settle', 25) * 1000;
const warmUp = option('warm-up', 1000);
const WARM_UP_RATE = 50;
/**
 * `--snapshots=DIR`: a heap snapshot of the bot at every checkpoint, kept in DIR (compare two with bench/heapDiff.ts).
 * Writing one takes memory the process keeps: the RSS of the checkpoints after it says nothing.
 */
const snapshots = /^--snapshots=(.+)$/.exec(process.argv.find((arg) => arg.startsWith('--snapshots=')) ?? '')?.[1];
const UPSTREAM_MS = 50;
const HELD_EVERY = 10;
const CONVERSATION_SHARE = 0.03;
/** Members kept for the conversations, so their asks never meet the steady stream's (one ask per member at a time). */
const CONVERSING_MEMBERS = 30;

const log = (line: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)}  ${line}\n`);
const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms));
const started = performance.now();

const emulator = await DiscordEmulator.start({ defaultTimeoutMs: 30_000 });
const upstream = await UpstreamStandIn.start();
const directory = mkdtempSync(join(tmpdir(), 'veil-soak-'));
// The steady stream's prompts are `bench question N` (load.ts): every tenth is held. A conversation's are never held.
upstream.setDefaultGeneration((request) => {
	const prompt = contentsOf(request).at(-1)?.parts[0]?.text ?? '';
	const n = /^bench question (\d+)$/.exec(prompt)?.[1];
	const held = n !== undefined && Number(n) % HELD_EVERY === HELD_EVERY - 1;
	return {
		json: held ? generationResponse({ text: 'kept back', finishReason: 'SAFETY' }) : safeResponse(`Answer to: ${prompt}`),
		delayMs: UPSTREAM_MS,
	};
});
const guilds = [emulator.defaultGuild, ...addGuilds(emulator, servers - 1)];
const members = Array.from({ length: memberCount }, (_, n) => makeUser(`soak${n}`));
const conversing = members.slice(0, CONVERSING_MEMBERS);
const asking = members.slice(CONVERSING_MEMBERS);
const tracker = new AskTracker(emulator);
let held = 0;
/** Over the whole soak: acknowledgements Discord refused as too late (10062), and answers other than an answer. */
let lateAcks = 0;
const otherAnswers = new Map<string, number>();
emulator.events.on('request', (request) => {
	const segments = request.path.split('/');
	if (segments[1] === 'interactions' && segments[4] === 'callback' && request.status === 404) lateAcks++;
	if (segments[1] !== 'webhooks' || request.status < 200 || request.status >= 300) return;
	const content = (request.json as { content?: string } | undefined)?.content;
	// '…' is the step before a refusal in a public deferral's place (answerAlone): the refusal itself follows.
	if (content === undefined || content === '…' || content.startsWith('Answer to:')) return;
	if (content.includes('This answer was hidden')) {
		if (request.method === 'PATCH') held++;
		return;
	}
	otherAnswers.set(content, (otherAnswers.get(content) ?? 0) + 1);
});

const common = localServicesEnv(emulator, upstream);
log(`soak: ${asks} asks at ${rate}/s, ${servers} servers, ${memberCount} members; linking them in the store`);
const env = { ...common, ...(await veil.prepare(common, members, directory)) };
const storeFile = join(directory, 'bot.sqlite');
const bot = startKind(veil, env);
const checkpoints: Checkpoint[] = [];
let conversations = new ConversationLoop(emulator, conversing, guilds, log);

const totals = { answered: 0, held: 0, wrong: 0 };

/** Once the bot is idle and settled: its memory after two full collections, the store's size and the counts so far. */
async function checkpoint(steady: number, completionMs: number[] = []): Promise<void> {
	await bot.waitForIdle({ windowMs: 500, timeoutMs: 120_000 });
	await sleep(settleMs);
	const measured = await bot.measure();
	if (snapshots) await bot.snapshot(join(snapshots, `soak-${steady}.heapsnapshot`));
	const point: Checkpoint = {
		asks: steady + conversations.asks,
		rss: measured.rss,
		heap: measured.heapUsed ?? Number.NaN,
		store: storeBytes(storeFile),
		...totals,
		followedUp: conversations.followedUp,
		failedFollowUps: conversations.failed,
		completionMs,
	};
	checkpoints.push(point);
	log(
		`  ${point.asks} asks: RSS ${(point.rss / MB).toFixed(1)} MB, heap ${(point.heap / MB).toFixed(1)} MB, store ${(point.store / MB).toFixed(1)} MB`,
	);
}

try {
	await emulator.waitForReady(60_000);
	await bot.waitForIdle();
	// As in `npm run bench`: connections opened and code compiled before anything counts.
	await Promise.all([
		conversations.run(WARM_UP_RATE * CONVERSATION_SHARE, (warmUp / WARM_UP_RATE) * 1000),
		tracker.offer({ rate: WARM_UP_RATE, count: warmUp, members: asking, guilds, timeoutMs: 60_000 }),
	]);
	log(`  warm-up: ${warmUp} asks at ${WARM_UP_RATE}/s, ${conversations.followedUp} followed up`);
	tracker.forget();
	held = 0;
	conversations = new ConversationLoop(emulator, conversing, guilds, log);
	await checkpoint(0);
	let steady = 0;
	while (steady < asks) {
		const count = Math.min(every, asks - steady);
		const heldBefore = held;
		const conversing = conversations.run(rate * CONVERSATION_SHARE, (count / rate) * 1000);
		const load = await tracker.offer({ rate, count, members: asking, guilds, timeoutMs: 60_000 });
		await conversing;
		steady += count;
		const heldNow = held - heldBefore;
		totals.answered += load.answered;
		totals.held += heldNow;
		totals.wrong += load.wrong - heldNow;
		log(`  ${count} asks at ${rate}/s: ${load.answered} answered, ${heldNow} held, ${load.wrong - heldNow} wrong, in ${load.seconds.toFixed(0)} s`);
		await checkpoint(steady, load.completionMs);
		tracker.forget();
	}
} finally {
	tracker.close();
	await bot.stop();
	await Promise.allSettled([emulator.stop(), upstream.stop()]);
	rmSync(directory, { recursive: true, force: true });
}

const minutes = (performance.now() - started) / 60_000;
const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
console.log(
	`\nnpm run bench:soak${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(' ')}` : ''}: ${cpus().length} cores (${cpu}), ` +
		`${(totalmem() / 1024 / MB).toFixed(0)} GB, Node ${process.versions.node}; ${servers} servers, ${memberCount} linked members, ` +
		`${rate} asks/s (every ${HELD_EVERY}th held) and ${Number((rate * CONVERSATION_SHARE).toFixed(2))}/s of them followed up, upstream ${UPSTREAM_MS} ms, ${minutes.toFixed(1)} min\n`,
);
console.log(formatSoakTable(checkpoints));
console.log(`\n${soakGrowth(checkpoints).join('\n')}`);
console.log(`\nAcknowledged too late (Discord's 3 s passed: 10062): ${lateAcks}`);
console.log(`Answers other than an answer or a hidden one, warm-up included:${otherAnswers.size ? '' : ' none'}`);
for (const [content, n] of [...otherAnswers].sort(([, a], [, b]) => b - a)) console.log(`  ${String(n).padStart(6)}  ${content.slice(0, 100)}`);
