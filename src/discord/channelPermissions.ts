import { PermissionFlagsBits, PermissionsBitField } from 'discord.js';

/** A role as the guild's REST answer lists it; the @everyone role's id is the guild's. */
export interface RoleFacts {
	readonly id: string;
	readonly permissions: string;
}

/** A channel permission overwrite: type 0 for a role, 1 for a member. */
export interface OverwriteFacts {
	readonly id: string;
	readonly type: number;
	readonly allow: string;
	readonly deny: string;
}

/** Everything a member's permissions in one channel depend on. */
export interface PermissionFacts {
	readonly guildId: string;
	readonly ownerId: string;
	/** Every role of the guild (the member's are picked by id). */
	readonly roles: readonly RoleFacts[];
	readonly memberId: string;
	/** The member's role ids, without @everyone. */
	readonly memberRoleIds: readonly string[];
	/** Until when the member is timed out, if they are. */
	readonly timedOutUntil?: Date | null;
	/**
	 * The channel's overwrites; null when Veil could not read the channel (gone, or hidden from Veil): then nobody
	 * but the owner and administrators, whose rights no overwrite can narrow, is known to have any permission there.
	 */
	readonly overwrites: readonly OverwriteFacts[] | null;
	readonly now?: Date;
}

const NONE = new PermissionsBitField().freeze();
const ALL = new PermissionsBitField(PermissionsBitField.All).freeze();
const WHILE_TIMED_OUT = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ReadMessageHistory;

/**
 * A member's permissions in a channel, computed the way Discord documents it: the owner has all; the @everyone
 * role's bits and the member's roles' bits together, where Administrator gives all; then the channel's @everyone overwrite, the member's role overwrites (every deny, then
 * every allow), and the member's own overwrite. A timed-out member keeps only View Channel and Read Message History,
 * and without View Channel no other permission in the channel counts.
 */
export function computeChannelPermissions(facts: PermissionFacts): Readonly<PermissionsBitField> {
	if (facts.memberId === facts.ownerId) return ALL;
	const held = new Set(facts.memberRoleIds);
	let bits = 0n;
	for (const role of facts.roles) {
		if (role.id === facts.guildId || held.has(role.id)) bits |= BigInt(role.permissions);
	}
	if ((bits & PermissionFlagsBits.Administrator) !== 0n) return ALL;
	if (!facts.overwrites) return NONE;

	let roleDeny = 0n;
	let roleAllow = 0n;
	let everyone: OverwriteFacts | undefined;
	let member: OverwriteFacts | undefined;
	for (const overwrite of facts.overwrites) {
		if (overwrite.type === 0 && overwrite.id === facts.guildId) everyone = overwrite;
		else if (overwrite.type === 0 && held.has(overwrite.id)) {
			roleDeny |= BigInt(overwrite.deny);
			roleAllow |= BigInt(overwrite.allow);
		} else if (overwrite.type === 1 && overwrite.id === facts.memberId) member = overwrite;
	}
	if (everyone) bits = (bits & ~BigInt(everyone.deny)) | BigInt(everyone.allow);
	bits = (bits & ~roleDeny) | roleAllow;
	if (member) bits = (bits & ~BigInt(member.deny)) | BigInt(member.allow);

	const now = facts.now ?? new Date();
	if (facts.timedOutUntil && facts.timedOutUntil.getTime() > now.getTime()) bits &= WHILE_TIMED_OUT;
	if ((bits & PermissionFlagsBits.ViewChannel) === 0n) return NONE;
	return new PermissionsBitField(bits).freeze();
}
