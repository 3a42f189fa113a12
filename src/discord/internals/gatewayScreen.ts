import { Events, GatewayDispatchEvents as E, type Client } from 'discord.js';

/**
 * Reaches past discord.js's public API; checked against discord.js 14.28.1 (its WebSocketManager): it relies on
 * discord.js emitting each gateway dispatch as `Events.Raw`, the packet object itself, before its handler (chosen by
 * `packet.t`) reads it. test/unit/discord/internals/gatewayScreen.test.ts fails when that changes.
 *
 * The Guilds, Guild Messages and Direct Messages intents bring every server's channels and every message of every
 * server Veil is in (without content). discord.js would build a Guild, channels, a Message and its author for each,
 * most of them to be dropped at once: at 2,500 servers a stream that costs more than everything Veil does. The
 * packet is already parsed when discord.js first shows it (@discordjs/ws parses every frame), so this is the earliest
 * point: here Veil reads what it needs of the raw packet and renames it, so no handler of discord.js runs for it.
 */
const READ_RAW: ReadonlySet<string> = new Set<string>([
	E.MessageCreate,
	E.MessageUpdate,
	E.MessageDelete,
	E.MessageDeleteBulk,
	E.ChannelPinsUpdate,
	E.GuildCreate,
	E.GuildUpdate,
	E.GuildDelete,
	E.GuildRoleCreate,
	E.GuildRoleUpdate,
	E.GuildRoleDelete,
	E.GuildEmojisUpdate,
	E.GuildStickersUpdate,
	E.GuildSoundboardSoundCreate,
	E.GuildSoundboardSoundUpdate,
	E.GuildSoundboardSoundDelete,
	E.GuildSoundboardSoundsUpdate,
	E.ChannelCreate,
	E.ChannelUpdate,
	E.ChannelDelete,
	E.ThreadCreate,
	E.ThreadUpdate,
	E.ThreadDelete,
	E.ThreadListSync,
	E.ThreadMemberUpdate,
	E.ThreadMembersUpdate,
	E.StageInstanceCreate,
	E.StageInstanceUpdate,
	E.StageInstanceDelete,
]);

/** What a renamed packet is called: discord.js has no handler for it. */
export const SCREENED = 'VEIL_SCREENED';

/** A gateway dispatch as discord.js emits it raw. */
export interface RawPacket {
	t?: string | null;
	d?: unknown;
}

/** Whoever reads the screened packets: each gets the packet's own `d`, never a copy, and must not keep it. */
export type ScreenedPacketReader = (t: string, d: unknown, shardId: number) => void;

/**
 * Takes the dispatches of READ_RAW from discord.js: `read` sees each one as it came, then discord.js sees a packet
 * it has no handler for. Register it after every other raw listener that reads these events (none does today).
 */
export function screenGatewayPackets(client: Client, read: ScreenedPacketReader): void {
	client.on(Events.Raw, (packet: RawPacket, shardId: number) => {
		const { t } = packet;
		if (typeof t !== 'string' || !READ_RAW.has(t)) return;
		packet.t = SCREENED;
		read(t, packet.d, shardId);
	});
}
