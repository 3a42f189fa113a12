import type { FileText } from '../files/readAttachments.js';
import { CHARACTER_LIMIT, type TurnFile } from './buildContents.js';
import { characterCount } from '../text/characterCount.js';

/**
 * The files of a prompt as its conversation keeps them: each whole while it fits the conversation's budget beside
 * the prompt and its answer, in order; a file past that is kept by name only (the Follow up form says so).
 */
export function filesToKeep(files: readonly FileText[], prompt: string, answer: string): TurnFile[] {
	// A follow-up adds at least a one-character prompt (as ConversationRepository.save counts it).
	let room = CHARACTER_LIMIT - 1 - characterCount(prompt) - characterCount(answer);
	return files.map((file) => {
		const size = characterCount(file.text);
		if (size > room) return { name: file.name };
		room -= size;
		return { name: file.name, text: file.text };
	});
}

/** The names of the files a conversation could not keep, for the Follow up form. */
export function filesNotKept(turns: ReadonlyArray<{ readonly files?: readonly TurnFile[] }>): string[] {
	return turns.flatMap((turn) => (turn.files ?? []).filter((file) => file.text === undefined).map((file) => file.name));
}
