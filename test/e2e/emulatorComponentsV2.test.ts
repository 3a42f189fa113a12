import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscordEmulator } from '../../sandbox/discord/emulator.js';

// Components V2 as Discord holds it (flag 1 << 15): no content or embeds beside it, 40 components in all, 4000
// characters of Text Display, only known component types, and the flag kept through edits.
const V2 = 1 << 15;
const text = (content: string) => ({ type: 10, content });
const button = (n: number) => ({ type: 2, style: 2, label: `b${n}`, custom_id: `x:b${n}` });
const card = (...children: unknown[]) => ({ type: 17, accent_color: 0xe67e22, components: children });

describe('the local Discord holds Components V2 messages to Discord’s rules', () => {
	let discord: DiscordEmulator;
	const send = (method: string, path: string, body: unknown) =>
		fetch(`${discord.apiUrl}/v10${path}`, {
			method,
			headers: { authorization: `Bot ${discord.token}`, 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
	const post = (body: unknown) => send('POST', `/channels/${discord.defaultChannelId}/messages`, body);
	const refusal = async (response: Response) => ({ status: response.status, body: (await response.json()) as { code: number; errors?: unknown } });

	beforeAll(async () => {
		discord = await DiscordEmulator.start();
	});
	afterAll(async () => {
		await discord?.stop();
	});

	it('takes a container with text, a separator, a section with a button and a row, and keeps its flag', async () => {
		const response = await post({
			flags: V2,
			components: [
				card(
					text('## Case #1'),
					{ type: 14, divider: true, spacing: 1 },
					{ type: 9, components: [text('who')], accessory: button(1) },
					{
						type: 1,
						components: [button(2)],
					},
				),
			],
		});
		expect(response.status).toBe(200);
		const message = (await response.json()) as { flags: number; content: string };
		expect(message.flags & V2).toBe(V2);
		expect(message.content).toBe('');
	});

	it('refuses content beside the flag', async () => {
		const { status, body } = await refusal(await post({ flags: V2, content: 'hello', components: [card(text('x'))] }));
		expect(status).toBe(400);
		expect(body.code).toBe(50035);
		expect(JSON.stringify(body.errors)).toContain('MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2');
		expect(JSON.stringify(body.errors)).toContain('content');
	});

	it('refuses embeds beside the flag', async () => {
		const { status, body } = await refusal(await post({ flags: V2, embeds: [{ title: 'old style' }], components: [card(text('x'))] }));
		expect(status).toBe(400);
		expect(JSON.stringify(body.errors)).toMatch(/"embeds":\{"_errors":\[\{"code":"MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"/);
	});

	it('refuses more than 40 components in all, nested ones counted', async () => {
		// 1 container + 8 rows × (1 row + 5 buttons) = 49.
		const rows = Array.from({ length: 8 }, (_, r) => ({ type: 1, components: Array.from({ length: 5 }, (_, b) => button(r * 5 + b)) }));
		const { status, body } = await refusal(await post({ flags: V2, components: [card(...rows)] }));
		expect(status).toBe(400);
		expect(JSON.stringify(body.errors)).toContain('40 or fewer');
		const fits = Array.from({ length: 6 }, (_, r) => ({ type: 1, components: Array.from({ length: 5 }, (_, b) => button(r * 5 + b)) }));
		expect((await post({ flags: V2, components: [card(...fits)] })).status).toBe(200);
	});

	it('refuses more than 4000 characters across its Text Displays', async () => {
		const { status, body } = await refusal(await post({ flags: V2, components: [card(text('a'.repeat(2500)), text('b'.repeat(1501)))] }));
		expect(status).toBe(400);
		expect(JSON.stringify(body.errors)).toContain('MESSAGE_TEXT_DISPLAY_TOO_LONG');
		expect((await post({ flags: V2, components: [card(text('a'.repeat(2500)), text('b'.repeat(1500)))] })).status).toBe(200);
	});

	it("refuses a component type Discord's published schema does not know, and records it", async () => {
		const response = await post({ flags: V2, components: [card({ type: 99, content: 'what is this' })] });
		expect(response.status).toBe(400);
		const violations = discord.takeApiViolations();
		expect(violations).toHaveLength(1);
		expect(violations[0]?.problems.join('\n')).toMatch(/components\.0\.components\.0\.type/);
	});

	it('refuses a container at the top of a message without the flag', async () => {
		const { status, body } = await refusal(await post({ components: [card(text('x'))] }));
		expect(status).toBe(400);
		expect(JSON.stringify(body.errors)).toContain('UI_COMPONENT_REQUIRES_COMPONENTS_V2');
	});

	it('keeps the flag through an edit: content is refused then too, and an edit without the flag stays V2', async () => {
		const created = (await (await post({ flags: V2, components: [card(text('first'))] })).json()) as { id: string };
		const path = `/channels/${discord.defaultChannelId}/messages/${created.id}`;
		expect((await send('PATCH', path, { content: 'now with content' })).status).toBe(400);
		const edited = await send('PATCH', path, { flags: 0, components: [card(text('second'))] });
		expect(edited.status).toBe(200);
		expect(((await edited.json()) as { flags: number }).flags & V2).toBe(V2);
	});
});
