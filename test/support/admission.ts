import { type APIUser, ApplicationCommandOptionType, InteractionResponseType } from 'discord.js';
import type { InteractionHandle, InteractionState, RecordedRequest } from '../../sandbox/discord/emulator.js';
import type { Harness } from './harness.js';
import { catalogueOf } from '../../src/i18n/catalogues.js';
import { SUPPORTED_LOCALES } from '../../src/i18n/locales.js';

// Shared steps of the admission end-to-end tests: asks whose upstream call ends when the test says, and what the
// member saw of the line.

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The "thinking…" message of an ask waiting in line, in any language Veil speaks: every form of the catalogues'. */
/** A slow generation's "thinking…" once it offers Cancel, in any language Veil speaks: news, not an answer. */
export const CANCEL_OFFERED = new RegExp(
	`^(${SUPPORTED_LOCALES.map((locale) => escapeRegExp((catalogueOf(locale).answers as { cancel: { generating: string } }).cancel.generating)).join('|')})$`,
);

export const WAITING = new RegExp(
	`^(${SUPPORTED_LOCALES.flatMap((locale) =>
		Object.entries(catalogueOf(locale).members.admission as Record<string, string>)
			.filter(([key]) => key === 'waitingNext' || key.startsWith('waiting_'))
			.map(([, sentence]) => escapeRegExp(sentence).replace(escapeRegExp('{{count}}'), '\\d+')),
	).join('|')})`,
);

/** A door the stand-in's answers wait behind until the test opens it. */
export function door(): { readonly closed: Promise<void>; open(): void } {
	let open!: () => void;
	const closed = new Promise<void>((resolve) => (open = resolve));
	return { closed, open };
}

/** Runs /ask as `user`. */
export function askAs(harness: Harness, user: APIUser, prompt: string): InteractionHandle {
	return harness.discord.slashCommand({ name: 'ask', options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: prompt }], user });
}

/**
 * True once the interaction has its final answer: a reply, or an edit or follow-up of the deferral that is not the
 * news of its place in line.
 */
export function hasFinalAnswer(state: InteractionState): boolean {
	const first = state.callbacks[0];
	if (!first) return false;
	if (first.type !== InteractionResponseType.DeferredChannelMessageWithSource) return true;
	if (state.followUps.length > 0) return true;
	return state.originalEdits > 0 && !WAITING.test(state.original?.content ?? '');
}

export function waitForFinalAnswer(handle: InteractionHandle, timeoutMs = 10_000): Promise<InteractionState> {
	return handle.waitFor(hasFinalAnswer, timeoutMs);
}

/** The edits of the interaction's "thinking…" message, in order, as sent. */
export function editsOf(harness: Harness, handle: InteractionHandle): string[] {
	return harness.discord.requests
		.filter(
			(request: RecordedRequest) => request.method === 'PATCH' && request.path.includes(handle.token) && request.path.endsWith('/messages/@original'),
		)
		.map((request) => String((request.json as { content?: unknown } | undefined)?.content ?? ''));
}

/** How many generation requests the stand-in has seen. */
export function generationCount(harness: Harness): number {
	return harness.upstream.requests.filter((request) => request.endpoint === 'generate').length;
}

/** Manage Server, which exempts a member from the daily limit and lets them run /settings. */
export const MANAGE_GUILD = 1n << 5n;
