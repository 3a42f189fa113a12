import { DiscordAPIError } from 'discord.js';

/**
 * Discord's JSON codes for a message its AutoMod refused: the content (200000), or a title (200001). A guest app (a
 * member's own install, answering in a server that did not add it) meets that server's rules when it edits or sends
 * an interaction's message (Discord's change log for user-installed apps, June 2024).
 */
const AUTOMOD_CODES = { 200000: 'content', 200001: 'title' } as const;
type AutomodCode = keyof typeof AUTOMOD_CODES;

/**
 * A message Discord's AutoMod refused (400, code 200000 or 200001): the server's rules, not a fault of Veil's. Nothing
 * of it was posted, and sending it again would be refused again.
 */
export class BlockedByAutomod extends Error {
	override readonly name = 'BlockedByAutomod';
	/** What the rules matched: the message's content, or a title. */
	readonly blocked: (typeof AUTOMOD_CODES)[AutomodCode];

	private constructor(override readonly cause: DiscordAPIError) {
		// Not the route: an interaction's holds its token.
		super(`Discord's AutoMod refused the message's ${AUTOMOD_CODES[cause.code as AutomodCode]} (code ${cause.code})`, { cause });
		this.blocked = AUTOMOD_CODES[cause.code as AutomodCode];
	}

	/** The refusal this error is, or undefined when it is any other. */
	static from(error: unknown): BlockedByAutomod | undefined {
		if (error instanceof BlockedByAutomod) return error;
		return error instanceof DiscordAPIError && Object.hasOwn(AUTOMOD_CODES, error.code) ? new BlockedByAutomod(error) : undefined;
	}
}

/** The refusal `error` is; any other error is thrown on as it is. */
export function automodRefusalOf(error: unknown): BlockedByAutomod {
	const refusal = BlockedByAutomod.from(error);
	if (refusal === undefined) throw error;
	return refusal;
}
