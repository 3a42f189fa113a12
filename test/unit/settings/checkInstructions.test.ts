import { describe, expect, it } from 'vitest';
import { render } from '../../../src/i18n/translate.js';
import { UserInputError } from '../../../src/errors/veilError.js';
import { checkInstructions } from '../../../src/settings/checkInstructions.js';
import { INSTRUCTIONS_MAX_LENGTH } from '../../../src/settings/instructions.js';

/** What the manager reads when the change is refused, in English. */
function refusal(text: string | undefined, clear: boolean): string | undefined {
	try {
		checkInstructions(text, clear);
		return undefined;
	} catch (error) {
		if (!(error instanceof UserInputError)) throw error;
		return render('en-US', error.answer);
	}
}

describe('checkInstructions', () => {
	it('takes a text, a clear, or neither (to show them)', () => {
		expect(refusal('Answer in haiku.', false)).toBeUndefined();
		expect(refusal(undefined, true)).toBeUndefined();
		expect(refusal(undefined, false)).toBeUndefined();
		expect(refusal('😀'.repeat(INSTRUCTIONS_MAX_LENGTH), false)).toBeUndefined();
	});

	it('refuses both at once, blanks, and a text past the limit as Discord counts characters', () => {
		expect(refusal('x', true)).toBe('Give either `text` or `clear:True`, not both. Nothing was changed.');
		expect(refusal(' \n ', false)).toBe('The instructions are empty. Nothing was changed.');
		expect(refusal('x'.repeat(INSTRUCTIONS_MAX_LENGTH + 1), false)).toBe('Instructions hold at most 2,000 characters. Nothing was changed.');
	});
});
