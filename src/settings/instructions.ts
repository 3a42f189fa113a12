import { z } from 'zod';
import type { AtomicStore } from '../storage/atomicStore.js';
import { StoreError } from '../storage/storeError.js';

/** The longest standing instructions, server-wide or for one channel. */
export const INSTRUCTIONS_MAX_LENGTH = 2000;

/** The record of every server that has instructions: server id → "1". */
const INSTRUCTED_KEY = 'instructed-servers';
const recordKey = (guildId: string) => `instructions:${guildId}`;

const recordSchema = z.object({
	server: z.string().optional(),
	/** Channel id → that channel's instructions, which replace the server's there. */
	channels: z.record(z.string(), z.string()).default({}),
});

/** A server's standing instructions: its own, and each channel's. */
export type ServerInstructions = z.infer<typeof recordSchema>;

/** Tries of one update before it gives up (another process changing the same server meanwhile). */
const UPDATE_ATTEMPTS = 10;
/** Servers whose record is kept in memory at most. */
const RECENT_MAX = 10_000;

/**
 * Standing instructions per server and channel (`/settings instructions`), read by every ask.
 *
 * Nearly every server has none, so an ask reads one shared record, the list of servers that have some, at most every
 * `maxAgeMs` per process; only for a server on it is that server's record read, again at most every `maxAgeMs`. A
 * change is a compare-and-set of the server's record (two moderators at once never lose one another's), then the
 * list: a change reaches the other processes within `maxAgeMs`.
 */
export class Instructions {
	readonly #atomic: AtomicStore;
	readonly #maxAgeMs: number;
	#instructed: { readonly servers: ReadonlySet<string>; readonly readAt: number } | undefined;
	#readingInstructed: Promise<ReadonlySet<string>> | undefined;
	readonly #recent = new Map<string, { readonly record: ServerInstructions; readonly readAt: number }>();

	constructor(atomic: AtomicStore, maxAgeMs: number) {
		this.#atomic = atomic;
		this.#maxAgeMs = maxAgeMs;
	}

	/**
	 * The instructions an ask in `channelId` goes with: the channel's own, else (in a thread, a forum's post
	 * included) its parent channel's, else the server's, else none.
	 */
	async forAsk(guildId: string, channelId: string | null, parentId?: string, now = Date.now()): Promise<string | undefined> {
		const servers = await this.#instructedServers(now);
		if (!servers.has(guildId)) return undefined;
		const recent = this.#recent.get(guildId);
		const record = recent && now - recent.readAt < this.#maxAgeMs ? recent.record : await this.get(guildId);
		return ownChannel(record, channelId) ?? ownChannel(record, parentId) ?? record.server;
	}

	/** The server's record as stored now. */
	async get(guildId: string): Promise<ServerInstructions> {
		const { record } = await this.#read(guildId);
		this.#remember(guildId, record);
		return record;
	}

	/** Sets (text) or clears (undefined) the server's instructions, or one channel's; returns the record as it now is. */
	async set(guildId: string, channelId: string | undefined, text: string | undefined): Promise<ServerInstructions> {
		for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
			const { raw, record } = await this.#read(guildId);
			const channels = { ...record.channels };
			let server = record.server;
			if (channelId === undefined) server = text;
			else if (text === undefined) delete channels[channelId];
			else channels[channelId] = text;
			const next: ServerInstructions = server === undefined ? { channels } : { server, channels };
			if (await this.#atomic.compareAndSet(recordKey(guildId), raw, JSON.stringify(next))) {
				const any = next.server !== undefined || Object.keys(channels).length > 0;
				await this.#atomic.mapWrite(INSTRUCTED_KEY, [[guildId, any ? '1' : undefined]]);
				this.#remember(guildId, next);
				const known = this.#instructed;
				if (known) {
					const servers = new Set(known.servers);
					if (any) servers.add(guildId);
					else servers.delete(guildId);
					this.#instructed = { servers, readAt: known.readAt };
				}
				return next;
			}
		}
		throw new StoreError(`instructions of a server kept changing during ${UPDATE_ATTEMPTS} tries of an update`);
	}

	#instructedServers(now: number): Promise<ReadonlySet<string>> {
		if (this.#instructed && now - this.#instructed.readAt < this.#maxAgeMs) return Promise.resolve(this.#instructed.servers);
		this.#readingInstructed ??= this.#readInstructed().finally(() => (this.#readingInstructed = undefined));
		return this.#readingInstructed;
	}

	async #readInstructed(): Promise<ReadonlySet<string>> {
		const readAt = Date.now();
		const servers = new Set((await this.#atomic.mapRead(INSTRUCTED_KEY)).keys());
		this.#instructed = { servers, readAt };
		return servers;
	}

	async #read(guildId: string): Promise<{ raw: string | undefined; record: ServerInstructions }> {
		const raw = await this.#atomic.read(recordKey(guildId));
		let value: unknown = {};
		try {
			value = raw === undefined ? {} : JSON.parse(raw);
		} catch {
			// An unreadable record reads as none; the next change replaces it.
		}
		const parsed = recordSchema.safeParse(value);
		return { raw, record: parsed.success ? parsed.data : { channels: {} } };
	}

	#remember(guildId: string, record: ServerInstructions): void {
		this.#recent.delete(guildId);
		this.#recent.set(guildId, { record, readAt: Date.now() });
		if (this.#recent.size > RECENT_MAX) this.#recent.delete(this.#recent.keys().next().value as string);
	}
}

function ownChannel(record: ServerInstructions, channelId: string | null | undefined): string | undefined {
	return channelId && Object.hasOwn(record.channels, channelId) ? record.channels[channelId] : undefined;
}
