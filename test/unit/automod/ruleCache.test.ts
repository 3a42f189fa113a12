import { PermissionFlagsBits, PermissionsBitField } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { AutomodRuleCache, type ServerRules } from '../../../src/automod/ruleCache.js';
import { createLogger } from '../../../src/logging/logger.js';

const logger = createLogger('silent');
const MANAGES = new PermissionsBitField(PermissionFlagsBits.ManageGuild | PermissionFlagsBits.SendMessages);
const PLAIN = new PermissionsBitField(PermissionFlagsBits.SendMessages);
const anywhere = { roleIds: [], channelIds: ['c1'] };

/** What a reading found, as the rules' ids (or the keywords), read on the cache's thread. */
async function found(rules: ServerRules | undefined, text: string, by: 'ruleId' | 'trigger' = 'ruleId') {
	const screening = await rules?.screen(text, anywhere);
	return screening?.kind === 'matched' ? screening.matches.map((match) => match[by]) : screening;
}

const keywordRule = (id: string, keyword: string) => ({
	id,
	guild_id: 'g1',
	name: `rule ${id}`,
	event_type: 1,
	trigger_type: 1,
	trigger_metadata: { keyword_filter: [keyword] },
	actions: [{ type: 1 }],
	enabled: true,
	exempt_roles: [],
	exempt_channels: [],
});

/** Discord's REST as the cache sees it: each read answered when the test says, counted. */
function deferredRest() {
	const reads: Array<{ route: string; answer: (rules: unknown) => void; fail: (error: Error) => void }> = [];
	return {
		reads,
		get(route: string) {
			return new Promise((resolve, reject) => reads.push({ route, answer: resolve, fail: reject }));
		},
	};
}

describe('AutomodRuleCache', () => {
	it('reads nothing without Manage Server, nor outside a server', async () => {
		const rest = deferredRest();
		const cache = new AutomodRuleCache(rest, logger);
		expect(await cache.rulesFor('g1', PLAIN)).toBeUndefined();
		expect(await cache.rulesFor(null, MANAGES)).toBeUndefined();
		expect(rest.reads).toHaveLength(0);
	});

	it('shares one read among the asks that wait on it, and reads again only after the refresh', async () => {
		const rest = deferredRest();
		const cache = new AutomodRuleCache(rest, logger, { askWaitMs: 5000 });
		const asks = [cache.rulesFor('g1', MANAGES), cache.rulesFor('g1', MANAGES), cache.rulesFor('g1', MANAGES)];
		await Promise.resolve();
		expect(rest.reads.map((read) => read.route)).toEqual(['/guilds/g1/auto-moderation/rules']);
		rest.reads[0]!.answer([keywordRule('r1', 'badword')]);
		const matchers = await Promise.all(asks);
		for (const matcher of matchers) expect(await found(matcher, 'a badword here')).toEqual(['r1']);
		await cache.rulesFor('g1', MANAGES);
		expect(rest.reads).toHaveLength(1);
	});

	it('goes on without the rules when the read is slow, and uses them once it lands', async () => {
		const rest = deferredRest();
		const cache = new AutomodRuleCache(rest, logger, { askWaitMs: 20 });
		expect(await cache.rulesFor('g1', MANAGES)).toBeUndefined();
		rest.reads[0]!.answer([keywordRule('r1', 'badword')]);
		await new Promise((resolve) => setImmediate(resolve));
		expect((await cache.rulesFor('g1', MANAGES))?.ruleCount).toBe(1);
		expect(rest.reads).toHaveLength(1);
	});

	it('keeps the last rules known when a read fails, and does not read again for a while', async () => {
		const rest = deferredRest();
		const cache = new AutomodRuleCache(rest, logger, { askWaitMs: 1000, refreshMs: 0 });
		const first = cache.rulesFor('g1', MANAGES);
		await Promise.resolve();
		rest.reads[0]!.answer([keywordRule('r1', 'badword')]);
		expect((await first)?.ruleCount).toBe(1);
		const second = cache.rulesFor('g1', MANAGES);
		await Promise.resolve();
		rest.reads[1]!.fail(new Error('503'));
		expect((await second)?.ruleCount).toBe(1);
		expect((await cache.rulesFor('g1', MANAGES))?.ruleCount).toBe(1);
		expect(rest.reads).toHaveLength(2);
	});

	it('follows rule events, including those that arrive while a read is in flight', async () => {
		const rest = deferredRest();
		const cache = new AutomodRuleCache(rest, logger, { askWaitMs: 5000 });
		const first = cache.rulesFor('g1', MANAGES);
		await Promise.resolve();
		// Created after Discord answered the read, delivered before the answer arrived.
		cache.onPacket({ t: 'AUTO_MODERATION_RULE_CREATE', d: keywordRule('r2', 'other') });
		rest.reads[0]!.answer([keywordRule('r1', 'badword')]);
		expect(await found(await first, 'badword other')).toEqual(['r1', 'r2']);
		cache.onPacket({ t: 'AUTO_MODERATION_RULE_UPDATE', d: keywordRule('r1', 'changed') });
		cache.onPacket({ t: 'AUTO_MODERATION_RULE_DELETE', d: keywordRule('r2', 'other') });
		expect(await found(await cache.rulesFor('g1', MANAGES), 'badword other changed', 'trigger')).toEqual(['changed']);
		cache.onPacket({ t: 'AUTO_MODERATION_RULE_CREATE', d: { nonsense: true } });
		expect(rest.reads).toHaveLength(1);
	});

	it('keeps the parent of a thread an interaction came from, once', () => {
		const cache = new AutomodRuleCache(deferredRest(), logger);
		cache.onPacket({ t: 'INTERACTION_CREATE', d: { id: 'i1', channel: { id: 't1', type: 11, parent_id: 'c1' } } });
		cache.onPacket({ t: 'INTERACTION_CREATE', d: { id: 'i2', channel: { id: 'c2', type: 0, parent_id: 'cat' } } });
		expect(cache.threadParentOf('i1')).toBe('c1');
		expect(cache.threadParentOf('i1')).toBeUndefined();
		expect(cache.threadParentOf('i2')).toBeUndefined();
	});

	it('reads every kind of thread, and passes over packets with no channel or an odd one without a word', () => {
		const cache = new AutomodRuleCache(deferredRest(), logger);
		const odd = [undefined, null, 'text', { id: 'i3' }, { id: 'i4', channel: null }, { id: 'i5', channel: { type: '11', parent_id: 'c5' } }];
		for (const d of odd) expect(() => cache.onPacket({ t: 'INTERACTION_CREATE', d })).not.toThrow();
		for (const [n, type] of [10, 11, 12].entries()) {
			cache.onPacket({ t: 'INTERACTION_CREATE', d: { id: `t${n}`, channel: { id: `x${n}`, type, parent_id: `p${n}` } } });
		}
		expect(['i3', 'i4', 'i5'].map((id) => cache.threadParentOf(id))).toEqual([undefined, undefined, undefined]);
		expect(['t0', 't1', 't2'].map((id) => cache.threadParentOf(id))).toEqual(['p0', 'p1', 'p2']);
	});
});
