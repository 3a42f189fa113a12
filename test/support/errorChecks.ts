import { inspect } from 'node:util';
import { expect } from 'vitest';

/** The error `promise` rejects with, checked to be an instance of `kind`. */
export async function rejectionOf<T extends Error>(
	promise: Promise<unknown>,
	kind: abstract new (...args: never[]) => T,
): Promise<T> {
	const error = await promise.then(
		() => undefined,
		(caught: unknown) => caught,
	);
	expect(error).toBeInstanceOf(kind);
	return error as T;
}

/** Everything of an error that could end up in a log or before a member, as one text to search. */
export function loggable(error: unknown): string {
	const { message, stack, cause } = error as Error & { cause?: Error };
	const userMessage = (error as { userMessage?: unknown }).userMessage;
	return [message, stack, userMessage, cause?.message, cause?.stack, inspect(error, { depth: 10 }), JSON.stringify(error)].join(
		'\n',
	);
}
