/**
 * Every component's `custom_id` is `<command>:<action>:<payload…>`, the payload carrying all the state a click
 * needs, so a button keeps working after a restart. Each command owns its prefixes, built from its own name (see
 * `ownedPrefixes`); the registry refuses a prefix that does not start with its command's name.
 */
export type CustomIdPrefix = `${string}:${string}`;

/** Discord's cap on a component's custom_id. */
export const CUSTOM_ID_MAX_LENGTH = 100;

/** The prefixes of one command: `{ open: 'link:open', submit: 'link:submit' }` for `ownedPrefixes('link', ['open', 'submit'])`. */
export function ownedPrefixes<const Action extends string>(command: string, actions: readonly Action[]): Readonly<Record<Action, CustomIdPrefix>> {
	return Object.freeze(Object.fromEntries(actions.map((action) => [action, `${command}:${action}`])) as Record<Action, CustomIdPrefix>);
}

/** Joins a prefix and its payload; throws when the result would break Discord's 100-character cap. */
export function buildCustomId(prefix: CustomIdPrefix, ...payload: Array<string | number>): string {
	const parts = payload.map(String);
	if (parts.some((part) => part.includes(':'))) throw new Error(`custom_id payload for ${prefix} contains ':'`);
	const id = [prefix, ...parts].join(':');
	if (id.length > CUSTOM_ID_MAX_LENGTH) throw new Error(`custom_id for ${prefix} is ${id.length} characters`);
	return id;
}

/** Splits a custom_id into its prefix (the first two segments) and payload. */
export function parseCustomId(customId: string): { prefix: string; payload: string[] } {
	const [command = '', action = '', ...payload] = customId.split(':');
	return { prefix: `${command}:${action}`, payload };
}
