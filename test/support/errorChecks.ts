import { inspect } from 'node:util';
import { expect } from 'vitest';
import { VeilError } from '../../src/errors/veilError.js';
import { render } from '../../src/i18n/translate.js';

/** The error `promise` rejects with, checked to be an instance of `kind`. */
export async function rejectionOf<T extends Error>(promise: Promise<unknown>, kind: abstract new (...args: never[]) => T): Promise<T> {
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
	const answer = error instanceof VeilError ? answerOf(error) : undefined;
	return [message, stack, answer, cause?.message, cause?.stack, inspect(error, { depth: 10 }), JSON.stringify(error)].join('\n');
}

/** What the member reads of a Veil error, rendered in en-US, the source every other locale translates. */
export function answerOf(error: VeilError): string {
	return render('en-US', error.answer);
}
