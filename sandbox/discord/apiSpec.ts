import type * as z from 'zod/mini';
import { namedSchema, pathsList, specOperations, type Operation, type Schema } from './apiSpecSchemas.js';

/**
 * Holds the local Discord to Discord's published API (its OpenAPI description, from the discord-api-spec package):
 * every request the bot sends must name a route and method Discord has, use its query names, and give every field
 * the description defines a value it accepts. Fields it does not define (discord.js adds `tts`, `enforce_nonce`) are
 * listed, not refused. The payloads the emulator sends the bot are held to it too, where it describes them.
 */

/** Something the description refuses: a request of the bot, or a payload of the emulator. */
export interface ApiViolation {
	/** `POST /channels/{channel_id}/messages`, or `dispatch GUILD_CREATE`. */
	readonly where: string;
	readonly problems: readonly string[];
}

export interface RequestVerdict {
	/** The description's route, when there is one for this method and path. */
	readonly route: string | undefined;
	readonly problems: string[];
	/** Dotted paths of the fields the description does not define, e.g. `tts`, `embeds[].kind`. */
	readonly undefinedFields: string[];
}

/**
 * Permission bit sets travel as strings, as Discord documents them, though the description types them as numbers in
 * requests. This is the one difference allowed, by field name.
 */
const PERMISSION_FIELDS = new Set(['permissions', 'default_member_permissions', 'allow', 'deny']);

/** The description's route for a method and a concrete path (`/webhooks/1/tok/messages/@original`); literal segments win. */
export function specRoute(method: string, path: string): string | undefined {
	const routes = pathsList[method.toLowerCase()];
	const segments = path.split('/').filter(Boolean);
	let best: { route: string; literals: number } | undefined;
	for (const route of routes ?? []) {
		const pattern = route.split('/').filter(Boolean);
		if (pattern.length !== segments.length) continue;
		let literals = 0;
		const fits = pattern.every((part, i) => {
			if (part.startsWith('{') && part.endsWith('}')) return (segments[i] ?? '') !== '';
			literals += 1;
			return part === segments[i];
		});
		if (fits && (!best || literals > best.literals)) best = { route, literals };
	}
	return best?.route;
}

/** Checks one request of the bot: `path` without `/api/v10`, `body` as parsed (multipart's `payload_json`). */
export function checkRequest(method: string, path: string, query: URLSearchParams, body: unknown): RequestVerdict {
	const route = specRoute(method, path);
	const operation = route ? specOperations().get(`${method.toUpperCase()} ${route}`) : undefined;
	if (!route || !operation) return { route, problems: [`${method} ${path} is not a route of Discord's API`], undefinedFields: [] };
	const problems = checkQuery(operation, query);
	const undefinedFields: string[] = [];
	if (body !== undefined) {
		if (!operation.body) {
			undefinedFields.push(...Object.keys(typeof body === 'object' && body !== null ? body : { '(body)': body }));
		} else {
			const verdict = checkValue(operation.body, permissionsAsNumbers(body));
			problems.push(...verdict.problems);
			undefinedFields.push(...verdict.undefinedFields);
		}
	}
	return { route, problems, undefinedFields };
}

function checkQuery(operation: Operation, query: URLSearchParams): string[] {
	const problems: string[] = [];
	for (const [name, raw] of query) {
		const schema = operation.query.get(name);
		if (!schema) {
			problems.push(`query ${name}: not a query parameter of ${operation.route}`);
			continue;
		}
		// Query values are text on the wire; the description types them as they read (a number, a boolean).
		const candidates: unknown[] = [raw];
		try {
			candidates.push(JSON.parse(raw));
		} catch {
			// Not JSON: only the text itself can fit.
		}
		if (!candidates.some((value) => schema.safeParse(value).success))
			problems.push(`query ${name}: ${JSON.stringify(raw)} is not a value Discord accepts`);
	}
	return problems;
}

/** Checks a value against a named schema of the description, e.g. `GuildMemberResponse`. */
export function checkNamed(name: string, value: unknown): { problems: string[]; undefinedFields: string[] } {
	return checkValue(namedSchema(name), value);
}

function checkValue(schema: Schema, value: unknown): { problems: string[]; undefinedFields: string[] } {
	const result = schema.safeParse(value);
	if (!result.success) return { problems: describeIssues(result.error.issues), undefinedFields: [] };
	// The description's objects drop the fields they do not define; what was dropped is what it does not define.
	return { problems: [], undefinedFields: droppedFields(value, result.data) };
}

function describeIssues(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[] = []): string[] {
	return issues.flatMap((issue) => {
		const path = [...prefix, ...issue.path];
		if (issue.code === 'invalid_union' && issue.errors.length > 0) {
			// The option it came closest to fitting says most.
			const closest = issue.errors.reduce((best, option) => (option.length < best.length ? option : best));
			if (closest.length > 0) return describeIssues(closest, path);
		}
		return [`${path.map(String).join('.') || '(body)'}: ${issue.message}`];
	});
}

function droppedFields(input: unknown, output: unknown, prefix = ''): string[] {
	if (Array.isArray(input) && Array.isArray(output)) {
		return input.flatMap((item, i) => droppedFields(item, output[i], `${prefix}[]`));
	}
	if (!isRecord(input) || !isRecord(output)) return [];
	return Object.keys(input).flatMap((key) => {
		const at = `${prefix}${prefix ? '.' : ''}${key}`;
		if (!(key in output)) return input[key] === undefined ? [] : [at];
		return droppedFields(input[key], output[key], at);
	});
}

function permissionsAsNumbers(value: unknown, key = ''): unknown {
	if (Array.isArray(value)) return value.map((item) => permissionsAsNumbers(item));
	if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, permissionsAsNumbers(item, name)]));
	if (PERMISSION_FIELDS.has(key) && typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
	return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Which parts of a gateway dispatch the description describes, by its schema names. */
const DISPATCH_PARTS: Record<string, ReadonlyArray<readonly [part: string, schema: string]>> = {
	READY: [['user', 'UserPIIResponse']],
	GUILD_CREATE: [
		['', 'GuildResponse'],
		['members[]', 'GuildMemberResponse'],
		['channels[]', 'GuildChannelResponse'],
	],
	GUILD_ROLE_CREATE: [['role', 'GuildRoleResponse']],
	GUILD_ROLE_UPDATE: [['role', 'GuildRoleResponse']],
	INTERACTION_CREATE: [
		['member', 'GuildMemberResponse'],
		['user', 'UserResponse'],
		['message', 'MessageResponse'],
	],
	MESSAGE_CREATE: [['', 'MessageResponse']],
	MESSAGE_UPDATE: [['', 'MessageResponse']],
	CHANNEL_CREATE: [['', 'GuildChannelResponse']],
	CHANNEL_UPDATE: [['', 'GuildChannelResponse']],
};

/**
 * GUILD_CREATE's "extra fields", which Discord's gateway documentation adds to the guild object (Gateway Events →
 * Guild Create): the gateway's own, not fields the description fails to define.
 */
const GUILD_CREATE_EXTRA_FIELDS: ReadonlySet<string> = new Set([
	'joined_at',
	'large',
	'unavailable',
	'member_count',
	'voice_states',
	'members',
	'channels',
	'threads',
	'presences',
	'stage_instances',
	'guild_scheduled_events',
	'soundboard_sounds',
]);

/**
 * MESSAGE_CREATE's "extra fields" (Gateway Events → Message Create): in a server, the author's partial `member`, which
 * the description's message object does not define.
 */
const MESSAGE_CREATE_EXTRA_FIELDS: ReadonlySet<string> = new Set(['member']);

/** Checks the parts of a dispatch the description covers; the rest of the dispatch is the gateway's own. */
export function checkDispatch(t: string, d: unknown): { problems: string[]; undefinedFields: string[] } {
	const verdict = checkDispatchParts(t, d);
	const extra = t === 'GUILD_CREATE' ? GUILD_CREATE_EXTRA_FIELDS : t === 'MESSAGE_CREATE' ? MESSAGE_CREATE_EXTRA_FIELDS : undefined;
	if (!extra) return verdict;
	return { ...verdict, undefinedFields: verdict.undefinedFields.filter((field) => !extra.has(field)) };
}

function checkDispatchParts(t: string, d: unknown): { problems: string[]; undefinedFields: string[] } {
	const problems: string[] = [];
	const undefinedFields: string[] = [];
	for (const [part, schema] of DISPATCH_PARTS[t] ?? []) {
		for (const [at, value] of partsAt(d, part)) {
			const verdict = checkNamed(schema, value);
			problems.push(...verdict.problems.map((problem) => `${at}${at ? '.' : ''}${problem}`));
			undefinedFields.push(...verdict.undefinedFields.map((field) => `${part}${part ? '.' : ''}${field}`));
		}
	}
	return { problems, undefinedFields };
}

/** The values at `member`, `channels[]` (each item) or `` (the whole), with where each was. */
function partsAt(d: unknown, part: string): Array<[string, unknown]> {
	if (part === '') return [['', d]];
	if (!isRecord(d)) return [];
	if (part.endsWith('[]')) {
		const list = d[part.slice(0, -2)];
		return Array.isArray(list) ? list.map((item, i) => [`${part.slice(0, -2)}.${i}`, item]) : [];
	}
	return d[part] === undefined ? [] : [[part, d[part]]];
}
