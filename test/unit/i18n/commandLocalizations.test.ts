import { describe, expect, it } from 'vitest';
import { commandData } from '../../../commands/definitions/index.js';
import { catalogueOf, type CommandEntry } from '../../../src/i18n/catalogues.js';
import { FLAG_PAGE_SIZE } from '../../../src/moderation/flagRepository.js';
import { commandRegistrations, LOCALIZED_LOCALES, localizeCommands, MissingCommandText } from '../../../src/i18n/commandLocalizations.js';

interface Node {
	name: string;
	description?: string;
	type?: number;
	value?: string | number;
	name_localizations?: Record<string, string> | null;
	description_localizations?: Record<string, string> | null;
	options?: Node[];
	choices?: Node[];
}

/** What deploy-commands sends Discord. */
const registered = () => commandRegistrations(commandData) as unknown as Node[];

/** Every command, option and choice of the registration JSON, by its path. */
function walk(nodes: readonly Node[], prefix = ''): Array<{ path: string; node: Node; kind: 'command' | 'option' | 'choice' }> {
	return nodes.flatMap((node) => {
		const path = `${prefix}${node.name}`;
		return [
			{ path, node, kind: prefix ? ('option' as const) : ('command' as const) },
			...walk(node.options ?? [], `${path}.options.`),
			...(node.choices ?? []).map((choice) => ({ path: `${path}.choices.${choice.value}`, node: choice, kind: 'choice' as const })),
		];
	});
}

describe('localizeCommands', () => {
	it('gives every command, option and choice Veil registers a name and description in every supported locale', () => {
		const missing: string[] = [];
		for (const { path, node, kind } of walk(registered())) {
			for (const locale of LOCALIZED_LOCALES) {
				if (!node.name_localizations?.[locale]) missing.push(`${locale}: ${path} name`);
				// A message command and a choice have no description to localize.
				if (kind !== 'choice' && node.type !== 3 && !node.description_localizations?.[locale]) missing.push(`${locale}: ${path} description`);
			}
		}
		expect(missing, 'add these to src/i18n/locales/*.json').toEqual([]);
	});

	it("takes every command's English from en-US.json, whose names are the data's own", () => {
		const mismatched: string[] = [];
		const compare = (nodes: readonly Node[], entries: Readonly<Record<string, CommandEntry>> | undefined, prefix: string) => {
			for (const node of nodes) {
				const entry = entries?.[node.name];
				// The data's name is what Discord sends back and the handler reads: en-US must not rename it.
				if (entry?.name !== node.name) mismatched.push(`${prefix}${node.name}: named "${entry?.name}" in en-US.json`);
				if (node.type !== 3 && entry?.description !== node.description) mismatched.push(`${prefix}${node.name}.description`);
				compare(node.options ?? [], entry?.options, `${prefix}${node.name}.options.`);
				for (const choice of node.choices ?? []) {
					if (entry?.choices?.[String(choice.value)] !== choice.name) mismatched.push(`${prefix}${node.name}.choices.${choice.value}`);
				}
			}
		};
		compare(registered(), catalogueOf('en-US').commands, '');
		expect(mismatched).toEqual([]);
		// The list's description counts its page in words; the page size is what it counts.
		expect(registered().find((command) => command.name === 'flagged')?.options?.[0]?.description).toBe('Hidden replies, newest first, ten a page');
		expect(FLAG_PAGE_SIZE).toBe(10);
	});

	it('refuses to register a command, option or choice en-US.json lacks, naming it', () => {
		expect(() => commandRegistrations([{ type: 1, name: 'nobody' }])).toThrow(MissingCommandText);
		expect(() => commandRegistrations([{ type: 1, name: 'ask', options: [{ type: 3, name: 'nothing' }] }])).toThrow(
			/ask nothing is not in en-US\.json/,
		);
		expect(() => commandRegistrations([{ type: 1, name: '__proto__' }])).toThrow(MissingCommandText);
		const language = { type: 1, name: 'language', options: [{ type: 3, name: 'locale', choices: [{ value: 'xx' }] }] };
		expect(() => commandRegistrations([{ type: 1, name: 'settings', options: [language] }])).toThrow(/choice xx/);
	});

	it("sends the catalogue's words under Discord's locale codes, and the English as the command's own", () => {
		const ask = registered().find((command) => command.name === 'ask') ?? { name: 'missing' };
		expect(ask.description).toBe('Ask the model a question');
		expect(ask.name_localizations).toMatchObject({ de: 'fragen', 'es-ES': 'preguntar', 'pt-BR': 'perguntar', 'zh-CN': '提问', ja: '質問' });
		expect(Object.keys(ask.name_localizations ?? {})).not.toContain('en-US');
		const prompt = ask.options?.find((option) => option.name === 'prompt');
		expect(prompt?.description_localizations?.fr).toBe('Ta question');
		const askVeil = registered().find((command) => command.name === 'Ask Veil') ?? { name: 'missing' };
		expect(askVeil.name_localizations?.de).toBe('Veil fragen');
		expect(askVeil.description_localizations).toBeUndefined();
	});

	it('localizes choices by their value, and leaves a command the catalogues lack in English', () => {
		const command = {
			name: 'ask',
			description: 'Ask the model a question',
			options: [{ type: 3, name: 'nobody', description: 'An option no catalogue has', choices: [{ name: 'One', value: 'one' }] }],
		};
		const [localized] = localizeCommands([command as never]) as unknown as Node[];
		const option = localized?.options?.[0];
		expect(option?.name).toBe('nobody');
		expect(option?.name_localizations).toBeUndefined();
		expect(option?.choices?.[0]).toEqual({ name: 'One', value: 'one' });
		const [unknown] = localizeCommands([{ name: 'unknown', description: 'd' } as never]) as unknown as Node[];
		expect(unknown).toEqual({ name: 'unknown', description: 'd' });
	});

	it('leaves the data as it is: words are added to a copy', () => {
		const before = JSON.stringify(commandData);
		registered();
		expect(JSON.stringify(commandData)).toBe(before);
		expect(before).not.toContain('description');
	});
});
