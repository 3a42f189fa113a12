import { describe, expect, it } from 'vitest';
import { buildContents, CHARACTER_LIMIT, type Turn } from '../../../src/conversations/buildContents.js';
import { generationBody } from '../../../src/generation/generationBody.js';
import { filesNotKept, filesToKeep } from '../../../src/conversations/keepFiles.js';

describe('generationBody with files', () => {
	it('sends a lone prompt with files as one content item without a role, the question first', () => {
		const body = generationBody({ role: 'user', text: 'Q', files: [{ name: 'a.txt', text: 'A' }] });
		expect(body).toBe('{"contents":[{"parts":[{"text":"Q"},{"text":"File: a.txt\\n```\\nA\\n```"}]}]}');
	});

	it('names a file a conversation could not keep', () => {
		const body = JSON.parse(
			generationBody([
				{ role: 'user', text: 'Q', files: [{ name: 'big.log' }] },
				{ role: 'model', text: 'A' },
			]),
		) as unknown;
		expect(body).toEqual({
			contents: [
				{ role: 'user', parts: [{ text: 'Q' }, { text: 'File: big.log (too large to keep in this conversation; its text is no longer available)' }] },
				{ role: 'model', parts: [{ text: 'A' }] },
			],
		});
	});
});

describe('buildContents with instructions', () => {
	it('puts them first and never trims them, the oldest turns going instead', () => {
		const history: Turn[] = [
			{ role: 'user', text: 'x'.repeat(7_000) },
			{ role: 'model', text: 'y'.repeat(7_000) },
			{ role: 'user', text: 'p'.repeat(100), files: [{ name: 'f', text: 'f'.repeat(1_000) }] },
			{ role: 'model', text: 'z'.repeat(100) },
		];
		const turns = buildContents(history, 'new', 'i'.repeat(2_000));
		expect(turns.map((turn) => turn.text.slice(0, 13))).toEqual(['Instructions ', 'Understood.', 'p'.repeat(13), 'z'.repeat(13), 'new']);
		expect(turns[2]?.files).toEqual([{ name: 'f', text: 'f'.repeat(1_000) }]);
	});

	it('sends a lone ask with instructions with roles on every turn', () => {
		expect(JSON.parse(generationBody(buildContents([], 'Q', 'Be kind.')))).toEqual({
			contents: [
				{ role: 'user', parts: [{ text: "Instructions from this server's moderators:\nBe kind." }] },
				{ role: 'model', parts: [{ text: 'Understood.' }] },
				{ role: 'user', parts: [{ text: 'Q' }] },
			],
		});
	});
});

describe('filesToKeep', () => {
	it('keeps files whole while they fit beside the prompt and answer, the rest by name', () => {
		const room = CHARACTER_LIMIT - 1 - 1 - 1;
		const kept = filesToKeep(
			[
				{ name: 'a', text: 'a'.repeat(room - 10) },
				{ name: 'b', text: 'b'.repeat(11) },
				{ name: 'c', text: 'c'.repeat(10) },
			],
			'P',
			'A',
		);
		expect(kept.map((file) => [file.name, file.text?.length])).toEqual([
			['a', room - 10],
			['b', undefined],
			['c', 10],
		]);
		expect(filesNotKept([{ files: kept }])).toEqual(['b']);
	});
});
