import { PermissionFlagsBits, type PermissionsBitField } from 'discord.js';
import type { PermissionLookup } from '../discord/permissionLookup.js';

type Named = readonly (readonly [bigint, string])[];

/**
 * What a moderator needs in the channel a flag was asked in to read, list or decide it: to see that channel, and
 * to manage its messages. The channel the command is run from does not count: a permission granted in one
 * channel says nothing of another.
 */
const MODERATE_FLAG: Named = [
	[PermissionFlagsBits.ViewChannel, 'View Channel'],
	[PermissionFlagsBits.ManageMessages, 'Manage Messages'],
];

/** What Veil needs in the channel to post a release; replying to the member's notice also reads history. */
export function releaseNeeds(replying: boolean): Named {
	return [
		[PermissionFlagsBits.ViewChannel, 'View Channel'],
		[PermissionFlagsBits.SendMessages, 'Send Messages'],
		...(replying ? ([[PermissionFlagsBits.ReadMessageHistory, 'Read Message History']] as const) : []),
	];
}

/** The names of the permissions in `needs` that `held` lacks, in Discord's words. */
export function missingPermissions(held: Readonly<PermissionsBitField>, needs: Named): string[] {
	return needs.filter(([bit]) => !held.has(bit)).map(([, name]) => name);
}

/** Whether the interaction's member may read and decide a flag asked in `channelId`. */
export async function canModerateIn(lookup: PermissionLookup, channelId: string): Promise<boolean> {
	return missingPermissions(await lookup.memberIn(channelId), MODERATE_FLAG).length === 0;
}

/** Of these channels, the ones where the interaction's member may read and decide flags. */
export async function moderatedChannels(lookup: PermissionLookup, channelIds: readonly string[]): Promise<ReadonlySet<string>> {
	const allowed = await Promise.all(channelIds.map(async (id) => [id, await canModerateIn(lookup, id)] as const));
	return new Set(allowed.filter(([, ok]) => ok).map(([id]) => id));
}
