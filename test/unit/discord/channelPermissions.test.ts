import fc from 'fast-check';
import { PermissionFlagsBits, PermissionsBitField } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { computeChannelPermissions, type OverwriteFacts, type PermissionFacts } from '../../../src/discord/channelPermissions.js';

const P = PermissionFlagsBits;
const GUILD = '100';
const OWNER = '900';
const MEMBER = '500';
const MODS = '201';
const HELPERS = '202';
const PLAIN = P.ViewChannel | P.SendMessages | P.ReadMessageHistory;

function facts(overrides: Partial<PermissionFacts> = {}): PermissionFacts {
	return {
		guildId: GUILD,
		ownerId: OWNER,
		roles: [
			{ id: GUILD, permissions: PLAIN.toString() },
			{ id: MODS, permissions: P.ManageMessages.toString() },
			{ id: HELPERS, permissions: '0' },
		],
		memberId: MEMBER,
		memberRoleIds: [],
		overwrites: [],
		...overrides,
	};
}

const ow = (id: string, type: 0 | 1, allow: bigint, deny: bigint): OverwriteFacts => ({ id, type, allow: allow.toString(), deny: deny.toString() });
const has = (f: PermissionFacts, bit: bigint) => computeChannelPermissions(f).has(bit);

describe('computeChannelPermissions', () => {
	it('gives the owner and administrators everything, whatever the overwrites say', () => {
		const denied = [ow(GUILD, 0, 0n, P.ViewChannel | P.ManageMessages), ow(MEMBER, 1, 0n, P.ViewChannel)];
		expect(computeChannelPermissions(facts({ memberId: OWNER, overwrites: denied })).bitfield).toBe(PermissionsBitField.All);
		const admin = facts({
			roles: [...facts().roles, { id: '203', permissions: P.Administrator.toString() }],
			memberRoleIds: ['203'],
			overwrites: denied,
		});
		expect(computeChannelPermissions(admin).bitfield).toBe(PermissionsBitField.All);
		// Even where Veil could not read the channel.
		expect(computeChannelPermissions({ ...admin, overwrites: null }).bitfield).toBe(PermissionsBitField.All);
	});

	it('grants Manage Messages only in the channel whose overwrite grants it', () => {
		const here = facts({ overwrites: [ow(MEMBER, 1, P.ManageMessages, 0n)] });
		expect(has(here, P.ManageMessages)).toBe(true);
		expect(has(facts(), P.ManageMessages)).toBe(false);
	});

	it('applies @everyone, then all role overwrites together, then the member overwrite', () => {
		const privateChannel = [ow(GUILD, 0, 0n, P.ViewChannel), ow(MODS, 0, P.ViewChannel, 0n)];
		expect(has(facts({ overwrites: privateChannel }), P.ViewChannel)).toBe(false);
		expect(has(facts({ overwrites: privateChannel, memberRoleIds: [MODS] }), P.ManageMessages)).toBe(true);
		// One role denies, another allows: allow wins, whatever the role order.
		const split = [ow(HELPERS, 0, 0n, P.ViewChannel), ow(MODS, 0, P.ViewChannel, 0n), ow(GUILD, 0, 0n, P.ViewChannel)];
		expect(has(facts({ overwrites: split, memberRoleIds: [HELPERS, MODS] }), P.ViewChannel)).toBe(true);
		// The member's own overwrite has the last word.
		const memberDeny = [...privateChannel, ow(MEMBER, 1, 0n, P.ManageMessages)];
		expect(has(facts({ overwrites: memberDeny, memberRoleIds: [MODS] }), P.ManageMessages)).toBe(false);
	});

	it('leaves nothing without View Channel, and nothing where the channel could not be read', () => {
		const blind = facts({ memberRoleIds: [MODS], overwrites: [ow(GUILD, 0, 0n, P.ViewChannel), ow(MEMBER, 1, P.ManageMessages, 0n)] });
		expect(computeChannelPermissions(blind).bitfield).toBe(0n);
		expect(computeChannelPermissions(facts({ memberRoleIds: [MODS], overwrites: null })).bitfield).toBe(0n);
	});

	it('keeps only View Channel and Read Message History while a member is timed out', () => {
		const now = new Date('2030-01-01T00:00:00Z');
		const timedOut = facts({ memberRoleIds: [MODS], now, timedOutUntil: new Date('2030-01-01T00:10:00Z') });
		expect(computeChannelPermissions(timedOut).bitfield).toBe(P.ViewChannel | P.ReadMessageHistory);
		expect(has({ ...timedOut, timedOutUntil: new Date('2029-12-31T23:00:00Z') }, P.ManageMessages)).toBe(true);
	});
});

// Discord's documented algorithm, written as plainly as its pseudocode, to check the implementation against.
function reference(f: PermissionFacts): bigint {
	const all = PermissionsBitField.All;
	if (f.memberId === f.ownerId) return all;
	let base = BigInt(f.roles.find((role) => role.id === f.guildId)?.permissions ?? '0');
	for (const id of f.memberRoleIds) base |= BigInt(f.roles.find((role) => role.id === id)?.permissions ?? '0');
	if ((base & P.Administrator) === P.Administrator) return all;
	if (f.overwrites === null) return 0n;
	const find = (id: string, type: number) => f.overwrites?.find((o) => o.id === id && o.type === type);
	let permissions = base;
	const everyone = find(f.guildId, 0);
	if (everyone) permissions = (permissions & ~BigInt(everyone.deny)) | BigInt(everyone.allow);
	let allow = 0n;
	let deny = 0n;
	for (const id of f.memberRoleIds) {
		const role = find(id, 0);
		if (role) {
			allow |= BigInt(role.allow);
			deny |= BigInt(role.deny);
		}
	}
	permissions = (permissions & ~deny) | allow;
	const member = find(f.memberId, 1);
	if (member) permissions = (permissions & ~BigInt(member.deny)) | BigInt(member.allow);
	if (f.timedOutUntil && f.timedOutUntil > (f.now ?? new Date())) permissions &= P.ViewChannel | P.ReadMessageHistory;
	return (permissions & P.ViewChannel) === 0n ? 0n : permissions;
}

const BITS = [P.ViewChannel, P.SendMessages, P.ManageMessages, P.ReadMessageHistory, P.EmbedLinks, P.Administrator];
const bits = fc.subarray(BITS).map((list) => list.reduce((sum, bit) => sum | bit, 0n));
const ROLE_IDS = ['201', '202', '203', '204'];
const overwrite = fc.record({
	id: fc.constantFrom(GUILD, ...ROLE_IDS, MEMBER, '501'),
	type: fc.constantFrom(0, 1),
	allow: bits.map(String),
	deny: bits.map(String),
});
const permissionFacts: fc.Arbitrary<PermissionFacts> = fc.record({
	guildId: fc.constant(GUILD),
	ownerId: fc.constantFrom(OWNER, OWNER, OWNER, MEMBER),
	roles: fc.tuple(...[GUILD, ...ROLE_IDS].map((id) => bits.map((b) => ({ id, permissions: b.toString() })))),
	memberId: fc.constant(MEMBER),
	memberRoleIds: fc.subarray(ROLE_IDS),
	// Discord keeps one overwrite per id and type.
	overwrites: fc.option(fc.uniqueArray(overwrite, { selector: (o) => `${o.id}:${o.type}`, maxLength: 6 }), { nil: null }),
	timedOutUntil: fc.option(fc.constantFrom(new Date('2029-01-01T00:00:00Z'), new Date('2031-01-01T00:00:00Z')), { nil: null }),
	now: fc.constant(new Date('2030-01-01T00:00:00Z')),
});

describe('computeChannelPermissions (properties)', () => {
	it("agrees with Discord's documented algorithm", () => {
		fc.assert(fc.property(permissionFacts, (f) => computeChannelPermissions(f).bitfield === reference(f)));
	});

	it('does not depend on the order of the overwrites or of the roles', () => {
		fc.assert(
			fc.property(permissionFacts, fc.nat(), (f, seed) => {
				const rotate = <T>(list: readonly T[]) => list.map((_, i) => list[(i + seed) % list.length] as T);
				const shuffled = { ...f, roles: rotate(f.roles), memberRoleIds: rotate(f.memberRoleIds), overwrites: f.overwrites && rotate(f.overwrites) };
				return computeChannelPermissions(shuffled).bitfield === computeChannelPermissions(f).bitfield;
			}),
		);
	});

	it("lets the member's own overwrite decide any bit it names, once they can view the channel", () => {
		fc.assert(
			fc.property(permissionFacts, fc.constantFrom(P.SendMessages, P.ManageMessages, P.EmbedLinks), fc.boolean(), (f, bit, allow) => {
				fc.pre(f.ownerId !== f.memberId && f.overwrites !== null && !f.timedOutUntil);
				const others = (f.overwrites ?? []).filter((o) => !(o.type === 1 && o.id === MEMBER));
				const own = ow(MEMBER, 1, P.ViewChannel | (allow ? bit : 0n), allow ? 0n : bit);
				const result = computeChannelPermissions({ ...f, overwrites: [...others, own] });
				const admin = result.bitfield === PermissionsBitField.All;
				return admin || result.has(bit, false) === allow;
			}),
		);
	});

	it('never grants anything in a channel it cannot view, except to the owner and administrators', () => {
		fc.assert(
			fc.property(permissionFacts, (f) => {
				const result = computeChannelPermissions(f);
				return result.bitfield === PermissionsBitField.All || result.bitfield === 0n || result.has(P.ViewChannel, false);
			}),
		);
	});
});
