/** What a shard list looks like, for configuration errors. */
const SHARD_LIST_FORMAT = 'shard ids and ranges, like `0-3`, `0,2,5` or `4-7,9`';

/** Past this many shards a list is surely a typo (Discord's largest bots run tens of thousands). */
const MAX_SHARDS = 100_000;

/**
 * Parses `SHARD_IDS` (`0-3`, `0,2,5`, `4-7,9`) into ascending, distinct shard ids; undefined when the text is not
 * such a list (an empty item, a reversed range, anything but digits, commas and dashes).
 */
export function parseShardList(text: string): number[] | undefined {
	const ids = new Set<number>();
	for (const item of text.split(',')) {
		const match = /^\s*(\d{1,6})\s*(?:-\s*(\d{1,6})\s*)?$/.exec(item);
		if (!match) return undefined;
		const first = Number(match[1]);
		const last = match[2] === undefined ? first : Number(match[2]);
		if (last < first || last >= MAX_SHARDS) return undefined;
		for (let id = first; id <= last; id++) ids.add(id);
	}
	return [...ids].sort((a, b) => a - b);
}

/**
 * Parses discord.js's own `SHARDS` (a JSON array of ids, as its ShardingManager hands a child process) into the
 * same form; undefined when it is not one.
 */
export function parseShardArray(text: string): number[] | undefined {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return undefined;
	}
	if (!Array.isArray(value) || value.length === 0) return undefined;
	if (!value.every((id): id is number => Number.isSafeInteger(id) && id >= 0 && id < MAX_SHARDS)) return undefined;
	return [...new Set(value)].sort((a, b) => a - b);
}

/** The shards of this process as configured: none set means Discord's recommendation for one process. */
export interface ShardSettings {
	/** Total shards of the whole deployment; undefined: Discord's recommendation (`GET /gateway/bot`). */
	readonly shardCount: number | undefined;
	/** The shards this process runs; undefined: all of `shardCount`. */
	readonly shardIds: readonly number[] | undefined;
}

const blank = (value: string | undefined): value is undefined => value === undefined || value.trim() === '';

/**
 * Reads `SHARD_COUNT` and `SHARD_IDS` (or discord.js's `SHARDS`, read the same way when `SHARD_IDS` is unset), with
 * an empty value meaning unset. Problems name the variable and what it expects, never echo a value.
 */
export function readShardSettings(env: Record<string, string | undefined>): { settings: ShardSettings; problems: string[] } {
	const problems: string[] = [];
	let shardCount: number | undefined;
	const countText = env.SHARD_COUNT;
	if (!blank(countText)) {
		shardCount = /^\s*\d{1,6}\s*$/.test(countText) ? Number(countText) : Number.NaN;
		if (!(shardCount >= 1 && shardCount <= MAX_SHARDS)) {
			problems.push('SHARD_COUNT: invalid; expected a whole number of shards, 1 or more');
			shardCount = undefined;
		}
	}
	const [name, text, parse, format] = blank(env.SHARD_IDS)
		? (['SHARDS', env.SHARDS, parseShardArray, 'a JSON array of shard ids, like [0,1]'] as const)
		: (['SHARD_IDS', env.SHARD_IDS, parseShardList, SHARD_LIST_FORMAT] as const);
	let shardIds: number[] | undefined;
	if (!blank(text)) {
		shardIds = parse(text);
		if (!shardIds) {
			problems.push(`${name}: invalid; expected ${format}`);
		} else if (blank(countText)) {
			problems.push(`${name}: needs SHARD_COUNT, the total shards of every process together`);
			shardIds = undefined;
		} else if (shardCount !== undefined && shardIds.some((id) => id >= shardCount)) {
			problems.push(`${name}: invalid; expected ids below SHARD_COUNT (${shardCount}), from 0 to ${shardCount - 1}`);
			shardIds = undefined;
		}
	}
	return { settings: { shardCount, shardIds }, problems };
}
