import type { BotContext } from '../app/context.js';

/** Members kept at most: about those active in a few minutes of a busy process. */
const LINKED_MAX = 5_000;
/** Servers kept at most, past which the oldest are forgotten (and guessed unlimited until read again). */
const LIMITED_MAX = 10_000;

/**
 * What this process last read or did of a member's link and a server's daily limit: the ask path's reads, and
 * /link, /unlink and /settings limits run here. A guess, good until another process changes the record, which the
 * ask's own reads then tell. It lets an ask be deferred before those reads (see acknowledge).
 */
export class LastSeen {
	readonly #linked = new Set<string>();
	readonly #limited = new Set<string>();

	/** Notes whether the member was found linked (or has just linked, or unlinked). */
	sawLink(userId: string, linked: boolean): void {
		note(this.#linked, userId, linked, LINKED_MAX);
	}

	/** Notes whether the server was found with a daily limit (or has just set or removed one). */
	sawLimit(guildId: string, limited: boolean): void {
		note(this.#limited, guildId, limited, LIMITED_MAX);
	}

	linked(userId: string): boolean {
		return this.#linked.has(userId);
	}

	limited(guildId: string): boolean {
		return this.#limited.has(guildId);
	}
}

function note(seen: Set<string>, id: string, present: boolean, max: number): void {
	if (!present) {
		seen.delete(id);
		return;
	}
	seen.add(id);
	if (seen.size > max) seen.delete(seen.values().next().value as string);
}

/**
 * The bot's context is built below this folder (src/app), so the guesses of each bot are kept here, by the
 * admission that every interaction of that bot shares.
 */
const guesses = new WeakMap<BotContext['admission'], LastSeen>();

/** This bot's guesses: one per running bot (tests run several in one process). */
export function lastSeenOf(ctx: Pick<BotContext, 'admission'>): LastSeen {
	let lastSeen = guesses.get(ctx.admission);
	if (!lastSeen) {
		lastSeen = new LastSeen();
		guesses.set(ctx.admission, lastSeen);
	}
	return lastSeen;
}
