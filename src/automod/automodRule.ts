import { z } from 'zod';

/** Discord's AutoMod trigger, event and action types that Veil reads (discord-api-docs, Auto Moderation). */
export const KEYWORD_TRIGGER = 1;
export const MESSAGE_SEND_EVENT = 1;
export const BLOCK_MESSAGE_ACTION = 1;
export const SEND_ALERT_MESSAGE_ACTION = 2;

const actionSchema = z.object({
	type: z.number().int(),
	metadata: z
		.object({
			channel_id: z.string().optional(),
			custom_message: z.string().optional(),
		})
		.optional(),
});

/** One AutoMod rule as Discord sends it, cut to what Veil applies; other fields are ignored, not refused. */
export const automodRuleSchema = z.object({
	id: z.string(),
	guild_id: z.string(),
	name: z.string(),
	event_type: z.number().int(),
	trigger_type: z.number().int(),
	trigger_metadata: z
		.object({
			keyword_filter: z.array(z.string()).optional(),
			regex_patterns: z.array(z.string()).optional(),
			allow_list: z.array(z.string()).optional(),
		})
		.default({}),
	actions: z.array(actionSchema).default([]),
	enabled: z.boolean(),
	exempt_roles: z.array(z.string()).default([]),
	exempt_channels: z.array(z.string()).default([]),
});

export type AutomodRule = z.infer<typeof automodRuleSchema>;

/** Whether Veil applies the rule at all: enabled keyword rules on message sends. */
export function appliesToVeil(rule: AutomodRule): boolean {
	return rule.enabled && rule.trigger_type === KEYWORD_TRIGGER && rule.event_type === MESSAGE_SEND_EVENT;
}
