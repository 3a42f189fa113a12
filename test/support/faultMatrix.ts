import { type APIApplicationCommandInteractionDataOption, type APIUser, ApplicationCommandOptionType } from 'discord.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { runScript, type BotProcess } from './botProcess.js';
import { makeUser, type InteractionHandle } from '../../sandbox/discord/emulator.js';
import { classify, faultyGeneration, finalAnswers, seededRandom, type Outcome } from './faultMix.js';
import { metricsText, readyz, sample } from './operators.js';
import { startTestServices, type TestServices } from './harness.js';
import { hasFinalAnswer, MANAGE_GUILD } from './admission.js';
import { RedisServer } from './redisServer.js';
import { safeResponse } from './upstreamStandIn.js';

// The fault matrix (see the README): many asks over a while, through a bot process on its own Redis, while the
// upstream, Discord's REST, the gateway and Redis all fail in turn. Shared by the end-to-end test and the bench.

export interface FaultMatrixOptions {
	readonly asks: number;
	readonly durationMs: number;
	readonly seed?: number;
	/** Progress lines, for the bench. */
	readonly log?: (line: string) => void;
}

export interface FaultMatrixReport {
	/** The run's interactions (its /asks and its ten /links) by outcome, as the member saw it. */
	readonly outcomes: Record<string, number>;
	/**
	 * Every /ask by outcome as the member saw it: the run's, and those after it (each member asks once more, again
	 * while refused for their pace or their ask still running).
	 */
	readonly askOutcomes: Record<string, number>;
	/** How many of those /asks came after the run. */
	readonly asksAfterRun: number;
	/** The /links submitted during the run, by outcome as the member saw it. */
	readonly lateLinkOutcomes: Record<string, number>;
	/** Members linked by a /link before the run. */
	readonly members: number;
	/** Generation requests the stand-in received, during the run and after it. */
	readonly generationRequests: number;
	/** What the bot process's own operators' endpoint said at the end, just before it was stopped. */
	readonly metrics: FaultMatrixMetrics;
	/** Interaction ids by what went wrong with them, for a failure message. */
	readonly unanswered: string[];
	readonly answeredTwice: string[];
	/** What the bot sent for each interaction left unanswered or answered twice, for a failure message. */
	readonly problems: string[];
	/** Dispatches the local Discord could not make at once (no gateway session), made again once one was back. */
	readonly redispatched: number;
	readonly upstreamAttempts: Record<string, number>;
	/** Edits Discord answered with a 429 (with retry_after) or a 502, on purpose. */
	readonly discordEditFailures: number;
	/** The bot process ended before it was told to, or not with 0 when it was. */
	readonly crashed: boolean;
	readonly exitCode: number | string;
	readonly unhandledRejections: number;
	/** What was written before Redis restarted and could not be found after. */
	readonly lost: { links: string[]; flags: string[]; settings: string[] };
	readonly elapsedMs: number;
}

const ASK_METRIC_OUTCOMES = ['shown', 'hidden', 'refused', 'busy', 'limited', 'error'] as const;
const LINK_METRIC_OUTCOMES = ['linked', 'refused', 'limited', 'invalid', 'error'] as const;

/** GET /metrics and /readyz on the bot's METRICS_PORT, once every interaction is over. */
export interface FaultMatrixMetrics {
	/** `veil_asks_total` by outcome. */
	readonly asks: Record<(typeof ASK_METRIC_OUTCOMES)[number], number>;
	/** `veil_links_total` by outcome. */
	readonly links: Record<(typeof LINK_METRIC_OUTCOMES)[number], number>;
	/** `veil_store_errors_total`. */
	readonly storeErrors: number;
	/** `veil_generation_duration_seconds_count`: generation calls, each with its retries. */
	readonly generationCalls: number;
	/** `veil_ask_queue_length` and `veil_asks_in_flight`: what was left in line and upstream. */
	readonly queueLength: number;
	readonly inFlight: number;
	/** Whether /readyz answered 200. */
	readonly ready: boolean;
	/** /readyz's status and body, or why there was none; or why /metrics could not be read. */
	readonly readyz: string;
}

/** Reads the bot's operators' endpoint; a /metrics that does not answer is told in `readyz`, with every count NaN. */
async function scrapeMetrics(port: number): Promise<FaultMatrixMetrics> {
	let text = '';
	let problem: string | undefined;
	try {
		text = await metricsText(port);
	} catch (error) {
		problem = `GET /metrics failed: ${error instanceof Error ? error.message : String(error)}`;
	}
	// A series that is not there reads NaN, which no relation holds for.
	const value = (series: string) => sample(text, series) ?? Number.NaN;
	const byOutcome = <O extends string>(name: string, outcomes: readonly O[]) =>
		Object.fromEntries(outcomes.map((outcome) => [outcome, value(`${name}{outcome="${outcome}"}`)])) as Record<O, number>;
	const ready = await readyz(port).then(
		(answer) => ({ ready: answer.status === 200, readyz: `${answer.status} ${JSON.stringify(answer.body)}` }),
		(error: unknown) => ({ ready: false, readyz: `GET /readyz failed: ${error instanceof Error ? error.message : String(error)}` }),
	);
	if (problem) ready.readyz = `${ready.readyz}; ${problem}`;
	return {
		asks: byOutcome('veil_asks_total', ASK_METRIC_OUTCOMES),
		links: byOutcome('veil_links_total', LINK_METRIC_OUTCOMES),
		storeErrors: value('veil_store_errors_total'),
		generationCalls: value('veil_generation_duration_seconds_count'),
		queueLength: value('veil_ask_queue_length'),
		inFlight: value('veil_asks_in_flight'),
		...ready,
	};
}

const TIMEOUT_MS = 1000;
const ADMIN_PERMISSIONS = MANAGE_GUILD | (1n << 10n) | (1n << 11n) | (1n << 13n);

export async function runFaultMatrix(options: FaultMatrixOptions): Promise<FaultMatrixReport> {
	const log = options.log ?? (() => undefined);
	const random = seededRandom(options.seed ?? 20_261_123);
	const redis = await RedisServer.start();
	let services: TestServices | undefined;
	let bot: BotProcess | undefined;
	const rejections: unknown[] = [];
	const onRejection = (reason: unknown) => rejections.push(reason);
	process.on('unhandledRejection', onRejection);
	try {
		services = await startTestServices(
			// The operators' endpoint on a free port (the bot logs which), read at the end.
			{
				STORE_URL: redis.url,
				GENERATION_TIMEOUT_MS: String(TIMEOUT_MS),
				ASK_MEMBER_PER_MINUTE: '6',
				LOG_LEVEL: 'debug',
				METRICS_PORT: '0',
				METRICS_HOST: '127.0.0.1',
			},
			{ interactionDeadlineMs: 3000 },
		);
		const { discord, upstream } = services;
		const guild = discord.addGuild({ name: 'Fault matrix', channels: [{ name: 'general' }, { name: 'mod-log' }] });
		const [general, modlog] = guild.channels.map((channel) => channel.id) as [string, string];
		const admin = makeUser('admin');
		const inGuild = { guildId: guild.id, channelId: general };

		const botProcess = runScript('src/main.ts', services.env);
		bot = botProcess;
		const metricsPort = Number(/"port":(\d+)/.exec(await botProcess.waitForLine(/"operator endpoint listening"/, 30_000))?.[1]);
		await botProcess.waitForLine(/connected to Discord/, 30_000);
		await discord.waitForReady(10_000);
		let stopping = false;
		const exitedEarly = botProcess.exited.then((code) => !stopping && code !== undefined);

		const command = (
			user: APIUser,
			name: string,
			options: APIApplicationCommandInteractionDataOption[],
			extra: { memberPermissions?: bigint } = {},
		) => discord.slashCommand({ name, options, user, ...inGuild, ...extra });
		const subcommand = (name: string, sub: string, options: APIApplicationCommandInteractionDataOption[] = []) =>
			command(admin, name, [{ type: ApplicationCommandOptionType.Subcommand, name: sub, options } as APIApplicationCommandInteractionDataOption], {
				memberPermissions: ADMIN_PERMISSIONS,
			});
		const link = (user: APIUser) => {
			upstream.addAccount(`${user.username}@example.com`, 'pw');
			return discord.modalSubmit({ customId: 'link:submit', fields: { email: `${user.username}@example.com`, password: 'pw' }, user, ...inGuild });
		};

		// Before the run: the settings and the members' links, through the bot.
		await subcommand('settings', 'modlog', [{ type: ApplicationCommandOptionType.Channel, name: 'channel', value: modlog }]).waitForAnswer(10_000);
		await subcommand('settings', 'limits', [{ type: ApplicationCommandOptionType.Integer, name: 'asks_per_day', value: 500 }]).waitForAnswer(10_000);
		// One ask at a time per member, six a minute: each member asks every few seconds at most.
		const memberCount = Math.max(10, Math.ceil(options.asks / Math.max(1, Math.floor(options.durationMs / 6000))));
		const members = Array.from({ length: memberCount }, (_, i) => makeUser(`member-${i}`));
		for (let i = 0; i < members.length; i += 25) {
			await Promise.all(members.slice(i, i + 25).map((member) => link(member).waitForAnswer(10_000)));
		}
		log(`${members.length} members linked; the run starts`);

		const attempts = new Map<string, number>();
		upstream.setDefaultGeneration(faultyGeneration(random, TIMEOUT_MS, attempts));
		const handles: InteractionHandle[] = [];
		let redispatched = 0;
		const dispatch = async (make: () => InteractionHandle): Promise<InteractionHandle> => {
			for (let attempt = 0; ; attempt++) {
				try {
					return make();
				} catch (error) {
					// No gateway session right now (after an INVALID_SESSION): a member's client would try again.
					if (attempt > 100) throw error;
					redispatched++;
					await sleep(50);
				}
			}
		};

		const started = Date.now();
		const at = (fraction: number) => started + fraction * options.durationMs;
		const waitUntil = async (time: number) => {
			const left = time - Date.now();
			if (left > 0) await sleep(left);
		};
		let restartedAt = Number.POSITIVE_INFINITY;
		const lateLinks = Array.from({ length: 10 }, (_, i) => makeUser(`late-${i}`));
		const faults = (async () => {
			const steps: Array<[number, string, () => Promise<void> | void]> = [
				[0.2, 'gateway RECONNECT', () => discord.sendReconnect()],
				[0.35, 'gateway INVALID_SESSION', () => discord.sendInvalidSession(false)],
				[
					0.5,
					'Redis restart',
					async () => {
						restartedAt = Date.now();
						await redis.halt();
						await sleep(1500);
						await redis.resume();
					},
				],
				[0.7, 'gateway socket dropped', () => discord.closeAllSockets()],
			];
			for (const [when, what, act] of steps) {
				await waitUntil(at(when));
				log(`${what} at ${Math.round((Date.now() - started) / 100) / 10} s`);
				await act();
			}
		})();
		const restFaults = (async () => {
			for (let i = 0; Date.now() < at(1); i++) {
				const rateLimited = i % 2 === 0;
				discord.injectRestFailure({
					method: 'PATCH',
					pathIncludes: '/messages/@original',
					status: rateLimited ? 429 : 502,
					headers: rateLimited ? { 'retry-after': '1', 'x-ratelimit-scope': 'user' } : {},
					body: rateLimited ? { message: 'You are being rate limited.', retry_after: 1, global: false } : { message: 'Bad Gateway' },
					times: 2,
				});
				await sleep(options.durationMs / 40);
			}
		})();
		const lateLinkHandles = new Map<string, InteractionHandle>();
		const linksDuringRun = (async () => {
			for (const [i, user] of lateLinks.entries()) {
				await waitUntil(at(0.05 + i * 0.04));
				const handle = await dispatch(() => link(user));
				lateLinkHandles.set(user.id, handle);
				handles.push(handle);
			}
		})();

		for (let i = 0; i < options.asks; i++) {
			await waitUntil(at(i / options.asks));
			const member = members[i % members.length] as APIUser;
			const askOptions: APIApplicationCommandInteractionDataOption[] = [
				{ type: ApplicationCommandOptionType.String, name: 'prompt', value: `question ${i}` },
			];
			if (random() < 0.1) askOptions.push({ type: ApplicationCommandOptionType.Boolean, name: 'private', value: true });
			handles.push(await dispatch(() => command(member, 'ask', askOptions)));
		}
		await Promise.all([faults, restFaults, linksDuringRun]);
		log(`${handles.length} interactions dispatched in ${Date.now() - started} ms; waiting for the bot to finish them`);

		// Every interaction is over once the bot's router says so (a handler never writes after that). The log is read
		// a little at a time: the local Discord runs in this process, and must not be kept from answering.
		const handledIds = new Set<string>();
		let read = 0;
		const waitUntilHandled = async (pending: readonly InteractionHandle[], timeoutMs: number) => {
			const deadline = Date.now() + timeoutMs;
			for (;;) {
				const lines = botProcess.stdout;
				for (; read < lines.length; read++) {
					const line = lines[read] as string;
					if (line.includes('"interaction handled"')) handledIds.add(/"interactionId":"(\d+)"/.exec(line)?.[1] ?? '');
				}
				if (pending.every((handle) => handledIds.has(handle.id)) || Date.now() >= deadline) return;
				await sleep(200);
			}
		};
		await waitUntilHandled(handles, 45_000);
		log(`${handles.filter((handle) => handledIds.has(handle.id)).length} of ${handles.length} interactions finished`);

		const outcomes: Record<string, number> = {};
		const askOutcomes: Record<string, number> = {};
		const lateLinkOutcomes: Record<string, number> = {};
		const lateLinkIds = new Set([...lateLinkHandles.values()].map((handle) => handle.id));
		const count = (into: Record<string, number>, outcome: string) => (into[outcome] = (into[outcome] ?? 0) + 1);
		const problems: string[] = [];
		const unanswered: string[] = [];
		const answeredTwice: string[] = [];
		const hiddenBeforeRestart: string[] = [];
		let hiddenAfterRestart = 0;
		const requestsByToken = () => {
			const byToken = new Map<string, typeof discord.requests>();
			for (const request of discord.requests) {
				const token = /\/(?:interactions\/\d+|webhooks\/\d+)\/([^/]+)/.exec(request.path)?.[1];
				if (token) byToken.set(token, [...(byToken.get(token) ?? []), request]);
			}
			return byToken;
		};
		const runRequests = requestsByToken();
		for (const handle of handles) {
			const requests = runRequests.get(handle.token) ?? [];
			const final = finalAnswers(handle.state(), requests);
			const outcome: Outcome | 'linked' = /Linked to/.test(final.content ?? '') && final.count === 1 ? 'linked' : classify(final);
			count(outcomes, outcome);
			count(lateLinkIds.has(handle.id) ? lateLinkOutcomes : askOutcomes, outcome);
			if (outcome === 'unanswered') unanswered.push(handle.id);
			if (outcome === 'answered twice') answeredTwice.push(handle.id);
			if (outcome === 'answered twice' || outcome === 'unanswered' || !handledIds.has(handle.id)) {
				const t0 = handle.state().dispatchedAt;
				const sent = requests.map(
					(r) =>
						`${r.method} ${r.path.split('/').at(-1)} → ${r.status} +${r.at - t0} ms ${JSON.stringify((r.json as { content?: string })?.content ?? '').slice(0, 60)}`,
				);
				problems.push(`${handle.id} ${outcome}${handledIds.has(handle.id) ? '' : ' (never finished)'}: ${sent.join(' | ')}`);
			}
			const flagId = /Reference for moderators: `([a-z0-9]+)`/.exec(final.content ?? '')?.[1];
			const answeredAt = requests.filter((r) => r.status >= 200 && r.status < 300).at(-1)?.at ?? Number.POSITIVE_INFINITY;
			if (flagId && answeredAt < restartedAt) hiddenBeforeRestart.push(flagId);
			if (flagId && answeredAt > restartedAt + 2000) hiddenAfterRestart++;
		}

		// After the run, with the faults over: what was written before the restart is still there.
		upstream.setDefaultGeneration((request) => ({ json: safeResponse(`Answer to: ${String(request.rawBody.length)}`) }));
		const lost = { links: [] as string[], flags: [] as string[], settings: [] as string[] };
		const afterRunHandles: InteractionHandle[] = [];
		// A late /link counts only when the member was told it was saved: one answered "storage isn't answering" was not.
		const toldLinked = (user: APIUser) => /Linked to/.test(JSON.stringify(lateLinkHandles.get(user.id)?.state().original?.content ?? ''));
		const linkedBeforeRestart = [...members, ...lateLinks.filter((user, i) => at(0.05 + i * 0.04) < restartedAt && toldLinked(user))];
		for (let i = 0; i < linkedBeforeRestart.length; i += 25) {
			await Promise.all(
				linkedBeforeRestart.slice(i, i + 25).map(async (member) => {
					// Past the pace of the run: a minute's asks may already be spent, so wait for the member's turn.
					const answer = await askUntilAdmitted(() =>
						command(member, 'ask', [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'still linked?' }]),
					);
					if (answer === undefined) lost.links.push(`${member.id} (could not be checked: the member's asks were still refused)`);
					else if (/Link your account first/.test(answer)) lost.links.push(member.id);
				}),
			);
		}
		for (const flagId of hiddenBeforeRestart) {
			const view = await subcommand('flagged', 'view', [{ type: ApplicationCommandOptionType.String, name: 'id', value: flagId }]).waitForAnswer(
				10_000,
			);
			if (/No flag with that id/.test(view.original?.content ?? '')) lost.flags.push(flagId);
		}
		const limits = await subcommand('settings', 'limits').waitForAnswer(10_000);
		if (!/500 questions/.test(limits.original?.content ?? '')) lost.settings.push('asks_per_day');
		// The mod-log channel: every hidden answer after the restart was still reported there.
		const postedAfter = discord.channelMessages(modlog).filter((message) => Date.parse(message.timestamp) > restartedAt + 2000).length;
		if (hiddenAfterRestart > 0 && postedAfter === 0) lost.settings.push('modlog');

		// The asks after the run, once the bot is done with each (an ask given up on above may have ended since), are
		// counted like the run's; then the bot's own metrics, read as an operator would, before it stops.
		await waitUntilHandled(afterRunHandles, 15_000);
		const afterRequests = requestsByToken();
		for (const handle of afterRunHandles) count(askOutcomes, classify(finalAnswers(handle.state(), afterRequests.get(handle.token) ?? [])));
		const metrics = await scrapeMetrics(metricsPort);

		stopping = true;
		const crashedEarly = await Promise.race([exitedEarly, sleep(10).then(() => false)]);
		if (botProcess.child.pid !== undefined && botProcess.child.exitCode === null) process.kill(botProcess.child.pid, 'SIGTERM');
		const exitCode = await Promise.race([botProcess.exited, sleep(15_000).then(() => 'did not exit within 15 s')]);
		const unhandled = botProcess.stdout.filter((line) => line.includes('"unhandled rejection"')).length + rejections.length;
		log(`done in ${Date.now() - started} ms`);
		return {
			outcomes,
			askOutcomes,
			asksAfterRun: afterRunHandles.length,
			lateLinkOutcomes,
			members: members.length,
			generationRequests: upstream.requests.filter((request) => request.endpoint === 'generate').length,
			metrics,
			unanswered,
			answeredTwice,
			problems,
			redispatched,
			upstreamAttempts: Object.fromEntries(attempts),
			discordEditFailures: discord.requests.filter((r) => r.method === 'PATCH' && (r.status === 429 || r.status === 502)).length,
			crashed: crashedEarly || exitCode !== 0,
			exitCode,
			unhandledRejections: unhandled,
			lost,
			elapsedMs: Date.now() - started,
		};

		/** The answer to an ask once the member may ask again (within about 10 s); undefined if they never could. */
		async function askUntilAdmitted(make: () => InteractionHandle): Promise<string | undefined> {
			for (let attempt = 0; attempt < 10; attempt++) {
				const handle = make();
				afterRunHandles.push(handle);
				const state = await handle.waitFor(hasFinalAnswer, 10_000).catch(() => undefined);
				const content = state?.followUps.at(-1)?.content ?? state?.original?.content ?? '';
				if (state && !/asking quickly|still answering/.test(content)) return content;
				await sleep(1000);
			}
			return undefined;
		}
	} finally {
		process.off('unhandledRejection', onRejection);
		bot?.kill();
		await services?.stop();
		await redis.stop();
	}
}
