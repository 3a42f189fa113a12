import { describe, expect, it } from 'vitest';
import { commandModules } from '../../../commands/index.js';
import { z } from 'zod';
import { customIds } from '../../../src/app/customIds.js';
import { CUSTOM_ID_MAX_LENGTH, customIdCodec, parseCustomId } from '../../../src/discord/customId.js';
import { buildRegistry } from '../../../src/app/registry.js';

const execute = async () => undefined;

describe('buildRegistry', () => {
	it('indexes the real command modules and their components', () => {
		const registry = buildRegistry(commandModules);
		expect([...registry.commands.keys()]).toEqual(expect.arrayContaining(['ask', 'link', 'unlink']));
		expect(
			registry
				.toJSON()
				.map((command) => command.name)
				.sort(),
		).toEqual([...registry.commands.keys(), ...registry.messageCommands.keys()].sort());
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
		expect(registry.toJSON().map((command) => command.name)).toContain('Ask Veil');
		expect(registry.findModal('Ask Veil:question:abc')?.payload).toEqual(['abc']);
		expect(registry.findButton('ask:followup:abc')?.payload).toEqual(['abc']);
		expect(registry.findModal('ask:followup-form:abc')?.payload).toEqual(['abc']);
	});

	it('keeps slash and message command names apart, as Discord does, but refuses a message command twice', () => {
		const slash = { data: { name: 'same', description: 'd' }, execute };
		const message = { data: { name: 'same', type: 3 }, execute };
		expect(buildRegistry({ 'commands/a.ts': slash, 'commands/b.ts': message }).toJSON()).toHaveLength(2);
		expect(() => buildRegistry({ 'commands/b.ts': message, 'commands/c.ts': message })).toThrow(
			/commands\/c\.ts: message command same is already defined in commands\/b\.ts/,
		);
		expect(() => buildRegistry({ 'commands/u.ts': { data: { name: 'user', type: 2 }, execute } })).toThrow(/not a command module/);
	});

	it('names the file of a malformed module', () => {
		expect(() => buildRegistry({ 'commands/broken.ts': { data: { name: 'x' } } })).toThrow(/commands\/broken\.ts: not a command module/);
		expect(() => buildRegistry({ 'commands/empty.ts': undefined })).toThrow(/commands\/empty\.ts/);
		// A component handler keyed by a bare prefix, as before ids were codecs.
		const bare = { data: { name: 'x', description: 'd' }, execute, buttons: [{ prefix: 'x:open', handle: execute }] };
		expect(() => buildRegistry({ 'commands/bare.ts': bare })).toThrow(/commands\/bare\.ts: not a command module/);
	});

	it('rejects a duplicate command name, naming both files', () => {
		const module = { data: { name: 'ask', description: 'd' }, execute };
		expect(() => buildRegistry({ 'commands/a.ts': module, 'commands/b.ts': module })).toThrow(
			/commands\/b\.ts: command \/ask is already defined in commands\/a\.ts/,
		);
	});

	it('rejects a component prefix owned twice', () => {
		const handler = { id: customIdCodec('a:open', z.tuple([])), handle: execute };
		expect(() =>
			buildRegistry({
				'commands/a.ts': { data: { name: 'a', description: 'd' }, execute, buttons: [handler], modals: [handler] },
			}),
		).toThrow(/commands\/a\.ts: component a:open is already handled in commands\/a\.ts/);
	});

	it("rejects a prefix outside its command's own name", () => {
		const handler = { id: customIds.link.open, handle: execute };
		expect(() => buildRegistry({ 'commands/b.ts': { data: { name: 'b', description: 'd' }, execute, buttons: [handler] } })).toThrow(
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
