import type { MessageView } from './view.js';

/**
 * What each person has read, per channel, as Discord keeps it for every account: the newest message they saw there.
 * A channel has news for a person when it holds a message from someone else newer than that; their own messages
 * never do. Kept by the server, so every tab of the page agrees.
 */
export class ReadState {
	readonly #read = new Map<string, bigint>();

	/** Marks the channel read up to its newest message. */
	markRead(person: string, channelId: string, messages: readonly MessageView[]): void {
		let newest = this.#read.get(`${person}:${channelId}`) ?? 0n;
		for (const m of messages) if (BigInt(m.id) > newest) newest = BigInt(m.id);
		this.#read.set(`${person}:${channelId}`, newest);
	}

	hasNews(person: string, personId: string, channelId: string, messages: readonly MessageView[]): boolean {
		const read = this.#read.get(`${person}:${channelId}`) ?? 0n;
		return messages.some((m) => m.author.id !== personId && BigInt(m.id) > read);
	}
}
