import type { APIApplicationCommandInteractionDataOption, APIUser } from 'discord.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { runScript, type BotProcess } from './botProcess.js';
import { makeUser, type InteractionHandle } from './discord/emulator.js';
import { classify, faultyGeneration, finalAnswers, seededRandom, type Outcome } from './faultMix.js';
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
	readonly outcomes: Record<string, number>;
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
			{ STORE_URL: redis.url, GENERATION_TIMEOUT_MS: String(TIMEOUT_MS), ASK_MEMBER_PER_MINUTE: '6', LOG_LEVEL: 'debug' },
			{ interactionDeadlineMs: 3000 },
		);
		const { discord, upstream } = services;
		const guild = discord.addGuild({ name: 'Fault matrix', channels: [{ name: 'general' }, { name: 'mod-log' }] });
		const [general, modlog] = guild.channels.map((channel) => channel.id) as [string, string];
		const admin = makeUser('admin');
		const inGuild = { guildId: guild.id, channelId: general };

		bot = runScript('src/main.ts', services.env);
		await bot.waitForLine(/connected to Discord/, 30_000);
		await discord.waitForReady(10_000);
		let stopping = false;
		const exitedEarly = bot.exited.then((code) => !stopping && code !== undefined);

		const command = (user: APIUser, name: string, options: APIApplicationCommandInteractionDataOption[], extra: { memberPermissions?: bigint } = {}) =>
			discord.slashCommand({ name, options, user, ...inGuild, ...extra });
		const subcommand = (name: string, sub: string, options: APIApplicationCommandInteractionDataOption[] = []) =>
			command(admin, name, [{ type: 1, name: sub, options } as APIApplicationCommandInteractionDataOption], { memberPermissions: ADMIN_PERMISSIONS });
		const link = (user: APIUser) => {
			upstream.addAccount(`${user.username}@example.com`, 'pw');
			return discord.modalSubmit({ customId: 'link:submit', fields: { email: `${user.username}@example.com`, password: 'pw' }, user, ...inGuild });
		};

		// Before the run: the settings and the members' links, through the bot.
		await subcommand('settings', 'modlog', [{ type: 7, name: 'channel', value: modlog }]).waitForAnswer(10_000);
		await subcommand('settings', 'limits', [{ type: 4, name: 'asks_per_day', value: 500 }]).waitForAnswer(10_000);
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
			const askOptions: APIApplicationCommandInteractionDataOption[] = [{ type: 3, name: 'prompt', value: `question ${i}` }];
			if (random() < 0.1) askOptions.push({ type: 5, name: 'private', value: true });
			handles.push(await dispatch(() => command(member, 'ask', askOptions)));
		}
		await Promise.all([faults, restFaults, linksDuringRun]);
		log(`${handles.length} interactions dispatched in ${Date.now() - started} ms; waiting for the bot to finish them`);

		// Every interaction is over once the bot's router says so (a handler never writes after that). The log is read
		// a little at a time: the local Discord runs in this process, and must not be kept from answering.
		const handledIds = new Set<string>();
		let read = 0;
		const deadline = Date.now() + 45_000;
		while (Date.now() < deadline) {
			const lines = bot.stdout;
			for (; read < lines.length; read++) {
				const line = lines[read] as string;
				if (line.includes('"interaction handled"')) handledIds.add(/"interactionId":"(\d+)"/.exec(line)?.[1] ?? '');
			}
			if (handles.every((handle) => handledIds.has(handle.id))) break;
			await sleep(200);
		}
		log(`${handles.filter((handle) => handledIds.has(handle.id)).length} of ${handles.length} interactions finished`);

		const outcomes: Record<string, number> = {};
		const problems: string[] = [];
		const unanswered: string[] = [];
		const answeredTwice: string[] = [];
		const hiddenBeforeRestart: string[] = [];
		let hiddenAfterRestart = 0;
		const requestsByToken = new Map<string, typeof discord.requests>();
		for (const request of discord.requests) {
			const token = /\/(?:interactions\/\d+|webhooks\/\d+)\/([^/]+)/.exec(request.path)?.[1];
			if (token) requestsByToken.set(token, [...(requestsByToken.get(token) ?? []), request]);
		}
		for (const handle of handles) {
			const requests = requestsByToken.get(handle.token) ?? [];
			const final = finalAnswers(handle.state(), requests);
			const outcome: Outcome | 'linked' = /Linked to/.test(final.content ?? '') && final.count === 1 ? 'linked' : classify(final);
			outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
			if (outcome === 'unanswered') unanswered.push(handle.id);
			if (outcome === 'answered twice') answeredTwice.push(handle.id);
			if (outcome === 'answered twice' || outcome === 'unanswered' || !handledIds.has(handle.id)) {
				const t0 = handle.state().dispatchedAt;
				const sent = requests.map((r) => `${r.method} ${r.path.split('/').at(-1)} → ${r.status} +${r.at - t0} ms ${JSON.stringify((r.json as { content?: string })?.content ?? '').slice(0, 60)}`);
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
		// A late /link counts only when the member was told it was saved: one answered "storage isn't answering" was not.
		const toldLinked = (user: APIUser) => /Linked to/.test(JSON.stringify(lateLinkHandles.get(user.id)?.state().original?.content ?? ''));
		const linkedBeforeRestart = [...members, ...lateLinks.filter((user, i) => at(0.05 + i * 0.04) < restartedAt && toldLinked(user))];
		for (let i = 0; i < linkedBeforeRestart.length; i += 25) {
			await Promise.all(
				linkedBeforeRestart.slice(i, i + 25).map(async (member) => {
					// Past the pace of the run: a minute's asks may already be spent, so wait for the member's turn.
					const answer = await askUntilAdmitted(() => command(member, 'ask', [{ type: 3, name: 'prompt', value: 'still linked?' }]));
					if (answer === undefined) lost.links.push(`${member.id} (could not be checked: the member's asks were still refused)`);
					else if (/Link your account first/.test(answer)) lost.links.push(member.id);
				}),
			);
		}
		for (const flagId of hiddenBeforeRestart) {
			const view = await subcommand('flagged', 'view', [{ type: 3, name: 'id', value: flagId }]).waitForAnswer(10_000);
			if (/No flag with that id/.test(view.original?.content ?? '')) lost.flags.push(flagId);
		}
		const limits = await subcommand('settings', 'limits').waitForAnswer(10_000);
		if (!/500 questions/.test(limits.original?.content ?? '')) lost.settings.push('asks_per_day');
		// The mod-log channel: every hidden answer after the restart was still reported there.
		const postedAfter = discord.channelMessages(modlog).filter((message) => Date.parse(message.timestamp) > restartedAt + 2000).length;
		if (hiddenAfterRestart > 0 && postedAfter === 0) lost.settings.push('modlog');

		stopping = true;
		const crashedEarly = await Promise.race([exitedEarly, sleep(10).then(() => false)]);
		if (bot.child.pid !== undefined && bot.child.exitCode === null) process.kill(bot.child.pid, 'SIGTERM');
		const exitCode = await Promise.race([bot.exited, sleep(15_000).then(() => 'did not exit within 15 s')]);
		const unhandled = bot.stdout.filter((line) => line.includes('"unhandled rejection"')).length + rejections.length;
		log(`done in ${Date.now() - started} ms`);
		return {
			outcomes,
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
				const state = await make()
					.waitFor(hasFinalAnswer, 10_000)
					.catch(() => undefined);
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
