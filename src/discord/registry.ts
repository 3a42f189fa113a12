import type { Command, ComponentHandler } from './command.js';
import { parseCustomId } from './customId.js';

/** The command modules, checked and indexed: routing and deploy-commands both read this, so they cannot disagree. */
export interface Registry {
	readonly commands: ReadonlyMap<string, Command>;
	findComponent(customId: string): { handler: ComponentHandler; payload: string[] } | undefined;
	/** The registration JSON of every command, in module order. */
	toJSON(): Command['data'][];
}

/**
 * Builds the registry from `{ file: module }` pairs, rejecting a malformed module or a duplicate command name or
 * component prefix by the file it came from.
 */
export function buildRegistry(modules: Readonly<Record<string, unknown>>): Registry {
	const commands = new Map<string, Command>();
	const components = new Map<string, ComponentHandler>();
	const origin = new Map<string, string>();
	for (const [file, module] of Object.entries(modules)) {
		if (!isCommand(module)) throw new Error(`${file}: not a command module (expected { data, execute, components? })`);
		const name = module.data.name;
		if (commands.has(name)) throw new Error(`${file}: command /${name} is already defined in ${origin.get(`/${name}`)}`);
		commands.set(name, module);
		origin.set(`/${name}`, file);
		for (const handler of module.components ?? []) {
			if (components.has(handler.prefix)) {
				throw new Error(`${file}: component ${handler.prefix} is already handled in ${origin.get(handler.prefix)}`);
			}
			components.set(handler.prefix, handler);
			origin.set(handler.prefix, file);
		}
	}
	return {
		commands,
		findComponent(customId) {
			const { prefix, payload } = parseCustomId(customId);
			const handler = components.get(prefix);
			return handler ? { handler, payload } : undefined;
		},
		toJSON: () => [...commands.values()].map((command) => command.data),
	};
}

function isCommand(value: unknown): value is Command {
	if (typeof value !== 'object' || value === null) return false;
	const candidate = value as Partial<Command>;
	return (
		typeof candidate.data === 'object' &&
		candidate.data !== null &&
		typeof candidate.data.name === 'string' &&
		typeof candidate.execute === 'function' &&
		(candidate.components === undefined || Array.isArray(candidate.components))
	);
}
