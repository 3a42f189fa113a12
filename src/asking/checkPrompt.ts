import { UserInputError } from '../answers/veilError.js';
import { messages } from '../answers/messages.js';
import { characterCount } from '../text/characterCount.js';

/** The longest prompt a member may type: /ask's option, and the Follow up and Ask Veil forms. */
export const PROMPT_MAX_LENGTH = 4000;

/**
 * Refuses a blank prompt (with `emptyMessage`, which says where to type one) or one past {@link PROMPT_MAX_LENGTH}
 * characters. Discord checks both too, but a prompt of spaces passes its minimum.
 */
export function checkPrompt(prompt: string, emptyMessage: string): void {
	if (prompt.trim() === '') throw new UserInputError({ userMessage: emptyMessage });
	// Discord counts characters, not UTF-16 units: an emoji is one.
	if (characterCount(prompt) > PROMPT_MAX_LENGTH) {
		throw new UserInputError({ userMessage: messages.ask.promptTooLong(PROMPT_MAX_LENGTH) });
	}
}
