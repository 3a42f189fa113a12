/**
 * Every component's `custom_id` is `<prefix>:<payload…>`, the payload carrying all the state a click needs, so a
 * button keeps working after a restart. The prefixes live here, in one place, and feed the router.
 */
export const CUSTOM_ID = {
	linkOpen: 'link:open',
	linkSubmit: 'link:submit',
	flagView: 'flagged:view',
	flaggedPage: 'flagged:page',
	flagRelease: 'flagged:release',
	flagDismiss: 'flagged:dismiss',
	flagReview: 'flagged:review',
} as const;

export type CustomIdPrefix = (typeof CUSTOM_ID)[keyof typeof CUSTOM_ID];

/** Discord's cap on a component's custom_id. */
export const CUSTOM_ID_MAX_LENGTH = 100;

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
