import { ApplicationCommandType } from 'discord.js';
import type { ButtonHandler, Command, MessageCommand, ModalHandler, SlashCommand } from './command.js';
import { parseCustomId } from '../discord/customId.js';

/** A handler found for a custom_id, with the payload that followed its prefix, parsed by the id's codec. */
export interface FoundHandler<Handler> {
	readonly handler: Handler;
	readonly payload: readonly unknown[];
}

/** The command modules, checked and indexed: routing and deploy-commands both read this, so they cannot disagree. */
export interface Registry {
	/** Slash commands by name. */
	readonly commands: ReadonlyMap<string, SlashCommand>;
	/** Message commands by name (their own namespace on Discord: `Ask Veil`). */
	readonly messageCommands: ReadonlyMap<string, MessageCommand>;
	/** The button's handler and payload; none for an id no handler owns, or whose payload is not its id's shape. */
	findButton(customId: string): FoundHandler<ButtonHandler> | undefined;
	findModal(customId: string): FoundHandler<ModalHandler> | undefined;
	/** The registration JSON of every command, slash and message alike, in module order. */
	toJSON(): Command['data'][];
}

/**
 * Builds the registry from `{ file: module }` pairs, rejecting, by the file it came from, a malformed module, a
 * duplicate command name, a prefix owned twice, or a prefix that does not start with its own command's name.
 */
export function buildRegistry(modules: Readonly<Record<string, unknown>>): Registry {
	const all: Command[] = [];
	const commands = new Map<string, SlashCommand>();
	const messageCommands = new Map<string, MessageCommand>();
	const buttons = new Map<string, ButtonHandler>();
	const modals = new Map<string, ModalHandler>();
	const origin = new Map<string, string>();
	for (const [file, module] of Object.entries(modules)) {
		if (!isCommand(module)) throw new Error(`${file}: not a command module (expected { data, requires?, execute, buttons?, modals? })`);
		const name = module.data.name;
		// Discord keeps slash and message command names apart; so does the registry.
		const label = isMessageCommand(module) ? `message command ${name}` : `command /${name}`;
		if (origin.has(label)) throw new Error(`${file}: ${label} is already defined in ${origin.get(label)}`);
		if (isMessageCommand(module)) messageCommands.set(name, module);
		else commands.set(name, module);
		all.push(module);
		origin.set(label, file);
		const claim = <Handler extends ButtonHandler | ModalHandler>(handlers: readonly Handler[] | undefined, into: Map<string, Handler>) => {
			for (const handler of handlers ?? []) {
				const { prefix } = handler.id;
				if (!prefix.startsWith(`${name}:`)) throw new Error(`${file}: component ${prefix} is not under /${name}'s own prefix ${name}:`);
				if (origin.has(prefix)) throw new Error(`${file}: component ${prefix} is already handled in ${origin.get(prefix)}`);
				into.set(prefix, handler);
				origin.set(prefix, file);
			}
		};
		claim(module.buttons, buttons);
		claim(module.modals, modals);
	}
	return {
		commands,
		messageCommands,
		findButton: (customId) => find(buttons, customId),
		findModal: (customId) => find(modals, customId),
		toJSON: () => all.map((command) => command.data),
	};
}

function find<Handler extends ButtonHandler | ModalHandler>(
	index: ReadonlyMap<string, Handler>,
	customId: string,
): FoundHandler<Handler> | undefined {
	const { prefix, parts } = parseCustomId(customId);
	const handler = index.get(prefix);
	const payload = handler?.id.parse(parts);
	return handler && payload ? { handler, payload } : undefined;
}

function isMessageCommand(command: Command): command is MessageCommand {
	return command.data.type === ApplicationCommandType.Message;
}

function isCommand(value: unknown): value is Command {
	if (typeof value !== 'object' || value === null) return false;
	const candidate = value as Partial<Command>;
	return (
		typeof candidate.data === 'object' &&
		candidate.data !== null &&
		typeof candidate.data.name === 'string' &&
		(candidate.data.type === undefined ||
			candidate.data.type === ApplicationCommandType.ChatInput ||
			candidate.data.type === ApplicationCommandType.Message) &&
		typeof candidate.execute === 'function' &&
		(candidate.requires === undefined || typeof candidate.requires === 'object') &&
		areHandlers(candidate.buttons) &&
		areHandlers(candidate.modals)
	);
}

/** None, or a list of handlers each with an id (its codec) and a handle function. */
function areHandlers(value: unknown): boolean {
	if (value === undefined) return true;
	if (!Array.isArray(value)) return false;
	return value.every(
		(handler: Partial<ButtonHandler>) =>
			typeof handler.id?.prefix === 'string' && typeof handler.id.parse === 'function' && typeof handler.handle === 'function',
	);
}
