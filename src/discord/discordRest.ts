import { REST, RESTEvents, type Client, type InternalRequest, type RESTOptions, type ResponseLike } from 'discord.js';

const FORWARDED_EVENTS = [RESTEvents.RateLimited, RESTEvents.InvalidRequestWarning, RESTEvents.Debug] as const;

/**
 * Discord limits a bot's requests to 50 a second globally, but the interaction endpoints (the callback, and the edits
 * and follow-ups of the interaction's webhook) are not bound by that limit. @discordjs/rest counts the edits and
 * follow-ups against it all the same, so a default client answers no more than about 50 members a second, however
 * fast everything else is.
 *
 * The requests discord.js makes without the bot's token (`auth: false`: exactly the interaction callbacks and
 * webhook routes) go instead through a second REST instance with no client-side global limit, and no token to send.
 * Every other request keeps the global limit. On both, each route keeps its own buckets, and a 429 (its
 * `retry_after`, the bucket headers, a global one) is waited out as before.
 */
class DiscordRest extends REST {
	readonly #tokenless: REST;

	constructor(options: Partial<RESTOptions> = {}) {
		super(options);
		this.#tokenless = new REST({ ...options, globalRequestsPerSecond: Number.POSITIVE_INFINITY });
		// Rate limits on either side reach the listeners of this one. (Not `response`: forwarding it would make the
		// tokenless side clone every response.)
		for (const event of FORWARDED_EVENTS) {
			this.#tokenless.on(event, (...args: unknown[]) => {
				(this.emit as (name: string, ...rest: unknown[]) => boolean)(event, ...args);
			});
		}
	}

	override queueRequest(request: InternalRequest): Promise<ResponseLike> {
		return request.auth === false ? this.#tokenless.queueRequest(request) : super.queueRequest(request);
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
export function useDiscordRest(client: Client): void {
	const built = client.rest;
	built.clearHashSweeper();
	built.clearHandlerSweeper();
	client.rest = new DiscordRest(client.options.rest);
}
