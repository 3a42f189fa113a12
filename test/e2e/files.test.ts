import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
	type APIApplicationCommandInteractionDataOption,
	type APIAttachment,
	ApplicationCommandOptionType,
	ComponentType,
	MessageFlags,
} from 'discord.js';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeUser, type CdnFileOptions, type InteractionState } from '../../sandbox/discord/emulator.js';
import { useHarness } from '../support/harness.js';
import { answerMessages, ask, contentsOf, echoLastPrompt, followUpIdOf, generationRequestsSince, settled } from '../support/conversations.js';
import { generationResponse, ratingsWith, safeResponse } from '../support/upstreamStandIn.js';
import { makeBombPdf, makePdf } from '../support/makePdf.js';
import { ADMIN_PERMISSIONS, MODERATOR_PERMISSIONS, runSubcommand, textOf, viewFlag } from '../support/moderation.js';
import { FILE_LIMITS } from '../../src/files/readAttachments.js';

// A short download time-out: the slow file below stalls past it.
const harness = useHarness({ env: { FILE_DOWNLOAD_TIMEOUT_MS: '500' } });
const member = makeUser('filer');

beforeAll(async () => {
	await harness().linkMember(member.id);
});
beforeEach(() => {
	harness().upstream.setDefaultGeneration((request) => ({ json: safeResponse(echoLastPrompt(request)) }));
});

/** `/ask prompt file` as the member, with `file` attached through the local Discord's CDN. */
async function askWithFile(prompt: string, file: APIAttachment): Promise<InteractionState & { id: string }> {
	const options = [
		{ type: ApplicationCommandOptionType.String as const, name: 'prompt', value: prompt },
		{ type: ApplicationCommandOptionType.Attachment as const, name: 'file', value: file.id },
	];
	const handle = harness().discord.slashCommand({ name: 'ask', options, user: member });
	return { ...(await settled(harness(), handle)), id: handle.id };
}

/** The body a lone ask with files sends: the question, then each file's part. */
function bodyWith(prompt: string, ...files: string[]): string {
	return JSON.stringify({ contents: [{ parts: [{ text: prompt }, ...files.map((text) => ({ text }))] }] });
}

function attach(options: CdnFileOptions): APIAttachment {
	return harness().discord.attach(options);
}

describe('/ask with a file', () => {
	it.each([
		['notes.txt', 'text/plain; charset=utf-8', 'line one\nline two'],
		['data.json', 'application/json', '{"a": [1, 2]}'],
		['config.yaml', 'application/x-yaml', 'a: 1\nb: [x, y]'],
		['table.csv', 'text/csv', 'name,age\nAda,36'],
		['page.xml', 'application/xml', '<a><b>1</b></a>'],
		['main.py', 'application/octet-stream', 'print("hi")\n'],
		['build.log', null, 'ERROR at step 3'],
	])('sends %s (%s) as a text part after the question, byte for byte', async (filename, contentType, text) => {
		const file = attach({ filename, contentType, bytes: text });
		const before = harness().upstream.requests.length;
		const answer = await askWithFile('What does this say?', file);
		const [request] = generationRequestsSince(harness(), before);
		expect(request?.rawBody).toBe(bodyWith('What does this say?', `File: ${filename}\n\`\`\`\n${text}\n\`\`\``));
		expect(answer.original?.content).toBe('Answer to: What does this say?');
	});

	it('drops a byte-order mark and fences a file holding fences with a longer one', async () => {
		const text = 'before\n```js\nx\n```\nafter';
		const file = attach({
			filename: 'README.md',
			contentType: 'text/markdown',
			bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]),
		});
		const before = harness().upstream.requests.length;
		await askWithFile('Summarise', file);
		expect(generationRequestsSince(harness(), before)[0]?.rawBody).toBe(bodyWith('Summarise', `File: README.md\n\`\`\`\`\n${text}\n\`\`\`\``));
	});

	it("sends a PDF's text", async () => {
		const file = attach({ filename: 'report.pdf', contentType: 'application/pdf', bytes: makePdf(['Quarterly revenue rose', 'Costs fell']) });
		const before = harness().upstream.requests.length;
		await askWithFile('What happened?', file);
		expect(generationRequestsSince(harness(), before)[0]?.rawBody).toBe(
			bodyWith('What happened?', 'File: report.pdf\n```\nQuarterly revenue rose\n\nCosts fell\n```'),
		);
	});

	it('keeps the body of an ask without a file as it always was', async () => {
		const before = harness().upstream.requests.length;
		await settled(
			harness(),
			harness().discord.slashCommand({
				name: 'ask',
				options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'plain' }],
				user: member,
			}),
		);
		expect(generationRequestsSince(harness(), before)[0]?.rawBody).toBe('{"contents":[{"parts":[{"text":"plain"}]}]}');
	});
});

describe('/ask refuses a file', () => {
	/**
	 * Asks with `file` and expects a refusal naming what went wrong to the member alone (the ephemeral reply, or after
	 * a public deferral an ephemeral follow-up with no public message left), and nothing upstream.
	 */
	async function refused(file: APIAttachment): Promise<string> {
		const before = harness().upstream.requests.length;
		const answer = await askWithFile('About this', file);
		expect(generationRequestsSince(harness(), before)).toEqual([]);
		if (answer.ephemeral) return answer.original?.content ?? '';
		const left = harness()
			.discord.channelMessages(harness().discord.defaultChannelId, { all: true })
			.filter((message) => message.interactionId === answer.id && !message.deleted && (message.flags & MessageFlags.Ephemeral) === 0);
		expect(left).toEqual([]);
		const notice = answer.followUps.at(-1);
		expect((notice?.flags ?? 0) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
		return notice?.content ?? '';
	}

	it('an image, saying which kinds Veil reads, without downloading it', async () => {
		const file = attach({ filename: 'photo.png', contentType: 'image/png', bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47]) });
		const fetched = harness().discord.cdn.requests.length;
		expect(await refused(file)).toBe(
			"Veil can't read `photo.png`: it reads text files (plain text, logs, code, Markdown, JSON, XML, YAML, CSV) in UTF-8, and PDFs. Nothing was sent.",
		);
		expect(harness().discord.cdn.requests.length).toBe(fetched);
	});

	it('a text file Discord declares over 1 MiB, and a PDF over 10 MiB, without downloading them', async () => {
		const fetched = harness().discord.cdn.requests.length;
		expect(await refused(attach({ filename: 'huge.log', bytes: 'x', size: 1024 * 1024 + 1 }))).toBe(
			'`huge.log` is too large: Veil reads files of at most 1 MiB of that kind. Nothing was sent.',
		);
		expect(await refused(attach({ filename: 'huge.pdf', contentType: 'application/pdf', bytes: 'x', size: 10 * 1024 * 1024 + 1 }))).toBe(
			'`huge.pdf` is too large: Veil reads files of at most 10 MiB of that kind. Nothing was sent.',
		);
		expect(harness().discord.cdn.requests.length).toBe(fetched);
	});

	it('a file larger than declared, stopped while it streams', async () => {
		const file = attach({ filename: 'liar.txt', bytes: 'y'.repeat(1024 * 1024 + 10), size: 10, chunked: true });
		expect(await refused(file)).toBe('`liar.txt` is too large: Veil reads files of at most 1 MiB of that kind. Nothing was sent.');
	});

	it('a file over 100,000 characters', async () => {
		expect(await refused(attach({ filename: 'long.txt', bytes: 'é'.repeat(100_001) }))).toBe(
			'`long.txt` is too long: Veil reads at most 100,000 characters of a file. Send the part you are asking about. Nothing was sent.',
		);
	});

	it('text that is not UTF-8', async () => {
		expect(await refused(attach({ filename: 'latin1.txt', bytes: Buffer.from([0x63, 0x61, 0x66, 0xe9]) }))).toBe(
			"`latin1.txt` isn't UTF-8 text, so Veil can't read it. Nothing was sent.",
		);
	});

	it('a URL that is not under the CDN: never fetched, whatever the payload names', async () => {
		const seen: string[] = [];
		const elsewhere = createServer((req, res) => {
			seen.push(req.url ?? '');
			res.end('secret');
		});
		elsewhere.listen(0, '127.0.0.1');
		await once(elsewhere, 'listening');
		try {
			const url = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/cdn/ephemeral-attachments/1/notes.txt`;
			expect(await refused(attach({ filename: 'notes.txt', bytes: 'x', url }))).toBe(
				"Veil couldn't download `notes.txt` from Discord, so nothing was sent. Please try again.",
			);
			expect(seen).toEqual([]);
		} finally {
			elsewhere.close();
		}
	});

	it('a redirect, not followed', async () => {
		const target = attach({ filename: 'target.txt', bytes: 'TARGET' });
		const moved = attach({ filename: 'moved.txt', bytes: 'x', redirectTo: target.url });
		const fetched = harness().discord.cdn.requests.length;
		expect(await refused(moved)).toBe("Veil couldn't download `moved.txt` from Discord, so nothing was sent. Please try again.");
		expect(harness().discord.cdn.requests.slice(fetched)).toEqual([new URL(moved.url).pathname]);
	});

	it('a download that takes too long, with a clear answer', async () => {
		expect(await refused(attach({ filename: 'slow.txt', bytes: 'late', stallMs: 5_000 }))).toBe(
			'Downloading `slow.txt` from Discord took too long, so nothing was sent. Please try again.',
		);
	});
});

describe('a file that makes the prompt unsafe', () => {
	it('is hidden and flagged, the file kept in the flag, sealed', async () => {
		const canary = 'FILE-TEXT-CANARY-4242';
		harness().upstream.scriptGeneration({
			json: generationResponse({ text: 'unsafe answer', promptRatings: ratingsWith({ HARM_CATEGORY_DANGEROUS_CONTENT: 'HIGH' }) }),
		});
		const answer = await askWithFile('Read this', attach({ filename: 'plan.txt', bytes: canary }));
		expect(answer.original?.content).toMatch(/hidden/);
		const flagId = /`([a-z0-9]+)`/.exec(answer.original?.content ?? '')?.[1] as string;
		const flag = await harness().bot.context.flags.find(harness().discord.defaultGuild.id, flagId);
		expect(flag).toMatchObject({ prompt: 'Read this', files: [{ name: 'plan.txt', text: canary }], text: 'unsafe answer' });
		// Sealed: the stored record holds neither the file's text nor its name in plain.
		const { readFileSync } = await import('node:fs');
		const bytes = readFileSync(harness().sqliteFile);
		expect(bytes.includes(Buffer.from(canary))).toBe(false);
		expect(bytes.includes(Buffer.from('plan.txt'))).toBe(false);

		// A moderator's view names the file; its text is attached with the prompt, as it went upstream.
		const moderator = { user: makeUser('file-moderator'), guild: harness().discord.defaultGuild, permissions: MODERATOR_PERMISSIONS };
		const view = await viewFlag(harness(), moderator, flagId);
		expect(textOf(view)).toContain('**Files sent with the prompt** `plan.txt`');
		expect(textOf(view)).toContain("-# The files' text is attached with the prompt as prompt.md.");
		const attached = view.original?.files.find((file) => file.filename === 'prompt.md');
		expect(attached?.data.toString('utf8')).toBe(`Read this\n\nFile: plan.txt\n\`\`\`\n${canary}\n\`\`\``);
	});
});

describe('the Follow up form', () => {
	/** Asks, presses Follow up on the answer, and sends `prompt` with `files` in its form. */
	async function followUpWith(answered: InteractionState, prompt: string, files: APIAttachment[]) {
		const message = answerMessages(answered).at(-1);
		const press = await harness()
			.discord.button({ customId: followUpIdOf(answered), message, user: member })
			.waitForAnswer();
		const form = press.modal;
		if (!form) throw new Error(`no form: ${press.original?.content}`);
		const answer = await settled(
			harness(),
			harness().discord.modalSubmit({ customId: form.custom_id, fields: { prompt }, files: { files }, user: member }),
		);
		return { form, answer };
	}

	it('offers an upload of up to 3 files, which go as parts of the new turn, and are kept for the next', async () => {
		const first = await askWithFile('First', attach({ filename: 'a.txt', bytes: 'AAA' }));
		const before = harness().upstream.requests.length;
		const { form, answer } = await followUpWith(first, 'Compare', [
			attach({ filename: 'b.txt', bytes: 'BBB' }),
			attach({ filename: 'c.md', bytes: 'CCC' }),
		]);
		const upload = (form.components as unknown as Array<{ type: number; component: Record<string, unknown> }>).find(
			(c) => c.component.type === ComponentType.FileUpload,
		);
		expect(upload?.component).toMatchObject({ custom_id: 'files', min_values: 0, max_values: 3, required: false });
		expect(answer.original?.content).toBe('Answer to: Compare');
		expect(generationRequestsSince(harness(), before)[0]?.rawBody).toBe(
			JSON.stringify({
				contents: [
					{ role: 'user', parts: [{ text: 'First' }, { text: 'File: a.txt\n```\nAAA\n```' }] },
					{ role: 'model', parts: [{ text: 'Answer to: First' }] },
					{ role: 'user', parts: [{ text: 'Compare' }, { text: 'File: b.txt\n```\nBBB\n```' }, { text: 'File: c.md\n```\nCCC\n```' }] },
				],
			}),
		);
	});

	it('sends a follow-up without files as before', async () => {
		const first = await askWithFile('One', attach({ filename: 'a.txt', bytes: 'A' }));
		const before = harness().upstream.requests.length;
		await followUpWith(first, 'Two', []);
		const contents = contentsOf(generationRequestsSince(harness(), before)[0]);
		expect(contents.at(-1)).toEqual({ role: 'user', parts: [{ text: 'Two' }] });
	});

	it('refuses an image in the form, to the member alone, with nothing upstream', async () => {
		const first = await askWithFile('One', attach({ filename: 'a.txt', bytes: 'A' }));
		const before = harness().upstream.requests.length;
		const { answer } = await followUpWith(first, 'Two', [attach({ filename: 'x.png', contentType: 'image/png', bytes: 'png' })]);
		expect(answer.ephemeral).toBe(true);
		expect(answer.original?.content).toMatch(/^Veil can't read `x.png`/);
		expect(generationRequestsSince(harness(), before)).toEqual([]);
	});

	it('names a file too large for the conversation, which is then sent by name only', async () => {
		const big = 'z'.repeat(20_000);
		const first = await askWithFile('Big one', attach({ filename: 'big.txt', bytes: big }));
		const before = harness().upstream.requests.length;
		const { form } = await followUpWith(first, 'And now?', []);
		const upload = (form.components as unknown as Array<{ type: number; description?: string; component: Record<string, unknown> }>).find(
			(c) => c.component.type === ComponentType.FileUpload,
		);
		expect(upload?.description).toBe('Too large to keep: big.txt. Attach again to ask about it.');
		expect(contentsOf(generationRequestsSince(harness(), before)[0])[0]).toEqual({
			role: 'user',
			parts: [{ text: 'Big one' }, { text: 'File: big.txt (too large to keep in this conversation; its text is no longer available)' }],
		});
	});
});

describe('Ask Veil on a message with attachments', () => {
	const author = makeUser('poster');

	async function askVeil(content: string, attachments: APIAttachment[], question: string) {
		const target = harness().discord.postAsMember({ user: author, content, attachments });
		const picked = await harness().discord.messageCommand({ name: 'Ask Veil', target, user: member }).waitForAnswer();
		if (!picked.modal) return { picked, answer: undefined };
		const answer = await settled(harness(), harness().discord.modalSubmit({ customId: picked.modal.custom_id, fields: { question }, user: member }));
		return { picked, answer };
	}

	it('sends the quoted message, the question, then each attachment as a part', async () => {
		const before = harness().upstream.requests.length;
		const { answer } = await askVeil(
			'See the log',
			[
				attach({ filename: 'run.log', bytes: 'boom' }),
				attach({ filename: 'spec.pdf', contentType: 'application/pdf', bytes: makePdf(['Spec text']) }),
			],
			'Why did it fail?',
		);
		expect(answer?.original?.content).toBe('Answer to: > See the log\n\nWhy did it fail?');
		expect(generationRequestsSince(harness(), before)[0]?.rawBody).toBe(
			bodyWith('> See the log\n\nWhy did it fail?', 'File: run.log\n```\nboom\n```', 'File: spec.pdf\n```\nSpec text\n```'),
		);
	});

	it('asks about a message of files alone by its files', async () => {
		const before = harness().upstream.requests.length;
		const { answer } = await askVeil('', [attach({ filename: 'notes.txt', bytes: 'just a file' })], 'Summarise');
		expect(answer?.original?.content).toBe('Answer to: Summarise');
		expect(generationRequestsSince(harness(), before)[0]?.rawBody).toBe(bodyWith('Summarise', 'File: notes.txt\n```\njust a file\n```'));
	});

	it("reads the attachments of a forwarded message's snapshot", async () => {
		const original = harness().discord.postAsMember({
			user: author,
			content: '',
			attachments: [attach({ filename: 'trace.log', bytes: 'stack trace' })],
		});
		const forward = harness().discord.postAsMember({ user: author, content: '', forwardOf: original });
		const before = harness().upstream.requests.length;
		const picked = await harness().discord.messageCommand({ name: 'Ask Veil', target: forward, user: member }).waitForAnswer();
		const answer = await settled(
			harness(),
			harness().discord.modalSubmit({ customId: picked.modal?.custom_id as string, fields: { question: 'What broke?' }, user: member }),
		);
		expect(answer.original?.content).toBe('Answer to: What broke?');
		expect(generationRequestsSince(harness(), before)[0]?.rawBody).toBe(bodyWith('What broke?', 'File: trace.log\n```\nstack trace\n```'));
	});

	it('refuses an image on the message before its form opens', async () => {
		const { picked } = await askVeil('pic', [attach({ filename: 'cat.jpg', contentType: 'image/jpeg', bytes: 'jpg' })], 'unused');
		expect(picked.modal).toBeUndefined();
		expect(picked.ephemeral).toBe(true);
		expect(picked.original?.content).toMatch(/^Veil can't read `cat.jpg`/);
	});

	it('refuses files too long together', async () => {
		const files = [1, 2, 3].map((n) => attach({ filename: `part${n}.txt`, bytes: 'q'.repeat(70_000) }));
		const before = harness().upstream.requests.length;
		const { answer } = await askVeil('three parts', files, 'Read all');
		expect(generationRequestsSince(harness(), before)).toEqual([]);
		expect(answer?.followUps.at(-1)?.content).toBe(
			'Your files are too long together: Veil reads at most 200,000 characters of files with one question. Nothing was sent.',
		);
	});
});

describe('limits', () => {
	it('count an ask with files once toward the daily limit; a refused file counts nothing', async () => {
		const guild = harness().discord.addGuild({ channels: [{ name: 'general' }] });
		const admin = { user: makeUser('limits-admin'), guild, permissions: ADMIN_PERMISSIONS };
		await runSubcommand(harness(), admin, 'settings', 'limits', [{ type: ApplicationCommandOptionType.Integer, name: 'asks_per_day', value: 2 }]);
		const askHere = (file?: APIAttachment) => {
			const options: APIApplicationCommandInteractionDataOption[] = [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'q' }];
			if (file) options.push({ type: ApplicationCommandOptionType.Attachment, name: 'file', value: file.id });
			return settled(harness(), harness().discord.slashCommand({ name: 'ask', options, user: member, guildId: guild.id }));
		};
		expect((await askHere(attach({ filename: 'one.txt', bytes: '1' }))).original?.content).toBe('Answer to: q');
		expect((await askHere(attach({ filename: 'one.png', contentType: 'image/png', bytes: 'p' }))).original?.content).toMatch(/^Veil can't read/);
		expect((await askHere(attach({ filename: 'two.pdf', contentType: 'application/pdf', bytes: makePdf(['2']) }))).original?.content).toBe(
			'Answer to: q',
		);
		const third = await askHere(attach({ filename: 'three.txt', bytes: '3' }));
		expect(third.original?.content).toMatch(/^You've reached this server's limit of 2 questions a day/);
	});
});

describe('a PDF that inflates to 2 GiB', () => {
	it("is refused within the PDF time limit plus 1 s, while another member's ask is answered as usual", async () => {
		const bystander = makeUser('bystander');
		await harness().linkMember(bystander.id);
		// Deflated twice, a few kB: downloaded well within this harness's short download time-out.
		const bomb = attach({ filename: 'bomb.pdf', contentType: 'application/pdf', bytes: makeBombPdf(2048 * 1024 * 1024, { layers: 2 }) });
		const before = harness().upstream.requests.length;
		const options = [
			{ type: ApplicationCommandOptionType.String as const, name: 'prompt', value: 'About this' },
			{ type: ApplicationCommandOptionType.Attachment as const, name: 'file', value: bomb.id },
		];
		const handle = harness().discord.slashCommand({ name: 'ask', options, user: member });
		const path = new URL(bomb.url).pathname;
		await harness().discord.waitUntil(() => harness().discord.cdn.requests.includes(path), 'the bomb to be downloaded', 5_000);
		const reading = performance.now();
		// As `settled`, with room for the PDF's whole time limit: answered, and the bot done with it by its own log.
		const finished = (line: string) => line.includes(`"interactionId":"${handle.id}"`) && line.includes('"msg":"interaction handled"');
		const refusal = harness()
			.discord.waitUntil(() => harness().logs.some(finished), 'the bot to finish the bomb', FILE_LIMITS.pdfTimeoutMs + 5_000)
			.then(() => handle.state());

		// While the bomb is read, another member asks and is answered as ever, within Discord's 3 s (pdf.js on the
		// bot's own thread held it for minutes).
		const asked = performance.now();
		const other = await ask(harness(), bystander, 'Still there?');
		expect(other.original?.content).toBe('Answer to: Still there?');
		expect(performance.now() - asked).toBeLessThan(3_000);

		const answer = await refusal;
		expect(performance.now() - reading).toBeLessThan(FILE_LIMITS.pdfTimeoutMs + 1_000);
		const notice = answer.ephemeral ? answer.original : answer.followUps.at(-1);
		expect([
			'`bomb.pdf` is too large to read once uncompressed. Nothing was sent.',
			'Reading the text of `bomb.pdf` took too long. Nothing was sent.',
		]).toContain(notice?.content);
		expect(generationRequestsSince(harness(), before).filter((request) => request.rawBody.includes('bomb.pdf'))).toEqual([]);
		// The bot is still there, and reads an ordinary PDF.
		const file = attach({ filename: 'after.pdf', contentType: 'application/pdf', bytes: makePdf(['Still fine']) });
		const afterBomb = harness().upstream.requests.length;
		expect((await askWithFile('And this?', file)).original?.content).toBe('Answer to: And this?');
		expect(generationRequestsSince(harness(), afterBomb)[0]?.rawBody).toBe(bodyWith('And this?', 'File: after.pdf\n```\nStill fine\n```'));
	});
});
