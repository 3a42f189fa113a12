import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { problemsOf, VALID_ENV } from '../../support/configFixture.js';
import { parseConfig, parseRestProxyConfig } from '../../../src/config/config.js';
import { parseShardArray, parseShardList } from '../../../src/config/shardIds.js';

const valid = VALID_ENV;

describe('parseShardList', () => {
	it('reads ranges, single ids and both together, ascending and without repeats', () => {
		expect(parseShardList('0-3')).toEqual([0, 1, 2, 3]);
		expect(parseShardList('0,2,5')).toEqual([0, 2, 5]);
		expect(parseShardList('4-7,9')).toEqual([4, 5, 6, 7, 9]);
		expect(parseShardList(' 9, 4 - 5 ,4')).toEqual([4, 5, 9]);
		expect(parseShardList('3-3')).toEqual([3]);
	});

	it('refuses anything else', () => {
		for (const bad of ['', ',', '1,', '3-1', '-1', '1-', 'a', '1.5', '0-3;4', '[0,1]', '1 2', '0-999999']) {
			expect(parseShardList(bad), bad).toBeUndefined();
		}
	});

	it('gives back exactly the ids of any list written as ranges and single ids', () => {
		const item = fc.oneof(
			fc.nat(200).map((id) => ({ text: String(id), ids: [id] })),
			fc.tuple(fc.nat(200), fc.nat(20)).map(([first, length]) => ({
				text: `${first}-${first + length}`,
				ids: Array.from({ length: length + 1 }, (_, i) => first + i),
			})),
		);
		fc.assert(
			fc.property(fc.array(item, { minLength: 1, maxLength: 8 }), (items) => {
				const expected = [...new Set(items.flatMap((i) => i.ids))].sort((a, b) => a - b);
				expect(parseShardList(items.map((i) => i.text).join(','))).toEqual(expected);
			}),
		);
	});

	it("reads discord.js's SHARDS, a JSON array", () => {
		expect(parseShardArray('[2,0,2]')).toEqual([0, 2]);
		for (const bad of ['', '[]', '0-3', '[-1]', '[1.5]', '{"0":1}', '["1"]']) expect(parseShardArray(bad), bad).toBeUndefined();
	});
});

describe('shard settings', () => {
	it('leave the count to Discord and run every shard when unset or empty (a copied .env.example)', () => {
		for (const env of [valid, { ...valid, SHARD_COUNT: '', SHARD_IDS: '', SHARDS: '' }]) {
			expect(parseConfig(env)).toMatchObject({ shardCount: undefined, shardIds: undefined });
		}
	});

	it('read a count alone as every shard of it, and a slice of it', () => {
		expect(parseConfig({ ...valid, SHARD_COUNT: '4' })).toMatchObject({ shardCount: 4, shardIds: undefined });
		expect(parseConfig({ ...valid, SHARD_COUNT: '4', SHARD_IDS: '2-3' })).toMatchObject({ shardCount: 4, shardIds: [2, 3] });
		expect(parseConfig({ ...valid, SHARD_COUNT: '8', SHARDS: '[5,4]' })).toMatchObject({ shardCount: 8, shardIds: [4, 5] });
	});

	it('refuse ids without a count, ids outside the count, malformed lists and counts, each named', () => {
		expect(problemsOf({ ...valid, SHARD_IDS: '0-1' })).toEqual([expect.stringMatching(/^SHARD_IDS: needs SHARD_COUNT/)]);
		expect(problemsOf({ ...valid, SHARD_COUNT: '4', SHARD_IDS: '3-4' })).toEqual([
			expect.stringMatching(/^SHARD_IDS: invalid; expected ids below SHARD_COUNT/),
		]);
		expect(problemsOf({ ...valid, SHARD_COUNT: '4', SHARD_IDS: '0-' })).toEqual([
			expect.stringMatching(/^SHARD_IDS: invalid; expected shard ids and ranges/),
		]);
		expect(problemsOf({ ...valid, SHARD_COUNT: '4', SHARDS: '0-1' })).toEqual([expect.stringMatching(/^SHARDS: invalid; expected a JSON array/)]);
		for (const bad of ['0', 'four', '-2', '1.5']) {
			expect(problemsOf({ ...valid, SHARD_COUNT: bad }), bad).toEqual([expect.stringMatching(/^SHARD_COUNT: invalid; expected a whole number/)]);
		}
	});

	it('report shard problems together with every other one', () => {
		const problems = problemsOf({ ...valid, DISCORD_TOKEN: '', SHARD_IDS: 'x' });
		expect(problems.map((p) => p.split(':')[0])).toEqual(['DISCORD_TOKEN', 'SHARD_IDS']);
	});
});

describe('operator settings', () => {
	it('keep the endpoint off by default, on loopback alone once a port is set unless METRICS_HOST says otherwise', () => {
		expect(parseConfig({ ...valid, METRICS_PORT: '' })).toMatchObject({ metricsPort: undefined, metricsHost: '127.0.0.1' });
		expect(parseConfig({ ...valid, METRICS_PORT: '9464' })).toMatchObject({ metricsPort: 9464, metricsHost: '127.0.0.1' });
		expect(parseConfig({ ...valid, METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' })).toMatchObject({ metricsPort: 9464, metricsHost: '0.0.0.0' });
		expect(problemsOf({ ...valid, METRICS_PORT: '70000' })).toEqual([expect.stringMatching(/^METRICS_PORT: invalid; expected a TCP port/)]);
	});
});

describe('parseRestProxyConfig', () => {
	it('needs the token alone, and listens on 127.0.0.1:8080 without a secret by default', () => {
		expect(parseRestProxyConfig({ DISCORD_TOKEN: 't', REST_PROXY_PORT: '' })).toEqual({
			discordToken: 't',
			discordApiUrl: 'https://discord.com/api',
			restProxyPort: 8080,
			restProxyHost: '127.0.0.1',
			restProxySecret: undefined,
			logLevel: 'info',
		});
		expect(parseRestProxyConfig({ DISCORD_TOKEN: 't', REST_PROXY_PORT: '9000', DISCORD_API_URL: 'http://127.0.0.1:1/api/' })).toMatchObject({
			restProxyPort: 9000,
			discordApiUrl: 'http://127.0.0.1:1/api',
		});
	});

	it('names a missing token and a bad port together', () => {
		const problems = problemsOf({ REST_PROXY_PORT: 'eighty' }, parseRestProxyConfig);
		expect(problems.map((p) => p.split(':')[0])).toEqual(['DISCORD_TOKEN', 'REST_PROXY_PORT']);
	});

	it('needs REST_PROXY_SECRET, of at least 32 characters, to listen off loopback', () => {
		const secret = 's'.repeat(32);
		expect(problemsOf({ DISCORD_TOKEN: 't', REST_PROXY_HOST: '0.0.0.0' }, parseRestProxyConfig)).toEqual([
			expect.stringMatching(/^REST_PROXY_SECRET: missing; expected a shared secret whenever REST_PROXY_HOST is not a loopback/),
		]);
		expect(parseRestProxyConfig({ DISCORD_TOKEN: 't', REST_PROXY_HOST: '0.0.0.0', REST_PROXY_SECRET: secret })).toMatchObject({
			restProxyHost: '0.0.0.0',
			restProxySecret: secret,
		});
		for (const loopback of ['127.0.0.1', '::1', 'localhost']) {
			expect(parseRestProxyConfig({ DISCORD_TOKEN: 't', REST_PROXY_HOST: loopback })).toMatchObject({
				restProxyHost: loopback,
				restProxySecret: undefined,
			});
		}
		expect(problemsOf({ DISCORD_TOKEN: 't', REST_PROXY_SECRET: 'short' }, parseRestProxyConfig)).toEqual([
			expect.stringMatching(/^REST_PROXY_SECRET: invalid; expected at least 32 characters/),
		]);
	});

	it("give the bot the proxy's secret to send, and none by default", () => {
		expect(parseConfig(valid)).toMatchObject({ restProxySecret: undefined });
		expect(parseConfig({ ...valid, REST_PROXY_SECRET: 'k'.repeat(44) })).toMatchObject({ restProxySecret: 'k'.repeat(44) });
	});
});
