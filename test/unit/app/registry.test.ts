import { describe, expect, it } from 'vitest';
import { commandModules } from '../../../commands/index.js';
import { z } from 'zod';
import { customIds } from '../../../src/app/customIds.js';
import { CUSTOM_ID_MAX_LENGTH, customIdCodec, parseCustomId } from '../../../src/discord/customId.js';
import { buildRegistry } from '../../../src/app/registry.js';
import { commandData } from '../../../commands/definitions/index.js';
import type { Command } from '../../../src/app/command.js';

const execute = async () => undefined;
const slashData = (name: string) => ({ type: 1, name, contexts: [0], integration_types: [0] }) as const;
const messageData = (name: string) => ({ type: 3, name, contexts: [0], integration_types: [0] }) as const;
const slashModule = (name: string, more: Partial<Command> = {}) => ({ data: slashData(name), execute, ...more }) as Command;

describe('buildRegistry', () => {
	it('indexes the real command modules and their components', () => {
		const registry = buildRegistry(commandModules);
		expect([...registry.commands.keys()]).toEqual(expect.arrayContaining(['ask', 'link', 'unlink']));
		expect(registry.data.map((command) => command.name).sort()).toEqual([...registry.commands.keys(), ...registry.messageCommands.keys()].sort());
		expect(registry.findButton('link:open')).toBeDefined();
		expect(registry.findModal('link:open')).toBeUndefined();
		expect(registry.findModal('link:submit')).toBeDefined();
		expect(registry.findButton('link:submit')).toBeUndefined();
		expect(registry.findButton(customIds.flagged.page.build(2, '1'))?.payload).toEqual([2, '1']);
		expect(registry.findModal('flagged:decide:released:abc')?.payload).toEqual(['released', 'abc']);
		expect(registry.findButton('nobody:owns')).toBeUndefined();
	});

	it('finds no handler for an id whose payload is not its shape, so the router answers it as unknown', () => {
		const registry = buildRegistry(commandModules);
		expect(registry.findButton('flagged:page:two:1')).toBeUndefined();
		expect(registry.findButton('flagged:page:2')).toBeUndefined();
		expect(registry.findModal('flagged:decide:deleted:abc')).toBeUndefined();
		expect(registry.findButton('link:open:extra')).toBeUndefined();
	});

	it('indexes a message command apart from the slash commands, and registers both', () => {
		const registry = buildRegistry(commandModules);
		expect(registry.messageCommands.get('Ask Veil')?.data.type).toBe(3);
		expect(registry.commands.has('Ask Veil')).toBe(false);
		expect(registry.data.map((command) => command.name)).toContain('Ask Veil');
		expect(registry.findModal('Ask Veil:question:abc')?.payload).toEqual(['abc']);
		expect(registry.findButton('ask:followup:abc')?.payload).toEqual(['abc']);
		expect(registry.findModal('ask:followup-form:abc')?.payload).toEqual(['abc']);
	});

	it('routes by the very data deploy-commands registers, command by command and in order', () => {
		expect(buildRegistry(commandModules).data).toEqual(commandData);
		for (const [index, data] of buildRegistry(commandModules).data.entries()) expect(data).toBe(commandData[index]);
	});

	it('keeps slash and message command names apart, as Discord does, but refuses a message command twice', () => {
		const message = { data: messageData('same'), execute } as Command;
		expect(buildRegistry({ 'commands/a.ts': slashModule('same'), 'commands/b.ts': message }).data).toHaveLength(2);
		expect(() => buildRegistry({ 'commands/b.ts': message, 'commands/c.ts': message })).toThrow(
			/commands\/c\.ts: message command same is already defined in commands\/b\.ts/,
		);
	});

	it('rejects a duplicate command name, naming both files', () => {
		const module = slashModule('ask');
		expect(() => buildRegistry({ 'commands/a.ts': module, 'commands/b.ts': module })).toThrow(
			/commands\/b\.ts: command \/ask is already defined in commands\/a\.ts/,
		);
	});

	it('rejects a component prefix owned twice', () => {
		const handler = { id: customIdCodec('a:open', z.tuple([])), handle: execute };
		expect(() => buildRegistry({ 'commands/a.ts': slashModule('a', { buttons: [handler], modals: [handler] }) })).toThrow(
			/commands\/a\.ts: component a:open is already handled in commands\/a\.ts/,
		);
	});

	it("rejects a prefix outside its command's own name", () => {
		const handler = { id: customIds.link.open, handle: execute };
		expect(() => buildRegistry({ 'commands/b.ts': slashModule('b', { buttons: [handler] }) })).toThrow(
			/commands\/b\.ts: component link:open is not under \/b's own prefix b:/,
		);
	});
});

describe('custom ids', () => {
	it('round-trips a prefix and its typed payload', () => {
		const { page } = customIds.flagged;
		const id = page.build(3, '123456789012345678');
		expect(id).toBe('flagged:page:3:123456789012345678');
		const { prefix, parts } = parseCustomId(id);
		expect(prefix).toBe(page.prefix);
		expect(page.parse(parts)).toEqual([3, '123456789012345678']);
	});

	it("refuses an id past Discord's cap or a payload that would break parsing", () => {
		expect(() => customIds.flagged.view.build('x'.repeat(CUSTOM_ID_MAX_LENGTH))).toThrow(/characters/);
		expect(() => customIds.flagged.view.build('a:b')).toThrow(/contains ':'/);
	});
});
