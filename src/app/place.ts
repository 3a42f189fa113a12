import {
	ActionRowBuilder,
	ApplicationIntegrationType,
	ButtonBuilder,
	ButtonStyle,
	InteractionContextType,
	MessageFlags,
	PermissionFlagsBits,
	type APIActionRowComponent,
	type APIButtonComponentWithCustomId,
	type BaseInteraction,
	type RepliableInteraction,
} from 'discord.js';
import type { Config } from '../config/config.js';
import { answerAlone, answerInPlace, hiddenNotice, type Reviewers } from '../replies/answerMessages.js';
import type { Verdict } from '../generation/safetyVerdict.js';
import type { SupportedLocale } from '../i18n/locales.js';
import type { Logger } from '../logging/logger.js';
import type { NewFlag } from '../moderation/flagRepository.js';
import { OUTSIDE_CHANNEL } from '../moderation/storedFlag.js';
import { t } from '../i18n/translate.js';
import { customIds } from './customIds.js';
import type { SettingsRepository } from '../settings/settingsRepository.js';

/** Outside Veil's servers: a DM with Veil, a group DM, or a server that did not install Veil. */
export type OutsideKind = 'dm' | 'group-dm' | 'server';

/** The scope conversations outside Veil's servers are kept under: no server id is ever this. */
export const OUTSIDE_SCOPE = 'outside';

/** What a place reads to answer: the settings of a server, the limits of the configuration, the log. */
export interface PlaceDeps {
	readonly config: Pick<Config, 'askUserPerDay' | 'operatorGuildId'>;
	readonly settings: SettingsRepository;
	readonly log: Logger;
}

type HiddenVerdict = Extract<Verdict, { kind: 'hidden' }>;

/** Who reviews a held answer: where its flag is kept, and how a release of it reaches the member. */
export interface Review {
	readonly where: Pick<NewFlag, 'guildId' | 'channelId' | 'outside'>;
	/** A release goes to the member alone, by DM, rather than into the channel. */
	readonly private: boolean;
	/** The public notice a release replies to; none for a private one. */
	readonly noticeMessageId: string | undefined;
	/** The reviewing server's guild_locale, for its mod-log post; unknown outside (the operators' server). */
	readonly guildLocale: string | null;
}

/**
 * Where an interaction happens, decided once by the router: a server that installed Veil, or outside (a DM, a group
 * DM, a server without Veil). Each answers what differs between them; the ask's path asks and never branches.
 */
export interface Place {
	/** The server whose own moderation applies (its AutoMod rules, limits, instructions, mod-log); null outside. */
	readonly guildId: string | null;
	/** The key conversations are kept under: the server's id, or {@link OUTSIDE_SCOPE}. */
	readonly scope: string;
	/** Defers the answer; resolves with whether it is ephemeral, which outside Discord may decide whatever was asked. */
	defer(interaction: RepliableInteraction, ephemeral: boolean): Promise<boolean>;
	/** The member's asks a day allowed here; undefined: no limit (a store that fails lets the ask through). */
	dailyLimit(deps: PlaceDeps): Promise<number | undefined>;
	/** The standing instructions that go first in every ask here (a thread's parent channel's serve it too). */
	instructions(deps: PlaceDeps, threadParentId: string | undefined): Promise<string | undefined>;
	/**
	 * Who reviews an answer held here; undefined: no one, and nothing is kept. `noticeMessageId` finds the public
	 * notice a release would reply to, asked for only where a release goes to the channel.
	 */
	review(deps: PlaceDeps, ephemeral: boolean, noticeMessageId?: () => Promise<string | undefined>): Promise<Review | undefined>;
	/** Who the notice of an answer held here names as its reviewers. */
	reviewers(deps: PlaceDeps): Reviewers;
	/** Tells the member their answer was held, in the deferral's place. */
	notify(interaction: RepliableInteraction, notice: HeldNotice, deps: PlaceDeps): Promise<void>;
}

/** What the notice of a held answer says, and to whom. */
export interface HeldNotice {
	readonly verdict: HiddenVerdict;
	readonly flagId: string | undefined;
	readonly ephemeral: boolean;
	readonly locale: SupportedLocale;
}

/** A server that installed Veil: its moderators, limits, instructions and mod-log apply. */
class VeilServer implements Place {
	readonly scope: string;

	constructor(
		readonly guildId: string,
		private readonly channelId: string | null,
		/** Members with Manage Server are not limited. */
		private readonly exempt: boolean,
		private readonly guildLocale: string | null,
		/** The member's roles, as the interaction carries them: a role's daily limit replaces the server's. */
		private readonly roleIds: readonly string[] = [],
	) {
		this.scope = guildId;
	}

	async defer(interaction: RepliableInteraction, ephemeral: boolean): Promise<boolean> {
		await interaction.deferReply({ flags: ephemeral ? MessageFlags.Ephemeral : undefined });
		return ephemeral;
	}

	async dailyLimit(deps: PlaceDeps): Promise<number | undefined> {
		if (this.exempt) return undefined;
		try {
			return await deps.settings.asksPerDay(this.guildId, undefined, this.roleIds);
		} catch (error) {
			deps.log.warn({ err: error }, 'could not read the daily limit; asking without it');
			return undefined;
		}
	}

	instructions(deps: PlaceDeps, threadParentId: string | undefined): Promise<string | undefined> {
		return deps.settings.instructions.forAsk(this.guildId, this.channelId, threadParentId);
	}

	/** The server's moderators; a public notice is where a release replies (asked of Discord only for a held answer). */
	async review(_deps: PlaceDeps, ephemeral: boolean, noticeMessageId?: () => Promise<string | undefined>): Promise<Review> {
		return {
			where: { guildId: this.guildId, channelId: this.channelId ?? '' },
			private: ephemeral,
			noticeMessageId: ephemeral ? undefined : await noticeMessageId?.(),
			guildLocale: this.guildLocale,
		};
	}

	reviewers(): Reviewers {
		return 'server';
	}

	notify(interaction: RepliableInteraction, { verdict, flagId, ephemeral, locale }: HeldNotice, deps: PlaceDeps): Promise<void> {
		const review =
			flagId === undefined
				? {}
				: { components: [askReviewRow(this.guildId, flagId, locale).toJSON() as APIActionRowComponent<APIButtonComponentWithCustomId>] };
		return answerInPlace(interaction, { ...hiddenNotice(verdict, flagId, this.reviewers(), locale), ...review }, ephemeral, deps.log);
	}
}

/** Outside Veil's servers: no server moderators, Veil is no member, and answers go only through the interaction. */
class Outside implements Place {
	readonly guildId = null;
	readonly scope = OUTSIDE_SCOPE;

	constructor(private readonly where: OutsideKind) {}

	/** Discord may make the answer ephemeral (a server that turned off external apps): its answer says. */
	async defer(interaction: RepliableInteraction, ephemeral: boolean): Promise<boolean> {
		const response = await interaction.deferReply({ flags: ephemeral ? MessageFlags.Ephemeral : undefined, withResponse: true });
		return ephemeral || response.interaction.responseMessageEphemeral === true;
	}

	async dailyLimit(deps: PlaceDeps): Promise<number | undefined> {
		return deps.config.askUserPerDay;
	}

	async instructions(): Promise<undefined> {
		return undefined;
	}

	/** The operators' server (OPERATOR_GUILD_ID), as from outside servers; a release goes by DM. None without one. */
	async review(deps: PlaceDeps): Promise<Review | undefined> {
		const guildId = deps.config.operatorGuildId;
		if (guildId === undefined) return undefined;
		return { where: { guildId, channelId: OUTSIDE_CHANNEL, outside: this.where }, private: true, noticeMessageId: undefined, guildLocale: null };
	}

	reviewers(deps: PlaceDeps): Reviewers {
		return deps.config.operatorGuildId === undefined ? 'none' : 'operators';
	}

	/** The member's alone, whatever the ask's visibility. */
	notify(interaction: RepliableInteraction, { verdict, flagId, ephemeral, locale }: HeldNotice, deps: PlaceDeps): Promise<void> {
		const { operatorGuildId } = deps.config;
		const review = flagId === undefined || operatorGuildId === undefined ? {} : { components: [askReviewRow(operatorGuildId, flagId, locale)] };
		return answerAlone(interaction, ephemeral, { ...hiddenNotice(verdict, flagId, this.reviewers(deps), locale), ...review });
	}
}

/**
 * Decides where an interaction happens. A server is Veil's when its own install authorized the interaction
 * (`authorizing_integration_owners["0"]` is its id), whether or not the member also installed Veil. Anywhere else
 * (a server that did not install Veil, a DM, a group DM) there are no server moderators.
 */
export function placeOf(
	interaction: Pick<BaseInteraction, 'guildId' | 'channelId' | 'context' | 'authorizingIntegrationOwners' | 'memberPermissions' | 'guildLocale'> &
		Partial<Pick<BaseInteraction, 'member'>>,
): Place {
	const { guildId } = interaction;
	if (guildId === null) return new Outside(interaction.context === InteractionContextType.PrivateChannel ? 'group-dm' : 'dm');
	if (interaction.authorizingIntegrationOwners[ApplicationIntegrationType.GuildInstall] !== guildId) return new Outside('server');
	const exempt = interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false;
	return new VeilServer(guildId, interaction.channelId, exempt, interaction.guildLocale, roleIdsOf(interaction.member));
}

/**
 * Decides where a message talked to Veil: a server's channel (Veil reads messages only in servers it was added to,
 * so the server is Veil's), or a DM. The member's exemption and roles are the router's to find, as for an /ask.
 */
export function messagePlaceOf(where: {
	readonly guildId: string | null;
	readonly channelId: string;
	readonly exempt: boolean;
	readonly roleIds: readonly string[];
}): Place {
	return where.guildId === null ? new Outside('dm') : new VeilServer(where.guildId, where.channelId, where.exempt, null, where.roleIds);
}

/** The member's role ids from the interaction itself (discord.js's member, or Discord's raw one): no request. */
function roleIdsOf(member: BaseInteraction['member'] | undefined): string[] {
	if (!member) return [];
	return Array.isArray(member.roles) ? [...member.roles] : [...(member.roles as { cache: Map<string, unknown> }).cache.keys()];
}

/**
 * A held notice's Ask for a review button (its asker alone may use it, once), for the flag kept in `guildId`: the
 * asking server's, or the operators' for an answer held outside Veil's servers.
 */
export function askReviewRow(guildId: string, flagId: string, locale: SupportedLocale): ActionRowBuilder<ButtonBuilder> {
	return new ActionRowBuilder<ButtonBuilder>().addComponents(
		new ButtonBuilder()
			.setCustomId(customIds.ask.askReview.build(guildId, flagId))
			.setLabel(t(locale, 'cases.buttons.askReview'))
			.setStyle(ButtonStyle.Secondary),
	);
}
