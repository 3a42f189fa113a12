import { describe, expect, it } from 'vitest';
import type { GenerationResponse } from '../../../src/generation/generationResponse.js';
import { t } from '../../../src/i18n/translate.js';
import { describeStopReasons } from '../../../src/moderation/flagLabels.js';
import { heldByDiscordAutomod } from '../../../src/replies/discordAutomodHold.js';
import { hiddenNotice } from '../../../src/replies/answerMessages.js';

const NEGLIGIBLE = ['HARASSMENT', 'HATE_SPEECH', 'SEXUALLY_EXPLICIT', 'DANGEROUS_CONTENT'].map((name) => ({
	category: `HARM_CATEGORY_${name}`,
	probability: 'NEGLIGIBLE',
}));
const response = {
	candidates: [{ content: { parts: [{ text: 'an answer' }] }, finishReason: 'STOP', safetyRatings: NEGLIGIBLE }],
	promptFeedback: { safetyRatings: NEGLIGIBLE },
} as GenerationResponse;

describe("an answer Discord's AutoMod refused to post", () => {
	const verdict = heldByDiscordAutomod(response);

	it("tells the member the server's rules did not let Veil post it, and who reviews it, in their language", () => {
		expect(hiddenNotice(verdict, 'flag1', 'operators', 'de').content).toContain(t('de', 'members.ask.hidden.blockedForOperators'));
		expect(hiddenNotice(verdict, 'flag1', 'server', 'fr').content).toContain(t('fr', 'members.ask.hidden.blockedForServer'));
		expect(hiddenNotice(verdict, undefined, 'none', 'ja').content).toBe(t('ja', 'members.ask.hidden.blockedNotKept'));
		// Discord names no rule: no "why" line with an empty rule's name.
		expect(hiddenNotice(verdict, 'flag1', 'operators', 'en-US').content).not.toContain('Why');
	});

	it('reads to the reviewers as Discord refusing it, without a rule or keyword Veil does not know', () => {
		expect(describeStopReasons({ ...verdict, automod: verdict.rule }, 'en-US')).toEqual([t('en-US', 'moderators.automod.flagReasonDiscord')]);
	});
});
