import { describe, expect, it } from 'vitest';
import { DailyLimitError, LineFullError, AskInProgressError, MemberRateError } from '../../../src/admission/admissionErrors.js';
import { UserInputError } from '../../../src/errors/veilError.js';
import { sentence } from '../../../src/i18n/translate.js';
import { askOutcomeOfUsage, heldReasonOf, usageOutcomeOfError, USAGE_OUTCOMES } from '../../../src/usage/usageOutcome.js';
import { totalsOf } from '../../../src/usage/usageReport.js';

describe('how an ask ended, as its usage counts it', () => {
	it('names one reason per held answer: a rule first, then the ratings, else other', () => {
		expect(heldReasonOf(['automod'])).toBe('automod');
		expect(heldReasonOf(['not-negligible', 'finish-reason'])).toBe('ratings');
		expect(heldReasonOf(['blocked'])).toBe('ratings');
		expect(heldReasonOf(['reply-ratings-missing'])).toBe('other');
	});

	it('sorts the refusals by kind, and anything else is a failure', () => {
		expect(usageOutcomeOfError(new DailyLimitError(3, 0))).toBe('refused:limits');
		expect(usageOutcomeOfError(new MemberRateError(3, 0))).toBe('refused:limits');
		expect(usageOutcomeOfError(new AskInProgressError())).toBe('refused:limits');
		expect(usageOutcomeOfError(new LineFullError(5))).toBe('refused:busy');
		expect(usageOutcomeOfError(new UserInputError({ answer: sentence('members.general.unknownCommand'), code: 'file_too_large' }))).toBe(
			'refused:files',
		);
		expect(usageOutcomeOfError(new Error('boom'))).toBe('failed');
	});

	it("agrees with the operators' outcome of every kind", () => {
		expect(USAGE_OUTCOMES.map((outcome) => [outcome, askOutcomeOfUsage(outcome)])).toEqual([
			['shown', 'shown'],
			['held:ratings', 'hidden'],
			['held:automod', 'hidden'],
			['held:other', 'hidden'],
			['refused:limits', 'limited'],
			['refused:busy', 'busy'],
			['refused:link', 'refused'],
			['refused:files', 'refused'],
			['refused:other', 'refused'],
			['failed', 'error'],
		]);
	});

	it('adds every outcome into exactly one total', () => {
		const totals = totalsOf(USAGE_OUTCOMES.map((outcome, n) => [outcome, n + 1] as const));
		expect(totals.asks).toBe(55);
		expect(totals.shown + totals.held + totals.refused + totals.failed).toBe(totals.asks);
		expect(totals.heldBy).toEqual({ ratings: 2, automod: 3, other: 4 });
		expect(totals.refusedBy).toEqual({ limits: 5, busy: 6, link: 7, files: 8, other: 9 });
	});
});
