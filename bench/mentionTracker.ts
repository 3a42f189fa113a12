import type { APIUser } from 'discord.js';
import type { DiscordEmulator, RecordedRequest } from '../sandbox/discord/emulator.js';
import { mostFrequent, type LoadResult } from './load.js';

/** One mention the bench posted, and when Veil's reply to it reached the local Discord. */
interface Mention {
	prompt: string;
	postedAt: number;
	repliedAt?: number;
	content?: string;
}

/**
 * Posts members' messages that mention the bot, one thread each (a thread's conversation would otherwise carry the
 * turns before, and the upstream stand-in answers the first), and times the bot's reply to each (a message whose
 * reference is the member's) from the post, by the emulator's own record of the bot's requests.
 */
export class MentionTracker {
	readonly #emulator: DiscordEmulator;
	readonly #byMessage = new Map<string, Mention>();
	readonly #onRequest = (request: RecordedRequest) => this.#record(request, performance.now());

	constructor(emulator: DiscordEmulator) {
		this.#emulator = emulator;
		emulator.events.on('request', this.#onRequest);
	}

	close(): void {
		this.#emulator.events.off('request', this.#onRequest);
	}

	/** `count` mentions at `rate` a second, the n-th in `threads[n]` by `members[n % members.length]`. */
	async offer(options: {
		rate: number;
		count: number;
		members: readonly APIUser[];
		threads: readonly string[];
		timeoutMs: number;
	}): Promise<LoadResult> {
		const { rate, count, members, threads } = options;
		const botId = this.#emulator.bot.id;
		const mentions: Mention[] = [];
		const started = performance.now();
		for (let n = 0; n < count; n++) {
			const wait = started + (n * 1000) / rate - performance.now();
			if (wait >= 1) await new Promise((wake) => setTimeout(wake, wait));
			const prompt = `bench mention ${n}`;
			const mention: Mention = { prompt, postedAt: performance.now() };
			const message = this.#emulator.postAsMember({ user: members[n % members.length], channelId: threads[n], content: `<@${botId}> ${prompt}` });
			this.#byMessage.set(message.id, mention);
			mentions.push(mention);
		}
		const lastPost = performance.now();
		while (mentions.some((mention) => mention.repliedAt === undefined) && performance.now() - lastPost < options.timeoutMs) {
			await new Promise((wake) => setTimeout(wake, 100));
		}
		const done = mentions.filter((mention) => mention.repliedAt !== undefined);
		const right = done.filter((mention) => mention.content?.includes(mention.prompt) === true);
		this.#byMessage.clear();
		return {
			offered: count,
			answered: right.length,
			wrong: done.length - right.length,
			wrongKinds: mostFrequent(done.filter((mention) => !right.includes(mention)).map((mention) => (mention.content ?? '').slice(0, 80))),
			seconds: (Math.max(...done.map((mention) => mention.repliedAt as number)) - started) / 1000,
			// A message has no acknowledgement: the reply is the first the member sees.
			ackMs: [],
			completionMs: right.map((mention) => (mention.repliedAt as number) - mention.postedAt),
		};
	}

	#record(request: RecordedRequest, at: number): void {
		if (request.method !== 'POST' || request.status < 200 || request.status >= 300 || !/^\/channels\/\d+\/messages$/.test(request.path)) return;
		const body = request.json as { content?: string; message_reference?: { message_id?: string } } | undefined;
		const mention = this.#byMessage.get(body?.message_reference?.message_id ?? '');
		if (!mention || mention.repliedAt !== undefined) return;
		mention.repliedAt = at;
		mention.content = body?.content;
	}
}
