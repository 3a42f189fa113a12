/**
 * The `contents` of a generation request (docs/upstream.md §1). A lone prompt goes as one content item without a
 * role; a follow-up sends the conversation's earlier turns with their roles, then the new prompt as the last `user`
 * turn.
 */

/** One message of a conversation: the member's prompt (`user`) or the model's shown answer (`model`). */
export interface Turn {
	readonly role: 'user' | 'model';
	readonly text: string;
}

/** At most this many turns go in one body, the new prompt included. */
export const TURN_LIMIT = 20;
/** At most this many characters of text go in one body, the new prompt included. */
export const CHARACTER_LIMIT = 16_000;

/** Characters as a member counts them (an emoji is one), not UTF-16 units. */
export function characterCount(text: string): number {
	let count = 0;
	for (const _ of text) count += 1;
	return count;
}

/**
 * The longest run of the latest turns that fits `room`, opening on a `user` turn so the body alternates from the
 * member's side (a model turn whose prompt was dropped would answer nothing). Oldest turns go first.
 */
export function trimHistory(history: readonly Turn[], room: { readonly turns: number; readonly characters: number }): Turn[] {
	let turns = 0;
	let characters = 0;
	let start = history.length;
	// Walk back from the newest turn while it fits; the kept run then starts at the earliest user turn reached.
	for (let index = history.length - 1; index >= 0; index--) {
		const turn = history[index] as Turn;
		turns += 1;
		characters += characterCount(turn.text);
		if (turns > room.turns || characters > room.characters) break;
		if (turn.role === 'user') start = index;
	}
	return history.slice(start);
}

/** The turns of a follow-up's body: as much of `history` as fits beside `prompt`, then `prompt` as the last user turn. */
export function buildContents(history: readonly Turn[], prompt: string): Turn[] {
	const kept = trimHistory(history, { turns: TURN_LIMIT - 1, characters: CHARACTER_LIMIT - characterCount(prompt) });
	return [...kept, { role: 'user', text: prompt }];
}

/**
 * The JSON body of a generation request: a lone prompt as `{"contents":[{"parts":[{"text":…}]}]}`, byte for byte
 * what a single /ask has always sent; turns (from {@link buildContents}) with their roles.
 */
export function generationBody(input: string | readonly Turn[]): string {
	if (typeof input === 'string') return JSON.stringify({ contents: [{ parts: [{ text: input }] }] });
	return JSON.stringify({ contents: input.map((turn) => ({ role: turn.role, parts: [{ text: turn.text }] })) });
}
