import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The README is the front door: an operator copies its commands as they are, so each must exist.
const root = new URL('../../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const scripts = (JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('the README', () => {
	it('names only npm scripts package.json has', () => {
		const named = new Set([...readme.matchAll(/\bnpm run ([a-z][\w:-]*)/g)].map((match) => match[1] as string));
		expect(named.size).toBeGreaterThan(5);
		expect([...named].filter((name) => !(name in scripts))).toEqual([]);
	});

	it('runs compiled entry scripts whose sources exist, in the Procfile and package.json alike', () => {
		const procfile = readFileSync(new URL('Procfile', root), 'utf8');
		const compiled = [...`${procfile}\n${Object.values(scripts).join('\n')}`.matchAll(/dist\/(src\/\w+)\.js/g)].map((match) => match[1] as string);
		expect(compiled).toEqual(expect.arrayContaining(['src/main', 'src/deployCommands', 'src/restProxy']));
		expect(compiled.filter((path) => !existsSync(new URL(`${path}.ts`, root)))).toEqual([]);
	});
});
