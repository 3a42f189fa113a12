import { describe, expect, it } from 'vitest';
import { commandModules } from '../../../commands/index.js';
import { buildCustomId, CUSTOM_ID, CUSTOM_ID_MAX_LENGTH, parseCustomId } from '../../../src/discord/customId.js';
import { buildRegistry } from '../../../src/discord/registry.js';

const execute = async () => undefined;

describe('buildRegistry', () => {
	it('indexes the real command modules and their components', () => {
		const registry = buildRegistry(commandModules);
		expect([...registry.commands.keys()]).toEqual(expect.arrayContaining(['ask', 'link', 'unlink']));
		expect(registry.toJSON().map((command) => command.name)).toEqual([...registry.commands.keys()]);
		expect(registry.findComponent(buildCustomId(CUSTOM_ID.linkOpen))?.handler.kind).toBe('button');
		expect(registry.findComponent(buildCustomId(CUSTOM_ID.linkSubmit))?.handler.kind).toBe('modal');
		expect(registry.findComponent('nobody:owns')).toBeUndefined();
	});

	it('names the file of a malformed module', () => {
		expect(() => buildRegistry({ 'commands/broken.ts': { data: { name: 'x' } } })).toThrow(/commands\/broken\.ts: not a command module/);
		expect(() => buildRegistry({ 'commands/empty.ts': undefined })).toThrow(/commands\/empty\.ts/);
	});

	it('rejects a duplicate command name, naming both files', () => {
		const module = { data: { name: 'ask', description: 'd' }, execute };
		expect(() => buildRegistry({ 'commands/a.ts': module, 'commands/b.ts': module })).toThrow(
			/commands\/b\.ts: command \/ask is already defined in commands\/a\.ts/,
		);
	});

	it('rejects a component prefix owned twice', () => {
		const handler = { kind: 'button', prefix: CUSTOM_ID.linkOpen, handle: execute };
		expect(() =>
			buildRegistry({
				'commands/a.ts': { data: { name: 'a', description: 'd' }, execute, components: [handler] },
				'commands/b.ts': { data: { name: 'b', description: 'd' }, execute, components: [handler] },
			}),
		).toThrow(/commands\/b\.ts: component link:open is already handled in commands\/a\.ts/);
	});
});

describe('custom ids', () => {
	it('round-trips a prefix and its payload', () => {
		const id = buildCustomId(CUSTOM_ID.flaggedPage, 3, '123456789012345678');
		expect(parseCustomId(id)).toEqual({ prefix: CUSTOM_ID.flaggedPage, payload: ['3', '123456789012345678'] });
	});

	it('refuses an id past Discord\'s cap or a payload that would break parsing', () => {
		expect(() => buildCustomId(CUSTOM_ID.flagView, 'x'.repeat(CUSTOM_ID_MAX_LENGTH))).toThrow(/characters/);
		expect(() => buildCustomId(CUSTOM_ID.flagView, 'a:b')).toThrow(/contains ':'/);
	});
});
