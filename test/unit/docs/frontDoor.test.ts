import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The README is the front door: an operator copies its commands as they are, so each must exist.
const root = new URL('../../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const docs = readdirSync(new URL('docs/', root)).filter((name) => name.endsWith('.md'));
const pages = new Map<string, string>([
	['README.md', readme],
	...docs.map((name) => [`docs/${name}`, readFileSync(new URL(`docs/${name}`, root), 'utf8')] as const),
]);
const scripts = (JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) =>
	heading
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');

function anchorsOf(text: string): Set<string> {
	const withoutCode = text.replace(/```[\s\S]*?```/g, '');
	return new Set([...withoutCode.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1] as string)));
}

describe('the README and docs/', () => {
	it('name only npm scripts package.json has', () => {
		const named = new Set([...pages.values()].flatMap((text) => [...text.matchAll(/\bnpm run ([a-z][\w:-]*)/g)].map((match) => match[1] as string)));
		expect(named.size).toBeGreaterThan(5);
		expect([...named].filter((name) => !(name in scripts))).toEqual([]);
	});

	it('runs compiled entry scripts whose sources exist, in the Procfile and package.json alike', () => {
		const procfile = readFileSync(new URL('Procfile', root), 'utf8');
		const compiled = [...`${procfile}\n${Object.values(scripts).join('\n')}`.matchAll(/dist\/(src\/\w+)\.js/g)].map((match) => match[1] as string);
		expect(compiled).toEqual(expect.arrayContaining(['src/main', 'src/deployCommands', 'src/restProxy']));
		expect(compiled.filter((path) => !existsSync(new URL(`${path}.ts`, root)))).toEqual([]);
	});

	it('keeps the README a front door: about 200 lines, the rest in docs/', () => {
		expect(readme.split('\n').length).toBeLessThanOrEqual(210);
		expect(readme.indexOf('npm install && npm start')).toBeLessThan(readme.indexOf('## '));
	});

	it('links only to files and headings that exist', () => {
		const broken: string[] = [];
		for (const [page, text] of pages) {
			const base = new URL(page, root);
			for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
				if (/^[a-z]+:/.test(target as string)) continue;
				const [path, anchor] = (target as string).split('#');
				const file = path === '' ? base : new URL(path as string, base);
				const relative = file.href.slice(root.href.length);
				if (!existsSync(file)) broken.push(`${page}: ${target}`);
				else if (anchor !== undefined && !anchorsOf(pages.get(relative) ?? readFileSync(file, 'utf8')).has(anchor)) broken.push(`${page}: ${target}`);
			}
		}
		expect(broken).toEqual([]);
	});
});
