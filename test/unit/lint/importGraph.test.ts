import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { cruise, type IConfiguration } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'veil-graph-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The violations the project's own rules (.dependency-cruiser.js) find in `files`, as `rule: from → to`. */
async function violations(files: Record<string, string>): Promise<string[]> {
	const root = mkdtempSync(join(dir, 'tree-'));
	for (const [name, text] of Object.entries(files)) {
		mkdirSync(dirname(join(root, name)), { recursive: true });
		writeFileSync(join(root, name), text);
	}
	const { default: config } = (await import(resolve(import.meta.dirname, '../../../.dependency-cruiser.js'))) as { default: IConfiguration };
	const { tsConfig: _tsConfig, ...options } = config.options ?? {};
	const { output } = await cruise([...new Set(Object.keys(files).map((name) => name.split('/')[0] ?? name))], {
		...options,
		ruleSet: { forbidden: config.forbidden ?? [] },
		validate: true,
		baseDir: root,
	});
	if (typeof output === 'string') throw new Error('dependency-cruiser answered text, not a result');
	return output.summary.violations.map(({ rule, from, to }) => `${rule.name}: ${from} → ${to}`);
}

describe('the import graph (dependency-cruiser)', () => {
	it('sees a cycle made only of type imports', async () => {
		expect(
			await violations({
				'src/storage/store.ts':
					"import type { Memory } from './memory.js';\nexport interface Store { get(): string }\nexport type Backends = Memory;\n",
				'src/storage/memory.ts': "import type { Store } from './store.js';\nexport interface Memory extends Store { size: number }\n",
			}),
		).toEqual([expect.stringMatching(/^no-import-cycle: src\/storage\/(store|memory)\.ts → src\/storage\/(memory|store)\.ts$/)]);
	});

	it('refuses an import up the layers, a type import too, and passes one down', async () => {
		expect(
			await violations({
				'src/storage/store.ts': "import type { Asker } from '../asking/asker.js';\nexport const name = (asker: Asker): string => asker.name;\n",
				'src/asking/asker.ts': "import { leaf } from '../text/leaf.js';\nexport interface Asker { name: string }\nexport const depth = leaf;\n",
				'src/text/leaf.ts': 'export const leaf = 1;\n',
				'commands/ask.ts': "import { depth } from '../src/asking/asker.js';\nexport const ask = depth;\n",
			}),
		).toEqual(['no-arrow-back-up:src/storage: src/storage/store.ts → src/asking/asker.ts']);
	});
});
