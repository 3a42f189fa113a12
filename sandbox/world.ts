import { PermissionFlagsBits as P, type APIUser } from 'discord.js';
import { DEFAULT_BOT_PERMISSIONS, DiscordEmulator, makeUser, PLAIN_MEMBER_PERMISSIONS, type GuildModel } from './discord/emulator.js';

export type PersonKey = 'member' | 'moderator' | 'manager';

/** Someone the page can act as: their own Discord user, with real permissions in the sandbox server. */
export interface Person {
	key: PersonKey;
	label: string;
	/** What the person switcher says they may do. */
	role: string;
	user: APIUser;
	/** Server-wide permissions, sent with every interaction they make there. */
	permissions: bigint;
	/** Their Discord client's language, sent as each interaction's `locale`; the person switcher changes it. */
	locale: string;
}

export interface SandboxChannel {
	key: 'general' | 'staff' | 'mod-log';
	id: string;
	name: string;
	topic: string;
}

/** The sandbox server as the page shows it. */
export interface SandboxWorld {
	guild: GuildModel;
	channels: SandboxChannel[];
	people: Person[];
	person(key: string): Person | undefined;
}

const STAFF_ONLY = P.ViewChannel | P.SendMessages | P.ReadMessageHistory;
const TOPICS: Record<SandboxChannel['key'], string> = {
	general: 'Everyone talks here. Type / to use Veil.',
	staff: 'Moderators and managers only.',
	'mod-log': 'Where Veil reports the answers it held back.',
};

/** Starts the local Discord with the sandbox server: #general, and #staff and #mod-log that only staff see. */
export async function startWorld(port = 0): Promise<{ discord: DiscordEmulator; world: SandboxWorld }> {
	const discord = await DiscordEmulator.start({
		port,
		// @everyone may talk, as in most servers; the people's own roles add the rest.
		defaultGuild: {
			name: 'Veil Sandbox',
			channels: [{ name: 'general' }, { name: 'staff' }, { name: 'mod-log' }],
			everyonePermissions: PLAIN_MEMBER_PERMISSIONS,
			// Enough for Continue in a thread: Veil starts public threads from its answers and speaks in them.
			botPermissions: DEFAULT_BOT_PERMISSIONS | P.CreatePublicThreads | P.SendMessagesInThreads,
		},
		// The page's people wait on Veil as long as a real client would.
		defaultTimeoutMs: 30_000,
	});
	const guild = discord.defaultGuild;
	const staffRole = discord.addRole(guild.id, { name: 'Staff', permissions: 0n });
	const people: Person[] = [
		{ key: 'member', label: 'Mia (member)', role: 'Member', user: makeUser('mia'), permissions: PLAIN_MEMBER_PERMISSIONS, locale: 'en-US' },
		{
			key: 'moderator',
			label: 'Mo (moderator)',
			role: 'Manage Messages',
			user: makeUser('mo'),
			permissions: PLAIN_MEMBER_PERMISSIONS | P.ManageMessages,
			locale: 'en-US',
		},
		{
			key: 'manager',
			label: 'Max (manager)',
			role: 'Manage Server',
			user: makeUser('max'),
			permissions: PLAIN_MEMBER_PERMISSIONS | P.ManageGuild,
			locale: 'en-US',
		},
	];
	for (const person of people) {
		discord.setMemberRoles(guild.id, person.user, person.key === 'member' ? [] : [staffRole.id]);
	}
	const channels = guild.channels.map((c) => ({
		key: c.name as SandboxChannel['key'],
		id: c.id,
		name: c.name,
		topic: TOPICS[c.name as SandboxChannel['key']],
	}));
	for (const channel of channels.filter((c) => c.key !== 'general')) {
		discord.setChannelOverwrites(channel.id, [
			{ id: guild.id, type: 0, allow: 0n, deny: P.ViewChannel },
			{ id: staffRole.id, type: 0, allow: STAFF_ONLY, deny: 0n },
			{ id: guild.botRoleId, type: 0, allow: STAFF_ONLY | P.EmbedLinks, deny: 0n },
		]);
	}
	const world: SandboxWorld = { guild, channels, people, person: (key) => people.find((p) => p.key === key) };
	seedConversation(discord, world);
	return { discord, world };
}

function seedConversation(discord: DiscordEmulator, world: SandboxWorld): void {
	const [member, moderator] = world.people as [Person, Person, Person];
	const general = world.channels[0] as SandboxChannel;
	discord.postAsMember({
		user: moderator.user,
		channelId: general.id,
		content: 'Welcome to the sandbox! Veil answers /ask here; type / below to try it.',
	});
	discord.postAsMember({ user: member.user, channelId: general.id, content: 'What is a good name for a grey cat?' });
}
