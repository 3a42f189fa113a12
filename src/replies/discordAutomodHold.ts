import type { GenerationResponse } from '../generation/generationResponse.js';
import { holdByRule, type RuleHold, type Verdict } from '../generation/safetyVerdict.js';

/**
 * The hold of an answer that Discord's own AutoMod refused to post (a guest app's answer, in a server that did not add
 * Veil, meets that server's rules): the server's rules, as Veil's own AutoMod holds are, but Discord names neither the
 * rule nor the word. Kept in a flag's `automod` like any rule's hold, so the reviewers and the stats see it as AutoMod's.
 */
export const DISCORD_AUTOMOD_HOLD: RuleHold = { ruleId: 'discord-automod', ruleName: 'Discord AutoMod', keyword: '' };

/** Whether a hold is Discord's refusal rather than a rule Veil matched itself. */
export function isDiscordAutomodHold(rule: Pick<RuleHold, 'ruleId'> | undefined): boolean {
	return rule?.ruleId === DISCORD_AUTOMOD_HOLD.ruleId;
}

/** The verdict on an answer Discord's AutoMod refused to post: held, with the ratings as the model gave them. */
export function heldByDiscordAutomod(response: GenerationResponse): Extract<Verdict, { kind: 'hidden' }> {
	return holdByRule(response, DISCORD_AUTOMOD_HOLD);
}
