import { REST, RESTEvents, type Client, type InternalRequest, type RESTOptions, type ResponseLike } from 'discord.js';

/*
 * Reaches past discord.js's public API; checked against discord.js 14.28.1 and @discordjs/rest 2.6.3. It relies on
 * REST#request passing every request through REST#queueRequest, which it overrides, on discord.js marking an
 * interaction's callback, edits and follow-ups `auth: false`, and on `handlers` holding one entry per route in use.
 * test/unit/discord/internals/discordRest.test.ts fails when any of these changes.
 */

const FORWARDED_EVENTS = [RESTEvents.RateLimited, RESTEvents.InvalidRequestWarning, RESTEvents.Debug] as const;

/**
 * How often the tokenless side releases its idle handlers. @discordjs/rest keys a webhook route's handler by
 * `webhookId/token`, so each interaction leaves one behind; at the library's hourly default a steady 100 asks/s keeps
 * ~360,000 of them. An idle handler is released at the first sweep after its last request: within 20 s.
 */
export const INTERACTION_HANDLER_SWEEP_MS = 10_000;

export interface DiscordRestOptions {
	/** How often idle interaction handlers are released; tests shorten it. */
	readonly interactionHandlerSweepMs?: number;
}

/** The routes Discord does not count against a bot's global limit when called without its token. */
const INTERACTION_ROUTE = /^\/(?:interactions|webhooks)\//;

/**
 * Whether Discord exempts `request` from the bot's global limit: an interaction callback, or an edit or follow-up
 * of the interaction's webhook, sent without the bot's token. discord.js marks exactly these `auth: false`; the REST
 * proxy marks every request so, and tells them by the Authorization header its caller sent, or did not.
 */
export function exemptFromGlobalLimit(request: InternalRequest): boolean {
	const headers = Object.keys(request.headers ?? {});
	return request.auth === false && INTERACTION_ROUTE.test(request.fullRoute) && !headers.some((name) => name.toLowerCase() === 'authorization');
}

/**
 * Discord limits a bot's requests to 50 a second globally, but the interaction endpoints (the callback, and the edits
 * and follow-ups of the interaction's webhook) are not bound by that limit. @discordjs/rest counts the edits and
 * follow-ups against it all the same, so a default client answers no more than about 50 members a second, however
 * fast everything else is.
 *
 * The requests {@link exemptFromGlobalLimit} go instead through a second REST instance with no client-side global
 * limit, and no token to send. Every other request keeps the global limit. On both, each route keeps its own
 * buckets, and a 429 (its `retry_after`, the bucket headers, a global one) is waited out as before. The bot's client
 * and the REST proxy (`npm run rest-proxy`) both use it.
 */
export class DiscordRest extends REST {
	readonly #tokenless: REST;

	constructor(options: Partial<RESTOptions> = {}, own: DiscordRestOptions = {}) {
		super(options);
		// Its hashes are keyed by route (`PATCH:/webhooks/:id/:token/messages/@original`), not by interaction, so the
		// library's hash sweep (a day's lifetime) keeps them bounded; only the handlers need the short sweep.
		this.#tokenless = new REST({
			...options,
			globalRequestsPerSecond: Number.POSITIVE_INFINITY,
			handlerSweepInterval: own.interactionHandlerSweepMs ?? INTERACTION_HANDLER_SWEEP_MS,
		});
		// Rate limits on either side reach the listeners of this one. (Not `response`: forwarding it would make the
		// tokenless side clone every response.)
		for (const event of FORWARDED_EVENTS) {
			this.#tokenless.on(event, (...args: unknown[]) => {
				// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- tsc needs it to pick emit's untyped form
				(this.emit as (name: string, ...rest: unknown[]) => boolean)(event, ...args);
			});
		}
	}

	/** The rate-limit handlers of the interaction routes now held (one per interaction in use, and the callbacks'). */
	get interactionHandlerCount(): number {
		return this.#tokenless.handlers.size;
	}

	override queueRequest(request: InternalRequest): Promise<ResponseLike> {
		return exemptFromGlobalLimit(request) ? this.#tokenless.queueRequest(request) : super.queueRequest(request);
	}

	override clearHashSweeper(): void {
		super.clearHashSweeper();
		this.#tokenless.clearHashSweeper();
	}

	override clearHandlerSweeper(): void {
		super.clearHandlerSweeper();
		this.#tokenless.clearHandlerSweeper();
	}
}

/** Gives the client a {@link DiscordRest} with the options it was built with, in place of its default REST. */
export function useDiscordRest(client: Client, own: DiscordRestOptions = {}): void {
	const built = client.rest;
	built.clearHashSweeper();
	built.clearHandlerSweeper();
	client.rest = new DiscordRest(client.options.rest, own);
}
