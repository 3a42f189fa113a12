import { z } from 'zod';
import type { AtomicStore } from './atomicStore.js';
import { StoreError } from './storeError.js';

const KEY = 'limited-servers';
const listSchema = z.array(z.string());

/** Tries of one change before it gives up: each lost try means another process changed the list just then. */
const CHANGE_ATTEMPTS = 10;

interface LimitedServersOptions {
	/** How long a read of the list may be reused: how late another process's new limit may reach this one. */
	readonly maxAgeMs: number;
	/** The servers whose stored settings set a limit: what the list starts from when there is none yet. */
	readonly scanLimited: () => Promise<string[]>;
	/** Told of servers a read found newly listed, whose settings this process may hold from before. */
	readonly onListed?: (guildIds: readonly string[]) => void;
}

/**
 * The servers that have set a daily limit, one record in the store. Every ask needs its server's limit, and nearly
 * every server has none: a process reads this one list at most every `maxAgeMs`, and a server's own settings only
 * when it is listed, instead of reading each server's settings at its asks.
 *
 * A server is listed before its first limit is stored, and never taken off: a removal in one process could race an
 * addition in another and lose it, while a listed server without a limit costs only a read of its settings every
 * `maxAgeMs`. A store that predates the list gets it from the settings stored, the first time it is needed.
 */
export class LimitedServers {
	readonly #atomic: AtomicStore;
	readonly #options: LimitedServersOptions;
	#known: { readonly ids: ReadonlySet<string>; readonly readAt: number } | undefined;
	#reading: Promise<ReadonlySet<string>> | undefined;

	constructor(atomic: AtomicStore, options: LimitedServersOptions) {
		this.#atomic = atomic;
		this.#options = options;
	}

	/** The list as read at most `maxAgeMs` before `now`, else read now (one read for every caller meanwhile). */
	async current(now = Date.now()): Promise<ReadonlySet<string>> {
		if (this.#known && now - this.#known.readAt < this.#options.maxAgeMs) return this.#known.ids;
		this.#reading ??= this.#read().finally(() => (this.#reading = undefined));
		return this.#reading;
	}

	/** Whether the list, as this process last read or changed it, holds the server: a guess, without a read. */
	lastSeen(guildId: string): boolean {
		return this.#known?.ids.has(guildId) ?? false;
	}

	/** Lists the server (before its limit is stored), creating the list first when there is none. */
	async add(guildId: string): Promise<void> {
		for (let attempt = 0; attempt < CHANGE_ATTEMPTS; attempt++) {
			const readAt = Date.now();
			const { raw, ids } = await this.#stored();
			if (ids.includes(guildId)) {
				this.#remember(ids, readAt);
				return;
			}
			const next = [...ids, guildId].sort();
			if (await this.#atomic.compareAndSet(KEY, raw, JSON.stringify(next))) {
				this.#remember(next, readAt);
				return;
			}
		}
		throw new StoreError(`the list of limited servers kept changing during ${CHANGE_ATTEMPTS} tries of an addition`);
	}

	async #read(): Promise<ReadonlySet<string>> {
		// The time the read starts: whatever was stored before it, it sees.
		const readAt = Date.now();
		return this.#remember((await this.#stored()).ids, readAt);
	}

	/**
	 * The list as stored, and its text (what a compare-and-set expects). When there is none yet, or what is there is
	 * not a list, it is made from the settings stored (once, whoever comes first).
	 */
	async #stored(): Promise<{ raw: string; ids: string[] }> {
		for (let attempt = 0; attempt < CHANGE_ATTEMPTS; attempt++) {
			const raw = await this.#atomic.read(KEY);
			const ids = raw === undefined ? undefined : parse(raw);
			if (raw !== undefined && ids !== undefined) return { raw, ids };
			const made = [...new Set(await this.#options.scanLimited())].sort();
			const text = JSON.stringify(made);
			if (await this.#atomic.compareAndSet(KEY, raw, text)) return { raw: text, ids: made };
		}
		throw new StoreError(`the list of limited servers could not be made in ${CHANGE_ATTEMPTS} tries`);
	}

	/**
	 * Keeps what a read or a change found. The list only grows, so what this process knew already stays, whichever
	 * of two overlapping reads ends last.
	 */
	#remember(ids: readonly string[], readAt: number): ReadonlySet<string> {
		const before = this.#known?.ids ?? new Set<string>();
		const listed = ids.filter((id) => !before.has(id));
		const known = listed.length === 0 ? before : new Set([...before, ...listed]);
		this.#known = { ids: known, readAt: Math.max(readAt, this.#known?.readAt ?? 0) };
		if (listed.length > 0 && this.#options.onListed) this.#options.onListed(listed);
		return known;
	}
}

/** The stored list, or undefined when the text is not one. */
function parse(raw: string): string[] | undefined {
	try {
		const parsed = listSchema.safeParse(JSON.parse(raw));
		return parsed.success ? parsed.data : undefined;
	} catch {
		return undefined;
	}
}
