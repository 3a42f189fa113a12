import type { APIEmbed } from 'discord.js';
import { collectCustomIds } from './components.js';

/** Discord's 50035 "Invalid Form Body" error with its nested `errors` tree. */
export class FormErrors {
	readonly tree: Record<string, unknown> = {};
	count = 0;

	add(path: ReadonlyArray<string | number>, code: string, message: string): void {
		let node = this.tree;
		for (const key of path) {
			const k = String(key);
			node[k] ??= {};
			node = node[k] as Record<string, unknown>;
		}
		const list = (node._errors ??= []) as Array<{ code: string; message: string }>;
		list.push({ code, message });
		this.count += 1;
	}

	body(): { code: number; message: string; errors: Record<string, unknown> } {
		return { code: 50035, message: 'Invalid Form Body', errors: this.tree };
	}
}

function maxLength(errors: FormErrors, path: Array<string | number>, value: unknown, max: number, min = 0): number {
	if (typeof value !== 'string') return 0;
	if (value.length > max) errors.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
	if (value.length < min) errors.add(path, 'BASE_TYPE_MIN_LENGTH', `Must be ${min} or more in length.`);
	return value.length;
}

function validateEmbeds(errors: FormErrors, embeds: unknown): void {
	if (!Array.isArray(embeds)) return;
	if (embeds.length > 10) errors.add(['embeds'], 'BASE_TYPE_MAX_LENGTH', 'Must be 10 or fewer in length.');
	let total = 0;
	embeds.forEach((raw: APIEmbed, i) => {
		const at = (...rest: Array<string | number>) => ['embeds', i, ...rest];
		total += maxLength(errors, at('title'), raw.title, 256);
		total += maxLength(errors, at('description'), raw.description, 4096);
		total += maxLength(errors, at('footer', 'text'), raw.footer?.text, 2048);
		total += maxLength(errors, at('author', 'name'), raw.author?.name, 256);
		const fields = raw.fields ?? [];
		if (fields.length > 25) errors.add(at('fields'), 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
		fields.forEach((field, j) => {
			total += maxLength(errors, at('fields', j, 'name'), field.name, 256);
			total += maxLength(errors, at('fields', j, 'value'), field.value, 1024);
		});
	});
	if (total > 6000) errors.add(['embeds'], 'MESSAGE_EMBEDS_TOO_LONG', 'Embed size exceeds maximum size of 6000');
}

function validateComponents(errors: FormErrors, components: unknown): void {
	for (const id of collectCustomIds(components)) {
		if (id.length > 100 || id.length === 0) {
			errors.add(['components'], 'BASE_TYPE_BAD_LENGTH', `custom_id "${id.slice(0, 20)}…" must be between 1 and 100 in length.`);
		}
	}
}

/** Components V2: message flag `1 << 15`. Once a message has it, an edit cannot take it off. */
export const IS_COMPONENTS_V2 = 1 << 15;
/** Discord's caps on a Components V2 message: components in all (nested ones counted), and text across its Text Displays. */
export const V2_COMPONENT_LIMIT = 40;
export const V2_TEXT_LIMIT = 4000;

/** Every component of a tree, nested ones included (a container's, a section's and its accessory, a label's). */
export function flattenComponents(components: unknown, out: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> {
	if (!Array.isArray(components)) return out;
	for (const c of components as Array<Record<string, unknown>>) {
		if (!c || typeof c !== 'object') continue;
		out.push(c);
		if (c.components) flattenComponents(c.components, out);
		if (c.component) flattenComponents([c.component], out);
		if (c.accessory) flattenComponents([c.accessory], out);
	}
	return out;
}

/**
 * A Components V2 message as Discord holds it: no `content`, `embeds`, `poll` or `stickers`; at most 40 components in
 * all; at most 4000 characters across its Text Displays. Without the flag, only Action Rows go at the top.
 */
function validateLayout(errors: FormErrors, body: Record<string, unknown>, v2: boolean): void {
	if (!v2) {
		if (!Array.isArray(body.components)) return;
		(body.components as Array<Record<string, unknown> | null>).forEach((top, i) => {
			if (top && typeof top === 'object' && top.type !== 1) {
				errors.add(['components', i], 'UI_COMPONENT_REQUIRES_COMPONENTS_V2', 'This component requires the IS_COMPONENTS_V2 message flag.');
			}
		});
		return;
	}
	const legacy: Array<[string, boolean]> = [
		['content', typeof body.content === 'string' && body.content.length > 0],
		['embeds', Array.isArray(body.embeds) && body.embeds.length > 0],
		['poll', body.poll !== undefined && body.poll !== null],
		['sticker_ids', Array.isArray(body.sticker_ids) && body.sticker_ids.length > 0],
	];
	for (const [field, present] of legacy) {
		if (present) {
			errors.add(
				[field],
				'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2',
				`The '${field}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2`,
			);
		}
	}
	const all = flattenComponents(body.components);
	if (all.length > V2_COMPONENT_LIMIT) {
		errors.add(['components'], 'BASE_TYPE_MAX_LENGTH', `Must be ${V2_COMPONENT_LIMIT} or fewer in length, nested components included.`);
	}
	const text = all.reduce((sum, c) => sum + (c.type === 10 && typeof c.content === 'string' ? c.content.length : 0), 0);
	if (text > V2_TEXT_LIMIT) {
		errors.add(
			['components'],
			'MESSAGE_TEXT_DISPLAY_TOO_LONG',
			`The text of all Text Display components together must be ${V2_TEXT_LIMIT} or fewer in length.`,
		);
	}
}

/**
 * Checks a message body against Discord's limits. `create` also rejects an empty message (50006), which Discord
 * answers with its own code rather than 50035. `existingFlags`: an edited message's, whose Components V2 flag holds.
 */
export function validateMessage(
	body: Record<string, unknown>,
	fileCount: number,
	create: boolean,
	existingFlags = 0,
): { status: number; body: unknown } | undefined {
	const errors = new FormErrors();
	const v2 = ((typeof body.flags === 'number' ? body.flags : 0) | existingFlags) & IS_COMPONENTS_V2;
	maxLength(errors, ['content'], body.content, 2000);
	validateEmbeds(errors, body.embeds);
	validateComponents(errors, body.components);
	validateLayout(errors, body, v2 !== 0);
	if (errors.count) return { status: 400, body: errors.body() };
	if (create) {
		const hasContent = typeof body.content === 'string' && body.content.length > 0;
		const hasEmbeds = Array.isArray(body.embeds) && body.embeds.length > 0;
		const hasComponents = Array.isArray(body.components) && body.components.length > 0;
		const hasStickers = Array.isArray(body.sticker_ids) && body.sticker_ids.length > 0;
		if (!hasContent && !hasEmbeds && !hasComponents && !hasStickers && !body.poll && fileCount === 0) {
			return { status: 400, body: { code: 50006, message: 'Cannot send an empty message' } };
		}
	}
	return undefined;
}

/** Modal limits: custom_id 1–100, title ≤ 45, 1–5 top-level components, text inputs max_length ≤ 4000. */
export function validateModal(data: Record<string, unknown> | undefined): { status: number; body: unknown } | undefined {
	const errors = new FormErrors();
	if (!data) {
		errors.add(['data'], 'BASE_TYPE_REQUIRED', 'This field is required');
		return { status: 400, body: errors.body() };
	}
	maxLength(errors, ['data', 'custom_id'], data.custom_id, 100, 1);
	maxLength(errors, ['data', 'title'], data.title, 45, 1);
	if (typeof data.custom_id !== 'string') errors.add(['data', 'custom_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
	if (typeof data.title !== 'string') errors.add(['data', 'title'], 'BASE_TYPE_REQUIRED', 'This field is required');
	const components = Array.isArray(data.components) ? (data.components as Array<Record<string, unknown>>) : [];
	if (components.length < 1 || components.length > 5) {
		errors.add(['data', 'components'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 5 in length.');
	}
	components.forEach((top, i) => {
		const inner = top.component ? [top.component] : Array.isArray(top.components) ? top.components : [];
		if (top.type === 18) maxLength(errors, ['data', 'components', i, 'label'], top.label, 45, 1);
		for (const c of inner as Array<Record<string, unknown>>) {
			if (c.type !== 4) continue;
			maxLength(errors, ['data', 'components', i, 'component', 'custom_id'], c.custom_id, 100, 1);
			if (typeof c.max_length === 'number' && c.max_length > 4000) {
				errors.add(['data', 'components', i, 'component', 'max_length'], 'NUMBER_TYPE_MAX', 'int value should be less than or equal to 4000.');
			}
		}
	});
	return errors.count ? { status: 400, body: errors.body() } : undefined;
}

const COMMAND_NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

/** Discord's locale codes: a localization under any other key is refused. */
const DISCORD_LOCALES = new Set([
	'id',
	'da',
	'de',
	'en-GB',
	'en-US',
	'es-ES',
	'es-419',
	'fr',
	'hr',
	'it',
	'lt',
	'hu',
	'nl',
	'no',
	'pl',
	'pt-BR',
	'ro',
	'fi',
	'sv-SE',
	'vi',
	'tr',
	'cs',
	'el',
	'bg',
	'ru',
	'uk',
	'hi',
	'th',
	'zh-CN',
	'ja',
	'zh-TW',
	'ko',
]);

/** A localized name follows the name's own rules: the slash pattern and lower case, or (message commands, choices) a length. */
function validateLocalizedNames(errors: FormErrors, path: Array<string | number>, localizations: unknown, slashName: boolean, max = 32): void {
	if (localizations === undefined || localizations === null) return;
	for (const [locale, value] of Object.entries(localizations as Record<string, unknown>)) {
		const at = [...path, 'name_localizations', locale];
		if (!DISCORD_LOCALES.has(locale)) errors.add(at, 'BASE_TYPE_CHOICES', `Value must be one of ${[...DISCORD_LOCALES].join(', ')}.`);
		else if (
			typeof value !== 'string' ||
			value.length < 1 ||
			value.length > max ||
			(slashName && (!COMMAND_NAME.test(value) || value !== value.toLowerCase()))
		) {
			errors.add(at, 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
		}
	}
}

function validateLocalizedDescriptions(errors: FormErrors, path: Array<string | number>, localizations: unknown): void {
	if (localizations === undefined || localizations === null) return;
	for (const [locale, value] of Object.entries(localizations as Record<string, unknown>)) {
		const at = [...path, 'description_localizations', locale];
		if (!DISCORD_LOCALES.has(locale)) errors.add(at, 'BASE_TYPE_CHOICES', `Value must be one of ${[...DISCORD_LOCALES].join(', ')}.`);
		else if (typeof value !== 'string' || value.length < 1 || value.length > 100)
			errors.add(at, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
	}
}

/** Command registration limits: names, descriptions, option and choice counts, and their localizations. */
export function validateCommand(errors: FormErrors, path: Array<string | number>, command: Record<string, unknown>): void {
	const type = typeof command.type === 'number' ? command.type : 1;
	const name = command.name;
	if (typeof name !== 'string' || (type === 1 && (!COMMAND_NAME.test(name) || name !== name.toLowerCase()))) {
		errors.add([...path, 'name'], 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
	}
	validateLocalizedNames(errors, path, command.name_localizations, type === 1);
	if (type === 1) {
		const description = command.description;
		if (typeof description !== 'string' || description.length < 1 || description.length > 100) {
			errors.add([...path, 'description'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
		}
		validateLocalizedDescriptions(errors, path, command.description_localizations);
		validateOptions(errors, [...path, 'options'], command.options);
	}
	if (type === 2 || type === 3) {
		// User and message commands: a name of 1–32 characters (capitals and spaces allowed), no description or options.
		if (typeof name === 'string' && (name.length < 1 || name.length > 32)) {
			errors.add([...path, 'name'], 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
		}
		if (typeof command.description === 'string' && command.description !== '') {
			errors.add([...path, 'description'], 'APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION', 'Context menu commands cannot have description');
		}
		if (Array.isArray(command.options) && command.options.length > 0) {
			errors.add([...path, 'options'], 'APPLICATION_COMMAND_CONTEXT_MENU_OPTIONS', 'Context menu commands cannot have options');
		}
	}
}

function validateOptions(errors: FormErrors, path: Array<string | number>, options: unknown): void {
	if (!Array.isArray(options)) return;
	if (options.length > 25) errors.add(path, 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
	options.forEach((option: Record<string, unknown>, i) => {
		const name = option.name;
		if (typeof name !== 'string' || !COMMAND_NAME.test(name) || name !== name.toLowerCase()) {
			errors.add([...path, i, 'name'], 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
		}
		const description = option.description;
		if (typeof description !== 'string' || description.length < 1 || description.length > 100) {
			errors.add([...path, i, 'description'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
		}
		validateLocalizedNames(errors, [...path, i], option.name_localizations, true);
		validateLocalizedDescriptions(errors, [...path, i], option.description_localizations);
		if (Array.isArray(option.choices)) {
			option.choices.forEach((choice: Record<string, unknown>, c) =>
				validateLocalizedNames(errors, [...path, i, 'choices', c], choice.name_localizations, false, 100),
			);
		}
		if (Array.isArray(option.choices) && option.choices.length > 25) {
			errors.add([...path, i, 'choices'], 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
		}
		validateOptions(errors, [...path, i, 'options'], option.options);
	});
}
