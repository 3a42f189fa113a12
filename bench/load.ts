import type { APIUser } from 'discord.js';
import type { DiscordEmulator, GuildModel, RecordedRequest } from '../sandbox/discord/emulator.js';

/** One /ask the bench sent, and when Discord (the emulator) heard back about it. */
interface Ask {
	prompt: string;
	dispatchedAt: number;
	/** The first callback: a deferral (type 5), or a reply (type 4). */
	ackAt?: number;
	ackType?: number;
	/** The first edit of @original, a follow-up, or a type 4 reply: the member sees the answer. */
	completedAt?: number;
	content?: string;
}

export interface LoadResult {
	offered: number;
	/** Asks whose answer arrived and held their prompt's answer. */
	answered: number;
	/** Answers that arrived but were something else (an error, a link-first reply). */
	wrong: number;
	/** The wrong answers' texts (their first 80 characters), most frequent first, at most five. */
	wrongKinds: string[];
	/** From the first dispatch to the last answer. */
	seconds: number;
	ackMs: number[];
	completionMs: number[];
}

/**
 * Sends /ask through the local Discord and times each by the emulator's own record of the bot's requests: the ack
 * (the callback) and the completion (the answer edited in), both from the dispatch of INTERACTION_CREATE.
 */
export class AskTracker {
	readonly #byId = new Map<string, Ask>();
	readonly #byToken = new Map<string, Ask>();
	readonly #emulator: DiscordEmulator;
	readonly #onRequest = (request: RecordedRequest) => this.#record(request, performance.now());
	#waiter: (() => void) | undefined;
	#sequence = 0;

	constructor(emulator: DiscordEmulator) {
		this.#emulator = emulator;
		emulator.events.on('request', this.#onRequest);
	}

	/**
	 * Forgets the asks so far, here and in the local Discord: called between phases, once the bot is idle, so the
	 * bench's own heap (and its collector's pauses, which would land in the next phase's timings) stays small.
	 */
	forget(): void {
		this.#byId.clear();
		this.#byToken.clear();
		this.#emulator.forgetInteractions();
	}

	close(): void {
		this.#emulator.events.off('request', this.#onRequest);
	}

	/**
	 * Offers `count` asks at `rate` a second (open loop: on schedule whatever the bot's pace) from `members` across
	 * `guilds`, then waits for every answer, at most `timeoutMs` after the last dispatch. `onTick` runs every 50 ms
	 * meanwhile (the RSS sampling of the slow-upstream phase).
	 */
	async offer(options: {
		rate: number;
		count: number;
		members: readonly APIUser[];
		guilds: readonly GuildModel[];
		timeoutMs: number;
		onTick?: () => void;
	}): Promise<LoadResult> {
		const { rate, count, members, guilds } = options;
		const asks: Ask[] = [];
		const ticker = options.onTick ? setInterval(options.onTick, 50) : undefined;
		const started = performance.now();
		for (let i = 0; i < count; i++) {
			const due = started + (i * 1000) / rate;
			const wait = due - performance.now();
			if (wait >= 1) await new Promise((wake) => setTimeout(wake, wait));
			const n = this.#sequence++;
			const guild = guilds[n % guilds.length] as GuildModel;
			const channel = guild.channels[Math.floor(n / guilds.length) % guild.channels.length];
			const prompt = `bench question ${n}`;
			const ask: Ask = { prompt, dispatchedAt: performance.now() };
			const handle = this.#emulator.slashCommand({
				name: 'ask',
				user: members[n % members.length],
				channelId: channel?.id,
				options: [{ type: 3, name: 'prompt', value: prompt }],
			});
			this.#byId.set(handle.id, ask);
			this.#byToken.set(handle.token, ask);
			asks.push(ask);
		}
		const lastDispatch = performance.now();
		const pending = () => asks.some((ask) => ask.completedAt === undefined);
		while (pending() && performance.now() - lastDispatch < options.timeoutMs) {
			await new Promise<void>((wake) => {
				const timer = setTimeout(wake, 200);
				this.#waiter = () => {
					clearTimeout(timer);
					wake();
				};
			});
		}
		this.#waiter = undefined;
		clearInterval(ticker);
		const done = asks.filter((ask) => ask.completedAt !== undefined);
		const right = done.filter((ask) => ask.content?.includes(ask.prompt) === true);
		const lastAnswer = Math.max(...done.map((ask) => ask.completedAt as number));
		return {
			offered: count,
			answered: right.length,
			wrong: done.length - right.length,
			wrongKinds: mostFrequent(done.filter((ask) => !right.includes(ask)).map((ask) => (ask.content ?? '(no content)').slice(0, 80))),
			seconds: (lastAnswer - started) / 1000,
			ackMs: asks.filter((ask) => ask.ackAt !== undefined).map((ask) => (ask.ackAt as number) - ask.dispatchedAt),
			completionMs: right.map((ask) => (ask.completedAt as number) - ask.dispatchedAt),
		};
	}

	#record(request: RecordedRequest, at: number): void {
		if (request.status < 200 || request.status >= 300) return;
		const segments = request.path.split('/');
		// /interactions/:id/:token/callback
		if (segments[1] === 'interactions' && segments[4] === 'callback') {
			const ask = this.#byId.get(segments[2] ?? '');
			if (!ask || ask.ackAt !== undefined) return;
			const body = request.json as { type?: number; data?: { content?: string } } | undefined;
			ask.ackAt = at;
			ask.ackType = body?.type;
			if (body?.type === 4) this.#complete(ask, at, body.data?.content);
			return;
		}
		// PATCH /webhooks/:app/:token/messages/@original, or a follow-up POST /webhooks/:app/:token
		if (segments[1] === 'webhooks') {
			const ask = this.#byToken.get(segments[3] ?? '');
			const isEdit = request.method === 'PATCH' && segments[5] === '@original';
			const isFollowUp = request.method === 'POST' && segments.length === 4;
			const body = request.json as { content?: string; components?: unknown } | undefined;
			// A "thinking…" that now carries Cancel (a slow generation, or the line's news) is news, not the answer.
			if (ask && (isEdit || isFollowUp) && !offersCancel(body?.components)) this.#complete(ask, at, body?.content);
		}
	}

	#complete(ask: Ask, at: number, content: string | undefined): void {
		if (ask.completedAt !== undefined) return;
		ask.completedAt = at;
		ask.content = content;
		this.#waiter?.();
	}
}

/** Whether a message's components hold Veil's Cancel button (`ask:cancel:…`). */
function offersCancel(components: unknown): boolean {
	return JSON.stringify(components ?? []).includes('"custom_id":"ask:cancel:');
}

/** The five most frequent of `texts`, each with its count. */
export function mostFrequent(texts: readonly string[]): string[] {
	const counts = new Map<string, number>();
	for (const text of texts) counts.set(text, (counts.get(text) ?? 0) + 1);
	return [...counts]
		.sort((a, b) => b[1] - a[1])
		.slice(0, 5)
		.map(([text, count]) => `${count}× ${JSON.stringify(text)}`);
}
