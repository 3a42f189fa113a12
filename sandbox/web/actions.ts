import { z } from 'zod';
import type { APIApplicationCommandInteractionDataOption } from 'discord.js';
import type { DiscordEmulator, EmulatorMessage, InteractionHandle, InteractionOptions } from '../discord/emulator.js';
import type { Person, SandboxWorld } from '../world.js';
import { canView, type CommandLabels } from './view.js';
import { SUPPORTED_LOCALES } from '../../src/i18n/locales.js';

/** A request from the page that cannot be carried out, with the sentence the page shows. */
export class PageRequestError extends Error {
	override readonly name = 'PageRequestError';
	constructor(
		message: string,
		readonly status = 400,
	) {
		super(message);
	}
}

/** What the page learns at once from an interaction: a dialog to open, when Veil answered with one. */
export interface ActionResult {
	interactionId?: string;
	modal?: unknown;
}

const id = z.string().regex(/^\d{1,20}$/);
const personKey = z.enum(['member', 'moderator', 'manager']);
/** A file picked for an ATTACHMENT option; the option's value names it as `file:<option name>`. */
const pickedFile = z.object({ filename: z.string().min(1).max(200), contentType: z.string().max(200), base64: z.string().max(14_000_000) });
const commandInput = z.object({
	person: personKey,
	channelId: id,
	name: z.string().min(1).max(32),
	options: z.array(z.unknown()).max(25).default([]),
	files: z.record(z.string(), pickedFile).default({}),
});
const buttonInput = z.object({ person: personKey, messageId: id, customId: z.string().min(1).max(100) });
const modalInput = z.object({ person: personKey, customId: z.string().min(1).max(100), fields: z.record(z.string(), z.string().max(4000)) });
const appsInput = z.object({ person: personKey, messageId: id, name: z.string().min(1).max(32) });
const languageInput = z.object({ person: personKey, locale: z.enum(SUPPORTED_LOCALES) });
const postInput = z.object({ person: personKey, channelId: id, content: z.string().trim().min(1).max(2000) });

/** How long the page waits for Veil's first callback, to learn whether it opened a dialog (Discord allows 3 s). */
const FIRST_CALLBACK_MS = 3500;

/** The page's actions, carried out on the local Discord as a real client's would be, on behalf of its people. */
export class PageActions {
	/** The command each interaction ran, shown above its answer. */
	readonly labels: CommandLabels = new Map();
	/** A dialog's custom_id → what opened it, so the answer to its submission says "used Ask Veil". */
	readonly #openedBy = new Map<string, string>();

	constructor(
		private readonly discord: DiscordEmulator,
		private readonly world: SandboxWorld,
	) {}

	/** A slash command typed in the command box: `options` are Discord's raw ones, as the page built them. */
	async command(body: unknown): Promise<ActionResult> {
		const input = parse(commandInput, body);
		const person = this.#person(input.person);
		const where = this.#where(person, input.channelId);
		const options = this.#attachFiles(input.options as APIApplicationCommandInteractionDataOption[], input.files);
		const handle = this.discord.slashCommand({ ...where, name: input.name, options });
		return this.#answer(handle, `/${[input.name, ...subcommandPath(input.options)].join(' ')}`);
	}

	async button(body: unknown): Promise<ActionResult> {
		const input = parse(buttonInput, body);
		const person = this.#person(input.person);
		const message = this.#message(person, input.messageId);
		const where = this.#where(person, message.channel_id);
		const handle = this.discord.button({ ...where, customId: input.customId, message });
		return this.#answer(handle, buttonLabel(message, input.customId));
	}

	/** A dialog's submission; the local Discord finds the channel from the interaction that opened it. */
	async modal(body: unknown): Promise<ActionResult> {
		const input = parse(modalInput, body);
		const person = this.#person(input.person);
		const handle = this.discord.modalSubmit({
			user: person.user,
			customId: input.customId,
			fields: input.fields,
			memberPermissions: person.permissions,
			locale: person.locale,
		});
		return this.#answer(handle, this.#openedBy.get(input.customId) ?? 'a form');
	}

	/** A message command picked in a message's Apps menu. */
	async apps(body: unknown): Promise<ActionResult> {
		const input = parse(appsInput, body);
		const person = this.#person(input.person);
		const target = this.#message(person, input.messageId);
		const handle = this.discord.messageCommand({ ...this.#where(person, target.channel_id), name: input.name, target });
		return this.#answer(handle, input.name);
	}

	/** The language of a person's Discord client, from the person switcher: their next interactions carry it. */
	language(body: unknown): ActionResult {
		const input = parse(languageInput, body);
		this.#person(input.person).locale = input.locale;
		return {};
	}

	/** A plain message typed in the channel: no bot involved. */
	post(body: unknown): ActionResult {
		const input = parse(postInput, body);
		const person = this.#person(input.person);
		this.#where(person, input.channelId);
		// "@Veil" typed in the composer is a mention, as Discord's client makes it when one picks Veil.
		const content = input.content.replace(/@veil\b/gi, `<@${this.discord.bot.id}>`);
		this.discord.postAsMember({ user: person.user, channelId: input.channelId, content });
		return {};
	}

	/** Waits for Veil's first callback; a type 9 opens a dialog on the page. Later answers arrive as live updates. */
	async #answer(handle: InteractionHandle, label: string): Promise<ActionResult> {
		this.labels.set(handle.id, label);
		const state = await handle.waitFor((s) => s.callbacks.length > 0, FIRST_CALLBACK_MS).catch(() => handle.state());
		if (!state.modal) return { interactionId: handle.id };
		this.#openedBy.set(state.modal.custom_id, label);
		return { interactionId: handle.id, modal: state.modal };
	}

	/** Puts each picked file on the local Discord's CDN, as a client uploads it, and names it in its option. */
	#attachFiles(
		options: APIApplicationCommandInteractionDataOption[],
		files: Record<string, z.infer<typeof pickedFile>>,
	): APIApplicationCommandInteractionDataOption[] {
		return options.map((option) => {
			if ('options' in option && option.options)
				return { ...option, options: this.#attachFiles(option.options, files) } as APIApplicationCommandInteractionDataOption;
			if (option.type !== 11) return option;
			const file = files[String(option.value).replace(/^file:/, '')];
			if (!file) throw new PageRequestError(`No file was picked for ${option.name}.`);
			const attachment = this.discord.attach({
				filename: file.filename,
				bytes: Buffer.from(file.base64, 'base64'),
				contentType: file.contentType || null,
			});
			return { ...option, value: attachment.id };
		});
	}

	#person(key: string): Person {
		const person = this.world.person(key);
		if (!person) throw new PageRequestError(`No one called ${key} here.`);
		return person;
	}

	/** Where a person acts: a server channel they can see (with their permissions), or their own DM with Veil. */
	#where(person: Person, channelId: string): InteractionOptions & { user: Person['user'] } {
		if (channelId === this.discord.dmChannelId(person.user)) return { user: person.user, guildId: null, locale: person.locale };
		// A thread is seen by whoever sees its parent channel.
		const seen = this.discord.thread(channelId)?.parent_id ?? channelId;
		if (!canView(this.world, person, seen)) throw new PageRequestError(`${person.label} cannot see that channel.`, 403);
		return { user: person.user, channelId, memberPermissions: person.permissions, locale: person.locale };
	}

	#message(person: Person, messageId: string): EmulatorMessage {
		const message = this.discord.message(messageId);
		if (!message || message.deleted) throw new PageRequestError('That message is gone.', 404);
		this.#where(person, message.channel_id);
		return message;
	}
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
	const result = schema.safeParse(body);
	if (!result.success) throw new PageRequestError(`The page sent something unexpected: ${z.prettifyError(result.error)}`);
	return result.data;
}

function subcommandPath(options: unknown[]): string[] {
	const first = options[0] as { type?: number; name?: string; options?: unknown[] } | undefined;
	if (!first || (first.type !== 1 && first.type !== 2) || !first.name) return [];
	return [first.name, ...subcommandPath(first.options ?? [])];
}

function buttonLabel(message: EmulatorMessage, customId: string): string {
	for (const row of message.components as Array<{ components?: Array<{ custom_id?: string; label?: string }> }>) {
		const button = row.components?.find((c) => c.custom_id === customId);
		if (button?.label) return button.label;
	}
	return 'a button';
}
