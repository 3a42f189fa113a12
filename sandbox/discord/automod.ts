import { PermissionFlagsBits } from 'discord.js';
import { snowflake } from './ids.js';
import type { GuildModel } from './guildModel.js';
import { memberPermissionsIn } from './permissions.js';

/** The intent that brings AUTO_MODERATION_RULE_* events (Auto Moderation Configuration, not privileged). */
export const AUTOMOD_CONFIGURATION_INTENT = 1 << 20;
export const AUTOMOD_RULE_EVENTS: ReadonlySet<string> = new Set([
	'AUTO_MODERATION_RULE_CREATE',
	'AUTO_MODERATION_RULE_UPDATE',
	'AUTO_MODERATION_RULE_DELETE',
]);

/** An AutoMod rule as Discord serves it (discord-api-docs, Auto Moderation Rule Object). */
export interface AutomodRuleModel {
	id: string;
	guild_id: string;
	name: string;
	creator_id: string;
	event_type: number;
	trigger_type: number;
	trigger_metadata: {
		keyword_filter?: string[];
		regex_patterns?: string[];
		presets?: number[];
		allow_list?: string[];
		mention_total_limit?: number;
		mention_raid_protection_enabled?: boolean;
	};
	actions: Array<{ type: number; metadata?: { channel_id?: string; custom_message?: string; duration_seconds?: number } }>;
	enabled: boolean;
	exempt_roles: string[];
	exempt_channels: string[];
}

/** What a test gives to make a rule: a keyword rule on message sends, enabled, blocking, unless told otherwise. */
export type AutomodRuleOptions = Partial<Omit<AutomodRuleModel, 'id' | 'guild_id' | 'creator_id'>>;

/** Each server's AutoMod rules, in creation order. */
export class AutomodRules {
	readonly #byGuild = new Map<string, AutomodRuleModel[]>();

	list(guildId: string): AutomodRuleModel[] {
		return this.#byGuild.get(guildId) ?? [];
	}

	create(guild: GuildModel, options: AutomodRuleOptions): AutomodRuleModel {
		const rule: AutomodRuleModel = {
			name: 'Keyword rule',
			event_type: 1,
			trigger_type: 1,
			trigger_metadata: {},
			actions: [{ type: 1, metadata: {} }],
			enabled: true,
			exempt_roles: [],
			exempt_channels: [],
			...options,
			id: snowflake(),
			guild_id: guild.id,
			creator_id: guild.owner_id,
		};
		this.#byGuild.set(guild.id, [...this.list(guild.id), rule]);
		return rule;
	}

	update(guildId: string, ruleId: string, changes: AutomodRuleOptions): AutomodRuleModel {
		const rule = this.#find(guildId, ruleId);
		Object.assign(rule, changes);
		return rule;
	}

	delete(guildId: string, ruleId: string): AutomodRuleModel {
		const rule = this.#find(guildId, ruleId);
		this.#byGuild.set(
			guildId,
			this.list(guildId).filter((other) => other !== rule),
		);
		return rule;
	}

	#find(guildId: string, ruleId: string): AutomodRuleModel {
		const rule = this.list(guildId).find((candidate) => candidate.id === ruleId);
		if (!rule) throw new Error(`Unknown AutoMod rule ${ruleId} in guild ${guildId}`);
		return rule;
	}
}

/** Whether the bot may read a server's rules and receive their events: Discord asks for Manage Server. */
export function botManagesGuild(guild: GuildModel, botId: string): boolean {
	return (memberPermissionsIn(guild, { id: botId, roles: guild.members[0]?.roles ?? [] }) & PermissionFlagsBits.ManageGuild) !== 0n;
}
