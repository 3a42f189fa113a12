import { ApplicationIntegrationType, InteractionContextType, type BaseInteraction } from 'discord.js';

/** Where an ask was made, as far as moderation goes: a server that installed Veil, or anywhere else. */
export type AskPlace = { readonly kind: 'server'; readonly guildId: string } | { readonly kind: 'outside'; readonly where: OutsideKind };

/** Outside Veil's servers: a DM with Veil, a group DM, or a server that did not install Veil. */
export type OutsideKind = 'dm' | 'group-dm' | 'server';

/** The scope conversations outside Veil's servers are kept under: no server id is ever this. */
export const OUTSIDE_SCOPE = 'outside';

/**
 * Decides, per interaction, whose rules apply. A server is Veil's when its own install of Veil authorized the
 * interaction (`authorizing_integration_owners["0"]` is its id): there the server's moderation, limits and mod-log
 * apply, whether or not the member also installed Veil to their account. Anywhere else (a server that did not
 * install Veil, a DM, a group DM) there are no server moderators, and Veil is not a member: answers go only
 * through the interaction.
 */
export function askPlaceOf(interaction: Pick<BaseInteraction, 'guildId' | 'context' | 'authorizingIntegrationOwners'>): AskPlace {
	const { guildId } = interaction;
	if (guildId !== null) {
		const serverInstall = interaction.authorizingIntegrationOwners[ApplicationIntegrationType.GuildInstall];
		return serverInstall === guildId ? { kind: 'server', guildId } : { kind: 'outside', where: 'server' };
	}
	return { kind: 'outside', where: interaction.context === InteractionContextType.PrivateChannel ? 'group-dm' : 'dm' };
}

/** The key conversations and counts of this place are kept under: the server's id, or {@link OUTSIDE_SCOPE}. */
export function scopeOf(place: AskPlace): string {
	return place.kind === 'server' ? place.guildId : OUTSIDE_SCOPE;
}
