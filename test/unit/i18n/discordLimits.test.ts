import { describe, expect, it } from 'vitest';
import { SUPPORTED_LOCALES } from '../../../src/i18n/locales.js';
import { t, type MessageKey } from '../../../src/i18n/translate.js';

// Discord refuses a form or a button whose text is too long (the whole modal or message fails), so every locale's
// words must fit: a modal's title and a label's label 45 characters, a label's description 100, a button's label 80.
const LIMITS: ReadonlyArray<readonly [limit: number, keys: readonly MessageKey[]]> = [
	[
		45,
		[
			'members.link.formTitle',
			'members.conversation.formTitle',
			'members.askVeil.formTitle',
			'moderators.decisionForm.title.released',
			'moderators.decisionForm.title.dismissed',
			'moderators.decisionForm.title.reviewed',
			'cases.decisionForm.title.removed',
			'cases.decisionForm.title.kept',
			'cases.noteForm.reportTitle',
			'cases.noteForm.reviewTitle',
		],
	],
	[
		45,
		[
			'members.link.emailLabel',
			'members.link.passwordLabel',
			'members.conversation.promptLabel',
			'members.conversation.filesLabel',
			'members.askVeil.questionLabel',
			'moderators.decisionForm.label',
			'cases.noteForm.label',
		],
	],
	[
		100,
		[
			'members.link.emailHint',
			'members.link.passwordHint',
			'members.conversation.promptHint',
			'members.askVeil.questionHint',
			'moderators.decisionForm.hint.released',
			'moderators.decisionForm.hint.dismissed',
			'moderators.decisionForm.hint.reviewed',
			'cases.decisionForm.hint.removed',
			'cases.decisionForm.hint.kept',
			'cases.noteForm.reportHint',
			'cases.noteForm.reviewHint',
		],
	],
	[
		80,
		[
			'members.ask.linkButton',
			'members.conversation.followUpButton',
			'moderators.buttons.previous',
			'moderators.buttons.next',
			'moderators.buttons.release',
			'moderators.buttons.dismiss',
			'moderators.buttons.review',
			'moderators.buttons.viewReply',
			'cases.buttons.report',
			'cases.buttons.askReview',
			'cases.buttons.remove',
			'cases.buttons.keep',
			'answers.buttons.regenerate',
			'answers.buttons.cancel',
		],
	],
];

describe("the catalogues' form and button texts", () => {
	it.each(SUPPORTED_LOCALES)("%s fits Discord's limits on titles, labels, descriptions and buttons", (locale) => {
		for (const [limit, keys] of LIMITS) {
			for (const key of keys) expect(t(locale, key).length, `${locale} ${key}: ${t(locale, key)}`).toBeLessThanOrEqual(limit);
		}
		// The Follow up form's file hint names up to three files; the one naming files too large to keep leaves at
		// least ten characters of the names (followUpFiles cuts them to fit).
		expect(t(locale, 'members.conversation.filesHint', { count: 3 }).length, `${locale} filesHint`).toBeLessThanOrEqual(100);
		expect(t(locale, 'members.conversation.filesNotKept', { names: '' }).length, `${locale} filesNotKept`).toBeLessThanOrEqual(90);
	});
});
