import type { APIUser } from 'discord.js';
import type { DiscordEmulator, GuildModel } from '../sandbox/discord/emulator.js';
import { answerMessages, followUpIdOf } from '../test/support/conversations.js';

const ANSWER_TIMEOUT_MS = 30_000;
/** Failures told in the log; the rest are only counted. */
const FAILURES_TOLD = 5;

/**
 * The soak's conversations: each an /ask by one of its own members, Follow up pressed as soon as the answer shows,
 * and the form sent with a question of its own; counted when the follow-up's answer names that question.
 */
export class ConversationLoop {
	/** Asks sent so far: each conversation's /ask and its follow-up. */
	asks = 0;
	followedUp = 0;
	failed = 0;
	readonly #emulator: DiscordEmulator;
	readonly #members: readonly APIUser[];
	readonly #guilds: readonly GuildModel[];
	readonly #log: (line: string) => void;
	#sequence = 0;

	constructor(emulator: DiscordEmulator, members: readonly APIUser[], guilds: readonly GuildModel[], log: (line: string) => void) {
		this.#emulator = emulator;
		this.#members = members;
		this.#guilds = guilds;
		this.#log = log;
	}

	/** Starts `perSecond` conversations a second for `durationMs`, open loop, and resolves once every one has ended. */
	async run(perSecond: number, durationMs: number): Promise<void> {
		const count = Math.floor((perSecond * durationMs) / 1000);
		const started = performance.now();
		const rounds: Array<Promise<void>> = [];
		for (let i = 0; i < count; i++) {
			const wait = started + (i * 1000) / perSecond - performance.now();
			if (wait >= 1) await new Promise((wake) => setTimeout(wake, wait));
			rounds.push(this.#converse());
		}
		await Promise.all(rounds);
	}

	async #converse(): Promise<void> {
		const n = this.#sequence++;
		const user = this.#members[n % this.#members.length] as APIUser;
		const channel = (this.#guilds[n % this.#guilds.length] as GuildModel).channels[0];
		try {
			this.asks++;
			const options = [{ type: 3, name: 'prompt', value: `soak conversation ${n}` }];
			const first = await this.#emulator.slashCommand({ name: 'ask', user, channelId: channel?.id, options }).waitForAnswer(ANSWER_TIMEOUT_MS);
			const message = answerMessages(first).at(-1);
			const press = await this.#emulator.button({ customId: followUpIdOf(first), message, user }).waitForAnswer(ANSWER_TIMEOUT_MS);
			if (!press.modal) throw new Error(`Follow up opened no form: ${press.original?.content}`);
			this.asks++;
			const prompt = `soak follow-up ${n}`;
			const answer = await this.#emulator.modalSubmit({ customId: press.modal.custom_id, fields: { prompt }, user }).waitForAnswer(ANSWER_TIMEOUT_MS);
			if (!answer.original?.content?.includes(prompt)) throw new Error(`the follow-up answered: ${answer.original?.content}`);
			this.followedUp++;
		} catch (error) {
			if (++this.failed <= FAILURES_TOLD) this.#log(`  conversation ${n} failed: ${error instanceof Error ? error.message : String(error)}`);
		}
	}
}
