import { UserInputError } from '../errors/veilError.js';
import { sentence, type Sentence } from '../i18n/translate.js';
import { characterCount } from '../text/characterCount.js';

/** The longest prompt a member may type: /ask's option, and the Follow up and Ask Veil forms. */
export const PROMPT_MAX_LENGTH = 4000;

/**
 * Refuses a blank prompt (with `empty`, which says where to type one) or one past {@link PROMPT_MAX_LENGTH}
 * characters. Discord checks both too, but a prompt of spaces passes its minimum.
 */
export function checkPrompt(prompt: string, empty: Sentence): void {
	if (prompt.trim() === '') throw new UserInputError({ answer: empty, code: 'prompt_empty' });
	// Discord counts characters, not UTF-16 units: an emoji is one.
	if (characterCount(prompt) > PROMPT_MAX_LENGTH) {
		throw new UserInputError({ answer: sentence('members.ask.promptTooLong', { count: PROMPT_MAX_LENGTH }), code: 'prompt_too_long' });
	}
}
