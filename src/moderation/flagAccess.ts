import { PermissionFlagsBits, type PermissionsBitField } from 'discord.js';
import type { PermissionLookup } from '../discord/permissionLookup.js';
import { MANAGE_MESSAGES, type NamedPermission } from '../discord/permissions.js';
import { sentence, type Sentence } from '../i18n/translate.js';
import { OUTSIDE_CHANNEL } from './storedFlag.js';

type Named = readonly NamedPermission[];

/** The channel permissions Veil and its moderators need, named as Discord's client names them in the reader's language. */
export const VIEW_CHANNEL: NamedPermission = { flag: PermissionFlagsBits.ViewChannel, name: sentence('members.permissions.ViewChannel') };
export const SEND_MESSAGES: NamedPermission = { flag: PermissionFlagsBits.SendMessages, name: sentence('members.permissions.SendMessages') };
export const EMBED_LINKS: NamedPermission = { flag: PermissionFlagsBits.EmbedLinks, name: sentence('members.permissions.EmbedLinks') };
const READ_MESSAGE_HISTORY: NamedPermission = {
	flag: PermissionFlagsBits.ReadMessageHistory,
	name: sentence('members.permissions.ReadMessageHistory'),
};

/**
 * What a moderator needs in the channel a flag was asked in to read, list or decide it: to see that channel, and
 * to manage its messages. The channel the command is run from does not count: a permission granted in one
 * channel says nothing of another.
 */
const MODERATE_FLAG: Named = [VIEW_CHANNEL, MANAGE_MESSAGES];

/** What Veil needs in the channel to post a release; replying to the member's notice also reads history. */
export function releaseNeeds(replying: boolean): Named {
	return [VIEW_CHANNEL, SEND_MESSAGES, ...(replying ? [READ_MESSAGE_HISTORY] : [])];
}

/** The names of the permissions in `needs` that `held` (none: nothing at all) lacks, to be read in Discord's words. */
export function missingPermissions(held: Readonly<PermissionsBitField> | null, needs: Named): Sentence[] {
	return needs.filter(({ flag }) => held?.has(flag) !== true).map(({ name }) => name);
}

/** Whether the interaction's member may read and decide a flag asked in `channelId`. */
export async function canModerateIn(lookup: PermissionLookup, channelId: string): Promise<boolean> {
	return missingPermissions(await lookup.memberIn(channelId), MODERATE_FLAG).length === 0;
}

/**
 * Of these channels, the ones where the interaction's member may read and decide flags. {@link OUTSIDE_CHANNEL}
 * stands for the flags asked outside Veil's servers: they are moderated from `outsideChannel` (the operators'
 * mod-log channel), and by no one when there is none.
 */
export async function moderatedChannels(
	lookup: PermissionLookup,
	channelIds: readonly string[],
	outsideChannel: () => Promise<string | undefined> = () => Promise.resolve(undefined),
): Promise<ReadonlySet<string>> {
	const checked = channelIds.map(async (id) => {
		const channelId = id === OUTSIDE_CHANNEL ? await outsideChannel() : id;
		return [id, channelId !== undefined && (await canModerateIn(lookup, channelId))] as const;
	});
	const allowed = await Promise.all(checked);
	return new Set(allowed.filter(([, ok]) => ok).map(([id]) => id));
}
