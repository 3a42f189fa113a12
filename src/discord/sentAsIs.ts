import type { JSONEncodable } from 'discord.js';

/**
 * Data already in Discord's shape, for discord.js to send as it is. A plain object in a reply's `components` goes
 * through the client's JSON transformer, which re-keys every field of every button to snake_case (lodash's
 * `snakeCase`, per key, per send); something JSON-encodable is sent as its `toJSON()` says, as `JSON.stringify` does.
 */
export function sentAsIs<T>(data: T): JSONEncodable<T> {
	return { toJSON: () => data };
}
