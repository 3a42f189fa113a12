import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles } from '../../../eslint/importCycles.js';

const dir = mkdtempSync(join(tmpdir(), 'veil-cycles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function lint(files: Record<string, string>): Promise<string[]> {
	for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
	const eslint = new ESLint({
		cwd: dir,
		overrideConfigFile: true,
		overrideConfig: [
			{
				files: ['**/*.ts'],
				languageOptions: { parser: tseslint.parser },
				plugins: { veil: importCycles },
				rules: { 'veil/no-import-cycle': 'error' },
			},
		],
	});
	const results = await eslint.lintFiles(Object.keys(files).map((name) => join(dir, name)));
	return results.flatMap((result) => result.messages.map((message) => message.message));
}

describe('veil/no-import-cycle', () => {
	it('sees a cycle made of a type import, which import-x/no-cycle leaves out', async () => {
		const messages = await lint({
			'factory.ts':
				"import { MemoryStore } from './memory.js';\nexport interface Store { get(): string }\nexport const open = (): Store => new MemoryStore();\n",
			'memory.ts': "import type { Store } from './factory.js';\nexport class MemoryStore implements Store { get() { return ''; } }\n",
		});
		expect(messages).toEqual(['Import cycle: factory.ts → memory.ts → factory.ts', 'Import cycle: memory.ts → factory.ts → memory.ts']);
	});

	it('passes imports that only run down', async () => {
		expect(await lint({ 'top.ts': "import { leaf } from './leaf.js';\nexport const top = leaf;\n", 'leaf.ts': 'export const leaf = 1;\n' })).toEqual(
			[],
		);
	});
});
