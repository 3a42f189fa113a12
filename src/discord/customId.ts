import type { z } from 'zod';

/**
 * Every component's `custom_id` is `<command>:<action>:<payload…>`, the payload carrying all the state a click
 * needs, so a button keeps working after a restart. Each command owns its prefixes, which start with its own name;
 * the registry refuses one that does not.
 */
export type CustomIdPrefix = `${string}:${string}`;

/** Discord's cap on a component's custom_id. */
export const CUSTOM_ID_MAX_LENGTH = 100;

/** One kind of component id: its prefix, and the payload after it as a typed tuple, built and parsed alike. */
export interface CustomIdCodec<Payload extends readonly unknown[]> {
	readonly prefix: CustomIdPrefix;
	/** The id for this payload; throws when it would break Discord's cap or the parsing (a `:` in a part). */
	build(...payload: Payload): string;
	/** The payload as `build` took it; undefined for parts of another shape (an id crafted, or from an older Veil). */
	parse(parts: readonly string[]): Payload | undefined;
}

/** A codec whose payload is `schema`'s tuple: a zod tuple over the id's parts, which coerces what is not text. */
export function customIdCodec<const Payload extends ReadonlyArray<string | number>>(
	prefix: CustomIdPrefix,
	schema: z.ZodType<Payload>,
): CustomIdCodec<Payload> {
	return {
		prefix,
		build: (...payload) => buildCustomId(prefix, payload),
		parse: (parts) => {
			const parsed = schema.safeParse(parts);
			return parsed.success ? parsed.data : undefined;
		},
	};
}

function buildCustomId(prefix: CustomIdPrefix, payload: ReadonlyArray<string | number>): string {
	const parts = payload.map(String);
	if (parts.some((part) => part.includes(':'))) throw new Error(`custom_id payload for ${prefix} contains ':'`);
	const id = [prefix, ...parts].join(':');
	if (id.length > CUSTOM_ID_MAX_LENGTH) throw new Error(`custom_id for ${prefix} is ${id.length} characters`);
	return id;
}

/** Splits a custom_id into its prefix (the first two segments) and the parts of its payload. */
export function parseCustomId(customId: string): { prefix: string; parts: string[] } {
	const [command = '', action = '', ...parts] = customId.split(':');
	return { prefix: `${command}:${action}`, parts };
}
