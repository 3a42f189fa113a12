/**
 * A conversation's turns and what of them goes in one generation request: the latest that fit its limits, the
 * standing instructions first, the new prompt last (generation/generationBody writes them as the wire format).
 */

import { characterCount } from '../text/characterCount.js';

/**
 * A file of a turn: its text, or none when it was too large to keep in the conversation (it is then named, and the
 * Follow up form says so).
 */
export interface TurnFile {
	readonly name: string;
	readonly text?: string;
}

/** One message of a conversation: the member's prompt (`user`) or the model's shown answer (`model`). */
export interface Turn {
	readonly role: 'user' | 'model';
	readonly text: string;
	/**
	 * Who asked it, on a `user` turn: the member whose prompt it is. Only they saw it (Discord shows others "used
	 * /ask", not the prompt), so only their own follow-ups send it. Absent on a prompt no one may be sent.
	 */
	readonly by?: string;
	/** The files sent with a prompt, each a further part of its turn after the text. */
	readonly files?: readonly TurnFile[];
}

/** At most this many turns go in one body, the new prompt included. */
export const TURN_LIMIT = 20;
/** At most this many characters of text go in one body, the new prompt included. */
export const CHARACTER_LIMIT = 16_000;

/** A turn's characters, its files' text included: what it costs of the conversation's budget. */
export function turnCharacters(turn: Turn): number {
	let count = characterCount(turn.text);
	if (turn.files) for (const file of turn.files) count += characterCount(file.text ?? '');
	return count;
}

/**
 * What a follow-up sends in place of a prompt its presser never saw: the body keeps its shape (it opens on a user
 * turn and alternates), and the model knows an answer replied to something it is not shown.
 */
export const UNSEEN_PROMPT = "(Another member's question, not shown.)";

/**
 * The turns as `memberId` may send them: their own prompts and every answer (shown to all who see the
 * conversation) as they are, every other prompt replaced by {@link UNSEEN_PROMPT}.
 */
export function seenBy(turns: readonly Turn[], memberId: string): Turn[] {
	return turns.map((turn) => (turn.role === 'user' && turn.by !== memberId ? { role: 'user', text: UNSEEN_PROMPT } : turn));
}

/** Below this many characters of room, a cut copy of an exchange says too little to be worth sending. */
const CUT_COPY_MIN_ROOM = 200;
/** Ends a turn cut to fit, so the model knows there was more. */
const CUT_MARK = ' […]';

/**
 * The longest run of the latest turns that fits `room`, opening on a `user` turn so the body alternates from the
 * member's side (a model turn whose prompt was dropped would answer nothing). Oldest turns go first. When not even
 * the newest exchange fits, a copy of it cut to the room (see {@link cutExchange}), so a follow-up of one long
 * answer still has it.
 */
export function trimHistory(history: readonly Turn[], room: { readonly turns: number; readonly characters: number }): Turn[] {
	let turns = 0;
	let characters = 0;
	let start = history.length;
	// Walk back from the newest turn while it fits; the kept run then starts at the earliest user turn reached.
	for (let index = history.length - 1; index >= 0; index--) {
		const turn = history[index] as Turn;
		turns += 1;
		characters += turn.files ? turnCharacters(turn) : characterCount(turn.text);
		if (turns > room.turns || characters > room.characters) break;
		if (turn.role === 'user') start = index;
	}
	if (start < history.length) return history.slice(start);
	return cutExchange(history.slice(history.findLastIndex((turn) => turn.role === 'user')), room);
}

/**
 * The newest exchange (a prompt and what follows it) cut to `room`: the prompt keeps up to half the room, or more
 * when the answer is short; the answer keeps its beginning. Nothing when the room is too small to say anything.
 */
function cutExchange(exchange: readonly Turn[], room: { readonly turns: number; readonly characters: number }): Turn[] {
	const [prompt, ...rest] = exchange;
	if (!prompt || prompt.role !== 'user' || room.turns < 1 || room.characters < CUT_COPY_MIN_ROOM) return [];
	const restLength = rest.reduce((sum, turn) => sum + characterCount(turn.text), 0);
	const promptRoom = Math.max(Math.floor(room.characters / 2), room.characters - restLength);
	const kept: Turn[] = [{ ...prompt, text: cutText(prompt.text, promptRoom) }];
	let left = room.characters - characterCount(kept[0]?.text ?? '');
	for (const turn of rest.slice(0, Math.max(0, room.turns - 1))) {
		if (left <= CUT_MARK.length) break;
		const text = cutText(turn.text, left);
		kept.push({ ...turn, text });
		left -= characterCount(text);
	}
	return kept;
}

/** `text` if it has at most `max` characters, else its beginning and {@link CUT_MARK}, `max` characters in all. */
function cutText(text: string, max: number): string {
	if (characterCount(text) <= max) return text;
	return (
		Array.from(text)
			.slice(0, max - CUT_MARK.length)
			.join('') + CUT_MARK
	);
}

/**
 * The two turns a server's standing instructions take, first in every ask's contents there: the moderators' text as
 * a user turn, then the model's "Understood.", so that a lone ask then has a role on every turn. Trimming the
 * history never drops them.
 */
export function instructionTurns(instructions: string): readonly Turn[] {
	return [
		{ role: 'user', text: `Instructions from this server's moderators:\n${instructions}` },
		{ role: 'model', text: 'Understood.' },
	];
}

/**
 * What an ask sends: a lone prompt without roles; in a conversation (`history`, empty for its first turn asked
 * again) or with standing instructions, the turns of {@link buildContents}, each with its role.
 */
export function contentsFor(history: readonly Turn[] | undefined, prompt: string | Turn, instructions: string | undefined): string | Turn | Turn[] {
	return history !== undefined || instructions !== undefined ? buildContents(history ?? [], prompt, instructions) : prompt;
}

/**
 * The turns of a follow-up's body, or of an ask with standing instructions: the instructions first (never
 * trimmed), then as much of `history` as fits beside them and the new prompt, then the prompt as the last user turn
 * with its files. The new files are sent whole (they have caps of their own) and take nothing from the history's
 * room: that is the conversation's budget.
 */
export function buildContents(history: readonly Turn[], prompt: string | Turn, instructions?: string): Turn[] {
	const asked: Turn = typeof prompt === 'string' ? { role: 'user', text: prompt } : prompt;
	const first = instructions === undefined ? [] : instructionTurns(instructions);
	let characters = CHARACTER_LIMIT - characterCount(asked.text);
	for (const turn of first) characters -= characterCount(turn.text);
	const kept = trimHistory(history, { turns: TURN_LIMIT - 1 - first.length, characters });
	return [...first, ...kept, asked];
}
