import { describe, expect, it } from 'vitest';
import { readableText } from '../../../src/asking/messageText.js';

describe('readableText', () => {
	const message = (content: string | null, embeds: object[] = [], snapshots: object[] = []) =>
		({ content, embeds, messageSnapshots: new Map(snapshots.map((snapshot, i) => [String(i), snapshot])) }) as never;
	const embed = (title?: string, description?: string, fields: Array<{ name: string; value: string }> = []) => ({ title, description, fields });

	it("reads the content first, then a forward's snapshot, then the embeds", () => {
		expect(readableText(message('own words', [embed('t')]))).toBe('own words');
		expect(readableText(message('', [], [{ content: 'forwarded words', embeds: [] }]))).toBe('forwarded words');
		expect(readableText(message(null, [embed('Title', 'Body', [{ name: 'High', value: '21' }]), embed(undefined, 'Second')]))).toBe(
			'Title\nBody\nHigh: 21\n\nSecond',
		);
		expect(readableText(message('', [], [{ content: '', embeds: [embed('Forwarded embed')] }]))).toBe('Forwarded embed');
	});

	it('is empty for a message with nothing readable', () => {
		expect(readableText(message('  ', [embed(undefined, ' ')]))).toBe('');
		expect(readableText(message(null))).toBe('');
	});
});
