import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attachmentKind } from '../../../src/files/attachmentKind.js';
import { decodeUtf8 } from '../../../src/files/decodeUtf8.js';
import { filePart } from '../../../src/files/filePart.js';

describe('attachmentKind', () => {
	it.each([
		['notes.txt', 'text/plain; charset=utf-8', 'text'],
		['data.json', 'application/json', 'text'],
		['build.log', undefined, 'text'],
		['main.rs', 'application/octet-stream', 'text'],
		['fix.diff', 'text/x-diff', 'text'],
		['config.yaml', 'application/x-yaml', 'text'],
		['feed.atom', 'application/atom+xml', 'text'],
		['Dockerfile', undefined, 'text'],
		['paper.pdf', 'application/pdf', 'pdf'],
		['paper.PDF', undefined, 'pdf'],
		['main.ts', 'video/mp2t', 'text'],
		['script.rb', 'application/x-ruby', 'text'],
		['tool.pl', 'application/x-perl', 'text'],
		['clip.mp4', 'video/mp4', 'unsupported'],
		['clip.m2ts', 'video/mp2t', 'unsupported'],
		['notes.txt', 'audio/mpeg', 'unsupported'],
		['cat.png', 'image/png', 'unsupported'],
		['code.txt', 'image/png', 'unsupported'],
		['bundle.zip', 'application/zip', 'unsupported'],
		['program.exe', undefined, 'unsupported'],
		['noextension', undefined, 'unsupported'],
	])('%s (%s) is %s', (name, type, kind) => {
		expect(attachmentKind(name, type)).toBe(kind);
	});
});

describe('decodeUtf8', () => {
	it('reads UTF-8 and drops a byte-order mark', () => {
		expect(decodeUtf8(Buffer.from('\uFEFFgrüße, 世界', 'utf8'))).toBe('grüße, 世界');
	});

	it('refuses bytes that are not UTF-8, and text holding NUL', () => {
		expect(decodeUtf8(Uint8Array.of(0x68, 0xff, 0x69))).toBeUndefined();
		expect(decodeUtf8(Uint8Array.of(0xc3))).toBeUndefined();
		expect(decodeUtf8(Buffer.from('a\u0000b'))).toBeUndefined();
	});

	it('gives back any string without NUL exactly, and refuses any Latin-1 byte on its own', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'grapheme' }), (text) => {
				fc.pre(!text.includes('\u0000') && !text.startsWith('\uFEFF'));
				expect(decodeUtf8(Buffer.from(text, 'utf8'))).toBe(text);
			}),
		);
		fc.assert(
			fc.property(fc.integer({ min: 0x80, max: 0xff }), (byte) => {
				expect(decodeUtf8(Uint8Array.of(0x61, byte))).toBeUndefined();
			}),
		);
	});
});

describe('filePart', () => {
	it('names the file and fences its text', () => {
		expect(filePart('notes.txt', 'hello')).toBe('File: notes.txt\n```\nhello\n```');
	});

	it('fences with more backticks than any run in the text, so the text cannot close it', () => {
		fc.assert(
			fc.property(fc.string(), fc.string(), (name, text) => {
				const part = filePart(name, text);
				const [header, fence] = part.split('\n');
				expect(header).toBe(`File: ${name.replace(/[\r\n]/g, ' ')}`);
				expect(fence).toMatch(/^`{3,}$/);
				expect(part.endsWith(`\n${fence}`)).toBe(true);
				const inner = part.slice(header!.length + fence!.length + 2, -(fence!.length + 1));
				expect(inner).toBe(text);
				for (const run of text.matchAll(/`+/g)) expect(run[0].length).toBeLessThan(fence!.length);
			}),
		);
	});
});
