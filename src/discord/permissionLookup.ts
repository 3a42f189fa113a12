import { Routes, type PermissionsBitField, type REST, type RepliableInteraction } from 'discord.js';
import { z } from 'zod';
import { computeChannelPermissions, type OverwriteFacts, type RoleFacts } from './channelPermissions.js';

const guildSchema = z.object({
	owner_id: z.string(),
	roles: z.array(z.object({ id: z.string(), permissions: z.string() })),
});
const memberSchema = z.object({
	roles: z.array(z.string()),
	communication_disabled_until: z.string().nullish(),
});
const channelsSchema = z.array(
	z.object({
		id: z.string(),
		permission_overwrites: z.array(z.object({ id: z.string(), type: z.number(), allow: z.string(), deny: z.string() })).optional(),
	}),
);

export interface GuildFacts {
	readonly ownerId: string;
	readonly roles: readonly RoleFacts[];
}

export interface MemberFacts {
	readonly roleIds: readonly string[];
	readonly timedOutUntil: Date | null;
}

/** Every channel's overwrites, by channel id. */
export type Overwrites = ReadonlyMap<string, readonly OverwriteFacts[]>;

/** Where a {@link PermissionLookup} reads a server's facts from. */
export interface FactSource {
	guild(): Promise<GuildFacts>;
	/**
	 * Every channel's overwrites in one call. Discord leaves out the channels Veil cannot view: their overwrites
	 * stay unknown, and only the owner and administrators count as able to act there.
	 */
	overwrites(): Promise<Overwrites>;
	member(userId: string): Promise<MemberFacts>;
}

/** A server's facts read over REST, each call a request (ServerFacts keeps them between messages). */
export function readFacts(rest: REST, guildId: string): FactSource {
	const get = async <T>(route: `/${string}`, schema: z.ZodType<T>, what: string): Promise<T> => {
		const parsed = schema.safeParse(await rest.get(route));
		if (!parsed.success) throw new Error(`Discord sent a ${what} Veil could not read`);
		return parsed.data;
	};
	return {
		guild: () => get(Routes.guild(guildId), guildSchema, 'guild').then((guild) => ({ ownerId: guild.owner_id, roles: guild.roles })),
		overwrites: () =>
			get(Routes.guildChannels(guildId), channelsSchema, 'channel list').then(
				(channels) => new Map(channels.map((channel) => [channel.id, channel.permission_overwrites ?? []])),
			),
		member: (userId) => get(Routes.guildMember(guildId, userId), memberSchema, 'member').then(toMemberFacts),
	};
}

/**
 * The member facts an interaction carries, when discord.js hands over the raw payload (it does when the server is
 * not in its cache); a cached GuildMember holds its role ids privately, so that case reads the member over REST.
 */
export function memberFactsFromPayload(member: unknown): MemberFacts | undefined {
	const parsed = memberSchema.safeParse(member);
	return parsed.success ? toMemberFacts(parsed.data) : undefined;
}

function toMemberFacts(member: z.infer<typeof memberSchema>): MemberFacts {
	const until = member.communication_disabled_until;
	return { roleIds: member.roles, timedOutUntil: until ? new Date(until) : null };
}

/** What Discord itself said about the channel an interaction came from: authoritative there, and only there. */
interface KnownChannelPermissions {
	readonly channelId: string;
	readonly member: Readonly<PermissionsBitField> | null;
	readonly bot: Readonly<PermissionsBitField> | null;
}

/**
 * Permissions in any channel of one server, for the member behind an interaction and for Veil itself.
 * `interaction.memberPermissions` only speaks for the channel the interaction came from; this computes them for
 * another channel from the server's roles and that channel's overwrites, read over REST and never from
 * discord.js's caches (which may be turned off). Each fact is fetched once, at first need: make one per interaction.
 */
export class PermissionLookup {
	readonly #source: FactSource;
	readonly #guildId: string;
	readonly #userId: string;
	readonly #botId: string;
	#guild: Promise<GuildFacts> | undefined;
	#channels: Promise<Overwrites> | undefined;
	readonly #members = new Map<string, Promise<MemberFacts>>();
	readonly #known: KnownChannelPermissions | undefined;

	constructor(options: {
		rest: REST;
		guildId: string;
		userId: string;
		botId: string;
		member?: MemberFacts;
		known?: KnownChannelPermissions;
		/** Where the server's facts come from when not straight from REST (ServerFacts). */
		source?: FactSource;
	}) {
		this.#source = options.source ?? readFacts(options.rest, options.guildId);
		this.#guildId = options.guildId;
		this.#userId = options.userId;
		this.#botId = options.botId;
		this.#known = options.known;
		if (options.member) this.#members.set(options.userId, Promise.resolve(options.member));
	}

	/** For the member who sent `interaction`, in its server; their roles come from the payload when it has them. */
	static forInteraction(interaction: RepliableInteraction, guildId: string): PermissionLookup {
		return new PermissionLookup({
			rest: interaction.client.rest,
			guildId,
			userId: interaction.user.id,
			botId: interaction.client.user.id,
			member: memberFactsFromPayload(interaction.member),
			known: interaction.channelId
				? { channelId: interaction.channelId, member: interaction.memberPermissions, bot: interaction.appPermissions }
				: undefined,
		});
	}

	/**
	 * The interaction's member's permissions in `channelId`. In the interaction's own channel, Discord's word;
	 * it also covers a channel hidden from Veil, whose overwrites Veil cannot read.
	 */
	memberIn(channelId: string): Promise<Readonly<PermissionsBitField>> {
		const known = this.#known?.channelId === channelId ? this.#known.member : null;
		return known ? Promise.resolve(known) : this.#permissions(this.#userId, channelId);
	}

	/** Veil's own permissions in `channelId`. */
	botIn(channelId: string): Promise<Readonly<PermissionsBitField>> {
		const known = this.#known?.channelId === channelId ? this.#known.bot : null;
		return known ? Promise.resolve(known) : this.#permissions(this.#botId, channelId);
	}

	async #permissions(userId: string, channelId: string): Promise<Readonly<PermissionsBitField>> {
		// Each fact read once per lookup, whichever permission asks first.
		this.#guild ??= this.#source.guild();
		this.#channels ??= this.#source.overwrites();
		let member = this.#members.get(userId);
		if (!member) {
			member = this.#source.member(userId);
			this.#members.set(userId, member);
		}
		const [guild, facts, channels] = await Promise.all([this.#guild, member, this.#channels]);
		return computeChannelPermissions({
			guildId: this.#guildId,
			ownerId: guild.ownerId,
			roles: guild.roles,
			memberId: userId,
			memberRoleIds: facts.roleIds,
			timedOutUntil: facts.timedOutUntil,
			overwrites: channels.get(channelId) ?? null,
		});
	}
}
