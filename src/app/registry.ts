import type { ButtonHandler, Command, MessageCommand, ModalHandler, SlashCommand } from './command.js';
import { isMessageCommandData, type CommandData } from './commandData.js';
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
	/** Every command's data, slash and message alike, in module order. */
	readonly data: readonly CommandData[];
}

/**
 * Builds the registry from `{ file: module }` pairs, each a Command by its type, rejecting, by the file it came from,
 * a duplicate command name, a prefix owned twice, or a prefix that does not start with its own command's name.
 */
export function buildRegistry(modules: Readonly<Record<string, Command>>): Registry {
	const all: Command[] = [];
	const commands = new Map<string, SlashCommand>();
	const messageCommands = new Map<string, MessageCommand>();
	const buttons = new Map<string, ButtonHandler>();
	const modals = new Map<string, ModalHandler>();
	const origin = new Map<string, string>();
	for (const [file, module] of Object.entries(modules)) {
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
		data: all.map((command) => command.data),
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
	return isMessageCommandData(command.data);
}
