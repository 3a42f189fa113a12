import type { Turn } from '../conversations/buildContents.js';
import { filePart } from '../files/filePart.js';

/** What goes upstream: a lone prompt; a lone prompt with files (one content item, no role); or turns with roles. */
export type GenerationInput = string | Turn | readonly Turn[];

/** A turn's parts: its text, then each file (fenced, or named only when it was not kept). */
function partsOf(turn: Turn): Array<{ text: string }> {
	if (!turn.files?.length) return [{ text: turn.text }];
	return [
		{ text: turn.text },
		...turn.files.map((file) => ({ text: file.text === undefined ? notKept(file.name) : filePart(file.name, file.text) })),
	];
}

/** The part of a file a conversation could not keep: named, so the model knows one was there. */
function notKept(name: string): string {
	return `File: ${name.replace(/[\r\n]/g, ' ')} (too large to keep in this conversation; its text is no longer available)`;
}

/**
 * The JSON body of a generation request, its wire format (docs/upstream.md §1): a lone prompt as `{"contents":[{"parts":[{"text":…}]}]}`, byte for byte
 * what a single /ask has always sent; a lone prompt with files as one content item of several parts, without a role;
 * turns (from conversations' buildContents) with their roles.
 */
export function generationBody(input: GenerationInput): string {
	if (typeof input === 'string') return JSON.stringify({ contents: [{ parts: [{ text: input }] }] });
	// Only the role and the parts: who asked a prompt never goes upstream.
	if (!isTurns(input)) return JSON.stringify({ contents: [{ parts: partsOf(input) }] });
	return JSON.stringify({ contents: input.map((turn) => ({ role: turn.role, parts: partsOf(turn) })) });
}

function isTurns(input: Turn | readonly Turn[]): input is readonly Turn[] {
	return Array.isArray(input);
}
