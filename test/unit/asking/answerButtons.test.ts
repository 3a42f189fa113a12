import { describe, expect, it } from 'vitest';
import { cancelRow } from '../../../src/asking/askCancel.js';
import { answerButtonRows } from '../../../src/asking/showAnswer.js';
import { customIds } from '../../../src/app/customIds.js';
import { t } from '../../../src/i18n/translate.js';
import type { SupportedLocale } from '../../../src/i18n/locales.js';

const labelsOf = (locale: SupportedLocale, conversationId: string) =>
	answerButtonRows({ conversationId, regenerate: true, locale })
		.flatMap((row) => row.toJSON().components)
		.map((button) => [button.label ?? null, button.custom_id]);

describe("an answer's buttons", () => {
	it('are labelled in each answer’s own language, one language after another in the same process', () => {
		for (const [locale, id] of [
			['fr', 'aaaa'],
			['de', 'bbbb'],
			['fr', 'cccc'],
			['en-US', 'dddd'],
		] as const) {
			expect(labelsOf(locale, id)).toEqual([
				[t(locale, 'members.conversation.followUpButton'), customIds.ask.followUp.build(id)],
				[t(locale, 'answers.buttons.regenerate'), customIds.ask.regenerate.build(id, id)],
				[null, customIds.ask.rate.build('up', id)],
				[null, customIds.ask.rate.build('down', id)],
				[t(locale, 'cases.buttons.report'), customIds.ask.report.build(id)],
			]);
		}
		expect(t('fr', 'answers.buttons.regenerate')).not.toBe(t('de', 'answers.buttons.regenerate'));
	});

	it('Cancel is labelled in the asker’s language and names their ask', () => {
		for (const locale of ['ja', 'en-US', 'ja'] as const) {
			const [button] = cancelRow('123', '456', locale).toJSON().components;
			expect(button).toMatchObject({ label: t(locale, 'answers.buttons.cancel'), custom_id: customIds.ask.cancel.build('123', '456') });
		}
	});
});
