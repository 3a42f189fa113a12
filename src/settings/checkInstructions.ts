import { UserInputError } from '../errors/veilError.js';
import { sentence } from '../i18n/translate.js';
import { characterCount } from '../text/characterCount.js';
import { INSTRUCTIONS_MAX_LENGTH } from './instructions.js';

/**
 * Refuses a change of standing instructions that cannot be made as given: text and `clear` together, a text of
 * blanks, or one past {@link INSTRUCTIONS_MAX_LENGTH} characters (counted as Discord counts them: its own check of
 * the option could be bypassed).
 */
export function checkInstructions(text: string | undefined, clear: boolean): void {
	if (text !== undefined && clear)
		throw new UserInputError({ answer: sentence('moderators.settings.instructionsTextAndClear'), code: 'instructions_text_and_clear' });
	if (text !== undefined && text.trim() === '')
		throw new UserInputError({ answer: sentence('moderators.settings.instructionsEmpty'), code: 'instructions_empty' });
	if (text !== undefined && characterCount(text) > INSTRUCTIONS_MAX_LENGTH) {
		throw new UserInputError({
			answer: sentence('moderators.settings.instructionsTooLong', { count: INSTRUCTIONS_MAX_LENGTH }),
			code: 'instructions_too_long',
		});
	}
}
