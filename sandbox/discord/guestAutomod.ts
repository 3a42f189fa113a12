import type { AutomodRuleModel } from './automod.js';
import type { DiscordState, InteractionRecord } from './model.js';

/**
 * Discord's AutoMod over a guest app's interaction responses, as its change log for user-installed apps (June 2024)
 * describes it: "Updating a message can result in a 400 response if the content of the message was blocked by
 * AutoMod, which may be particularly important for deferred messages" (JSON code 200000; 200001 for a title).
 *
 * Which messages the local Discord checks, and why:
 * - only the responses of an interaction in a server that did not add the app, so that a member's own install
 *   answered there (`authorizing_integration_owners` without that server under "0"). A message of a bot that
 *   the server added is not checked (Discord leaves bots' messages alone), nor are channel posts: a guest app cannot
 *   post in a channel at all (403 50001). DMs and group DMs have no AutoMod;
 * - every way such a response reaches the channel: the callback's message (type 4) or update (type 7), the edit of
 *   the original (a deferral's "thinking…" above all) or of a follow-up, and a new follow-up;
 * - only what the channel sees: an ephemeral message (only its member sees it) is not checked;
 * - the text a reader sees: `content`, embeds' title, description, fields and footer, and Text Display components;
 *   not the files' bytes.
 * - the server's enabled KEYWORD rules on message sends with a Block Message action, by Discord's keyword strategies
 *   (`cat` a whole word, `cat*` a word's start, `*cat` its end, `*cat*` anywhere; case-insensitive), its
 *   `regex_patterns` (here JavaScript's engine, case-insensitive) and `allow_list`. `exempt_channels` (the
 *   local Discord has no threads) and `exempt_roles` (the roles of the member whose interaction it answers) exempt it.
 * The refusal changes nothing: the message stays as it was, or is not made.
 */
export const MESSAGE_BLOCKED_BY_AUTOMOD = { message: 'Message was blocked by automatic moderation', code: 200000 } as const;

const EPHEMERAL = 64;
const KEYWORD_TRIGGER = 1;
const MESSAGE_SEND = 1;
const BLOCK_MESSAGE = 1;

/** The 400 Discord answers when the server's AutoMod blocks this response of a guest app, or undefined. */
export function guestAutomodRefusal(
	state: DiscordState,
	record: InteractionRecord,
	body: Record<string, unknown>,
	flags: number,
): { status: 400; body: typeof MESSAGE_BLOCKED_BY_AUTOMOD } | undefined {
	if (!isGuestInServer(record) || (flags & EPHEMERAL) !== 0) return undefined;
	const guildId = record.guildId as string;
	const roles = new Set(state.member(guildId, record.user.id)?.roles ?? []);
	const text = readableText(body);
	if (text === '') return undefined;
	const blocked = state.automod
		.list(guildId)
		.some(
			(rule) =>
				applies(rule) && !rule.exempt_channels.includes(record.channelId) && !rule.exempt_roles.some((id) => roles.has(id)) && matches(rule, text),
		);
	return blocked ? { status: 400, body: MESSAGE_BLOCKED_BY_AUTOMOD } : undefined;
}

/** An interaction in a server that only a member's own install of the app authorized. */
function isGuestInServer(record: InteractionRecord): boolean {
	if (record.guildId === null) return false;
	const owners = record.payload.authorizing_integration_owners as Record<string, string> | undefined;
	return owners?.['0'] !== record.guildId;
}

function applies(rule: AutomodRuleModel): boolean {
	return (
		rule.enabled &&
		rule.event_type === MESSAGE_SEND &&
		rule.trigger_type === KEYWORD_TRIGGER &&
		rule.actions.some((action) => action.type === BLOCK_MESSAGE)
	);
}

/** What a member reads of a message: its content, its embeds' words, its Text Displays (at any depth). */
function readableText(body: Record<string, unknown>): string {
	const parts: string[] = [];
	if (typeof body.content === 'string') parts.push(body.content);
	for (const embed of Array.isArray(body.embeds) ? (body.embeds as Array<Record<string, unknown>>) : []) {
		const footer = embed.footer as { text?: unknown } | undefined;
		const fields = Array.isArray(embed.fields) ? (embed.fields as Array<{ name?: unknown; value?: unknown }>) : [];
		for (const value of [embed.title, embed.description, footer?.text, ...fields.flatMap((f) => [f.name, f.value])]) {
			if (typeof value === 'string') parts.push(value);
		}
	}
	const visit = (components: unknown): void => {
		for (const component of Array.isArray(components) ? (components as Array<Record<string, unknown>>) : []) {
			if (component.type === 10 && typeof component.content === 'string') parts.push(component.content);
			visit(component.components);
			if (component.accessory) visit([component.accessory]);
		}
	};
	visit(body.components);
	return parts.join('\n');
}

function matches(rule: AutomodRuleModel, text: string): boolean {
	const { keyword_filter = [], regex_patterns = [], allow_list = [] } = rule.trigger_metadata;
	const allowed = allow_list.map(keywordPattern);
	const hits: string[] = [];
	for (const keyword of keyword_filter) for (const hit of text.matchAll(keywordPattern(keyword))) hits.push(hit[0]);
	for (const source of regex_patterns) {
		try {
			for (const hit of text.matchAll(new RegExp(source, 'giu'))) hits.push(hit[0]);
		} catch {
			// Discord refuses a pattern it cannot compile when the rule is saved; one that reaches here matches nothing.
		}
	}
	return hits.some((hit) => !allowed.some((allow) => new RegExp(`^(?:${allow.source})$`, 'iu').test(hit)));
}

/** A keyword in Discord's wildcard syntax, as a case-insensitive global pattern over words. */
function keywordPattern(keyword: string): RegExp {
	const anyStart = keyword.startsWith('*');
	const anyEnd = keyword.endsWith('*') && keyword.length > 1;
	const core = keyword.slice(anyStart ? 1 : 0, anyEnd ? -1 : undefined).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	const word = '[\\p{L}\\p{N}_]';
	return new RegExp(`${anyStart ? `${word}*` : `(?<!${word})`}${core}${anyEnd ? `${word}*` : `(?!${word})`}`, 'giu');
}
