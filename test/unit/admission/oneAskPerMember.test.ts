import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OneAskPerMember } from '../../../src/admission/oneAskPerMember.js';

describe('OneAskPerMember', () => {
	it('refuses a second ask of the same member until the first is released; others are not affected', () => {
		const asks = new OneAskPerMember();
		const release = asks.tryHold('alice');
		expect(release).toBeTypeOf('function');
		expect(asks.tryHold('alice')).toBeUndefined();
		const bob = asks.tryHold('bob');
		expect(bob).toBeTypeOf('function');
		release?.();
		expect(asks.tryHold('alice')).toBeTypeOf('function');
	});

	it('a stale release (called twice) does not free a later ask of the same member', () => {
		const asks = new OneAskPerMember();
		const first = asks.tryHold('alice');
		first?.();
		const second = asks.tryHold('alice');
		first?.();
		expect(asks.tryHold('alice')).toBeUndefined();
		second?.();
		expect(asks.size).toBe(0);
	});

	it('property: a member holds at most one ask, and releasing everything leaves nothing behind', () => {
		fc.assert(
			fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.boolean(), fc.nat()), { maxLength: 100 }), (steps) => {
				const asks = new OneAskPerMember();
				const releases: Array<[string, () => void]> = [];
				for (const [member, hold, pick] of steps) {
					if (hold) {
						const holds = releases.some(([m]) => m === member);
						const release = asks.tryHold(member);
						expect(release === undefined).toBe(holds);
						if (release) releases.push([member, release]);
					} else if (releases.length > 0) {
						const [, release] = releases.splice(pick % releases.length, 1)[0] as [string, () => void];
						release();
						release();
					}
					expect(asks.size).toBe(releases.length);
				}
				for (const [, release] of releases) release();
				expect(asks.size).toBe(0);
			}),
		);
	});
});
