import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { promptOf, talkMessageSchema, talksToVeil, type TalkMessage } from '../../../src/talk/talkMessage.js';
import { mentionsOn } from '../../../src/talk/talkRouter.js';

const BOT = '1000';
const ada = { id: '2000', username: 'ada', global_name: 'Ada' };

function message(fields: Partial<TalkMessage> & Record<string, unknown>): TalkMessage & Record<string, unknown> {
	return { id: '1', channel_id: '2', guild_id: '3', author: ada, content: '', mentions: [], attachments: [], ...fields };
}

const NO_NAMES = { roles: new Map<string, string>(), channels: new Map<string, string>() };

describe('talksToVeil', () => {
	it('takes a member’s DM, and a server message only when it mentions Veil', () => {
		expect(talksToVeil(message({ guild_id: undefined }), BOT)).toBe(true);
		expect(talksToVeil(message({}), BOT)).toBe(false);
		expect(talksToVeil(message({ mentions: [{ id: BOT, username: 'veil' }] }), BOT)).toBe(true);
	});

	it('never takes a bot’s, a webhook’s or Veil’s own message', () => {
		const mentioned = { guild_id: undefined, mentions: [{ id: BOT, username: 'veil' }] };
		expect(talksToVeil(message({ ...mentioned, author: { ...ada, bot: true } }), BOT)).toBe(false);
		expect(talksToVeil(message({ ...mentioned, webhook_id: '9' }), BOT)).toBe(false);
		expect(talksToVeil(message({ ...mentioned, author: { id: BOT, username: 'veil' } }), BOT)).toBe(false);
	});

	it('never throws, whatever the packet', () => {
		fc.assert(fc.property(fc.anything(), (d) => typeof talksToVeil(d, BOT) === 'boolean'));
	});
});

describe('promptOf', () => {
	it('removes Veil’s mentions and writes other mentions as names', () => {
		const parsed = talkMessageSchema.parse(
			message({ content: `<@${BOT}> ask <@!2000> about <@&55> in <#66> @everyone`, mentions: [{ id: BOT, username: 'veil' }, ada] }),
		);
		const names = { roles: new Map([['55', 'mods']]), channels: new Map([['66', 'general']]) };
		expect(promptOf(parsed, BOT, names)).toBe('ask @Ada about @mods in #general @\u200beveryone');
	});

	it('leaves no mention syntax that could ping, whatever the message', () => {
		const mention = fc.oneof(
			fc.constantFrom(`<@${BOT}>`, '<@2000>', '<@!2000>', '<@&55>', '<#66>', '@everyone', '@here'),
			fc.string({ maxLength: 5 }),
		);
		fc.assert(
			fc.property(fc.array(mention, { maxLength: 8 }), (parts) => {
				const prompt = promptOf(talkMessageSchema.parse(message({ content: parts.join(' '), mentions: [ada] })), BOT, NO_NAMES);
				return !/<@[!&]?\d+>/.test(prompt) && !/@(everyone|here)\b/.test(prompt);
			}),
		);
	});
});

describe('mentionsOn', () => {
	it('is on by default, off in the whole server or in a channel and its threads', () => {
		expect(mentionsOn(undefined, 'c', undefined)).toBe(true);
		expect(mentionsOn({ off: true }, 'c', undefined)).toBe(false);
		expect(mentionsOn({ offIn: ['c'] }, 'c', undefined)).toBe(false);
		expect(mentionsOn({ offIn: ['c'] }, 't', 'c')).toBe(false);
		expect(mentionsOn({ offIn: ['c'] }, 'd', undefined)).toBe(true);
	});
});
