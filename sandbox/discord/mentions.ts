import type { APIAllowedMentions } from 'discord.js';

type MentionKind = 'users' | 'roles' | 'everyone';

/** Interaction responses and webhooks parse only users by default; ordinary messages parse everything. */
export const WEBHOOK_DEFAULT_PARSE: readonly MentionKind[] = ['users'];
export const CHANNEL_DEFAULT_PARSE: readonly MentionKind[] = ['users', 'roles', 'everyone'];

export interface ParsedMentions {
	userIds: string[];
	roleIds: string[];
	everyone: boolean;
}

const MENTION_RE = /<@(!|&)?(\d{15,21})>|@(everyone|here)\b/g;

/**
 * Who a message actually pings, honouring allowed_mentions the way Discord does, so a test can assert that
 * `{ parse: [] }` really pinged nobody (Discord leaves suppressed mentions out of `mentions`).
 */
export function parseMentions(content: string, allowed: APIAllowedMentions | undefined | null, defaults: readonly MentionKind[]): ParsedMentions {
	const result: ParsedMentions = { userIds: [], roleIds: [], everyone: false };
	if (!content.includes('@')) return result;
	const parse: readonly string[] = allowed ? (allowed.parse ?? []) : defaults;
	const users = allowed?.users ?? [];
	const roles = allowed?.roles ?? [];
	for (const match of content.matchAll(MENTION_RE)) {
		const [, sigil, id, everyone] = match;
		if (everyone) {
			if (parse.includes('everyone')) result.everyone = true;
		} else if (id && sigil === '&') {
			if ((parse.includes('roles') || roles.includes(id)) && !result.roleIds.includes(id)) result.roleIds.push(id);
		} else if (id && (parse.includes('users') || users.includes(id)) && !result.userIds.includes(id)) {
			result.userIds.push(id);
		}
	}
	return result;
}
