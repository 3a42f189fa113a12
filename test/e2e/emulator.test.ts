import { once } from 'node:events';
import {
	ActionRowBuilder,
	ApplicationCommandOptionType,
	AttachmentBuilder,
	ButtonBuilder,
	ButtonStyle,
	ChannelType,
	Client,
	ComponentType,
	DiscordAPIError,
	DiscordjsError,
	DiscordjsErrorCodes,
	Events,
	GatewayIntentBits,
	GatewayOpcodes,
	type Interaction,
	InteractionResponseType,
	LabelBuilder,
	MessageFlags,
	ModalBuilder,
	OverwriteType,
	PermissionFlagsBits,
	Routes,
	type TextChannel,
	TextInputBuilder,
	TextInputStyle,
} from 'discord.js';
import { WebSocket } from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiscordEmulator, makeUser, type DiscordEmulatorOptions } from '../../sandbox/discord/emulator.js';

let emulator: DiscordEmulator;
let client: Client | undefined;
let handler: (interaction: Interaction) => Promise<void>;
let handlerErrors: unknown[];

beforeEach(async () => {
	emulator = await DiscordEmulator.start();
	handler = async () => undefined;
	handlerErrors = [];
});

afterEach(async () => {
	await client?.destroy();
	client = undefined;
	await emulator.stop();
	expect(handlerErrors).toEqual([]);
});

/** Logs a real discord.js client in against the emulator and waits for clientReady. */
async function connect(): Promise<Client> {
	const c = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: emulator.apiUrl } });
	client = c;
	c.on(Events.InteractionCreate, (interaction) => {
		handler(interaction).catch((error: unknown) => handlerErrors.push(error));
	});
	const ready = once(c, Events.ClientReady);
	await c.login(emulator.token);
	await ready;
	return c;
}

async function restart(options: DiscordEmulatorOptions): Promise<void> {
	await emulator.stop();
	emulator = await DiscordEmulator.start(options);
}

describe('discord emulator with a real discord.js client', () => {
	it('logs in, sends READY and GUILD_CREATE, and the guild is cached with channels, roles and members.me', async () => {
		const c = await connect();
		expect(c.user?.id).toBe(emulator.bot.id);
		expect(c.application?.id).toBe(emulator.applicationId);
		const guild = c.guilds.cache.get(emulator.defaultGuild.id);
		expect(guild?.available).toBe(true);
		expect(guild?.name).toBe(emulator.defaultGuild.name);
		const channel = guild?.channels.cache.get(emulator.defaultChannelId);
		expect(channel?.type).toBe(ChannelType.GuildText);
		expect(guild?.members.me?.id).toBe(emulator.bot.id);
		expect(guild?.members.me?.permissions.has(PermissionFlagsBits.SendMessages)).toBe(true);
		expect(guild?.members.me?.permissions.has(PermissionFlagsBits.ManageMessages)).toBe(false);
		expect(emulator.identifyCount).toBe(1);
		expect(emulator.identifies[0]?.intents).toBe(GatewayIntentBits.Guilds);
		expect(emulator.identifies[0]?.shard).toEqual([0, 1]);
		const gatewayBot = emulator.requests.find((r) => r.path === '/gateway/bot');
		expect(gatewayBot?.headers.authorization).toBe(`Bot ${emulator.token}`);
		expect(gatewayBot?.status).toBe(200);
	});

	it('records a slash command reply with its allowed_mentions, and only unsuppressed mentions ping', async () => {
		await connect();
		const seen: string[] = [];
		handler = async (interaction) => {
			if (!interaction.isChatInputCommand()) return;
			const prompt = interaction.options.getString('prompt', true);
			seen.push(prompt);
			const content = `<@${interaction.user.id}> asked: ${prompt}`;
			if (interaction.commandName === 'quiet') {
				const response = await interaction.reply({ content, allowedMentions: { parse: [] }, withResponse: true });
				seen.push(response.resource?.message?.content ?? 'no message');
			} else {
				await interaction.reply({ content });
			}
		};
		const quiet = emulator.slashCommand({ name: 'quiet', options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'hi' }] });
		const state = await quiet.waitForAnswer();
		expect(state.callbacks.map((c) => c.type)).toEqual([InteractionResponseType.ChannelMessageWithSource]);
		expect(state.callbacks[0]?.data.allowed_mentions).toEqual({ parse: [] });
		expect(state.original?.content).toBe(`<@${emulator.defaultUser.id}> asked: hi`);
		expect(state.original?.allowed_mentions).toEqual({ parse: [] });
		expect(state.original?.mentions).toEqual([]);
		expect(state.ephemeral).toBe(false);
		const callback = emulator.requests.find((r) => r.path === `/interactions/${quiet.id}/${quiet.token}/callback`);
		expect(callback?.query.get('with_response')).toBe('true');
		expect(callback?.headers.authorization).toBeUndefined();
		await emulator.waitUntil(() => seen.length === 2, 'the handler to read the callback response');
		expect(seen).toEqual(['hi', state.original?.content]);

		const loud = await emulator
			.slashCommand({ name: 'loud', options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'yo' }] })
			.waitForAnswer();
		expect(loud.original?.mentions.map((u) => u.id)).toEqual([emulator.defaultUser.id]);
		expect(emulator.requests.find((r) => r.path.endsWith('/callback') && r.query.get('with_response') === 'false')).toBeDefined();
	});

	it('resolves USER and CHANNEL options, uses registered command ids, and honours memberPermissions', async () => {
		const c = await connect();
		const [registered] = await c
			.application!.commands.set(
				[{ name: 'inspect', description: 'Inspect', options: [{ type: ApplicationCommandOptionType.User, name: 'target', description: 'who' }] }],
				emulator.defaultGuild.id,
			)
			.then((set) => [...set.values()]);
		expect(emulator.registeredCommands({ guildId: emulator.defaultGuild.id }).map((cmd) => cmd.name)).toEqual(['inspect']);
		const target = makeUser('target');
		handler = async (interaction) => {
			if (!interaction.isChatInputCommand()) return;
			const user = interaction.options.getUser('target', true);
			const channel = interaction.options.getChannel('where', true);
			const canManage = interaction.memberPermissions?.has(PermissionFlagsBits.ManageMessages) ?? false;
			await interaction.reply({
				content: `${interaction.commandId}|${user.username}|${channel.name}|${canManage}|${interaction.appPermissions.has(PermissionFlagsBits.SendMessages)}`,
				allowedMentions: { parse: [] },
			});
		};
		const options = [
			{ type: ApplicationCommandOptionType.User, name: 'target', value: target.id },
			{ type: ApplicationCommandOptionType.Channel, name: 'where', value: emulator.defaultChannelId },
		] as const;
		const plain = await emulator.slashCommand({ name: 'inspect', options: [...options] }).waitForAnswer();
		expect(plain.original?.content).toBe(`${registered?.id}|target|general|false|true`);
		const moderator = await emulator
			.slashCommand({
				name: 'inspect',
				options: [...options],
				memberPermissions: PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ManageMessages,
			})
			.waitForAnswer();
		expect(moderator.original?.content).toBe(`${registered?.id}|target|general|true|true`);
	});

	it('records an ephemeral deferral, then the PATCH of @original that carries the answer', async () => {
		await connect();
		let release!: () => void;
		const gate = new Promise<void>((resolve) => (release = resolve));
		handler = async (interaction) => {
			if (!interaction.isChatInputCommand()) return;
			await interaction.deferReply({ flags: MessageFlags.Ephemeral });
			await gate;
			await interaction.editReply({ content: 'done', allowedMentions: { parse: [] } });
		};
		const handle = emulator.slashCommand({ name: 'ask' });
		const deferred = await handle.waitFor((s) => s.callbacks.length === 1);
		expect(deferred.callbacks[0]?.type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
		expect(deferred.original?.deferred).toBe(true);
		expect(deferred.original?.content).toBe('');
		expect(deferred.ephemeral).toBe(true);
		expect(deferred.deferredAt).toBeTypeOf('number');
		expect(deferred.originalEdits).toBe(0);
		release();
		const answered = await handle.waitForAnswer();
		expect(answered.originalEdits).toBe(1);
		expect(answered.original?.content).toBe('done');
		expect(answered.original?.deferred).toBe(false);
		expect(answered.ephemeral).toBe(true);
		expect((answered.original?.flags ?? 0) & MessageFlags.Loading).toBe(0);
		const patch = emulator.requests.find((r) => r.method === 'PATCH');
		expect(patch?.path).toBe(`/webhooks/${emulator.applicationId}/${handle.token}/messages/@original`);
		expect(patch?.headers.authorization).toBeUndefined();
		expect(patch?.json).toMatchObject({ content: 'done', allowed_mentions: { parse: [] } });
	});

	it('forgets answered interactions, their messages and requests on demand, and answers the next one as before', async () => {
		await connect();
		handler = async (interaction) => {
			if (!interaction.isChatInputCommand()) return;
			await interaction.deferReply();
			await interaction.editReply({ content: `answer to ${interaction.options.getString('prompt')}`, allowedMentions: { parse: [] } });
		};
		const first = emulator.slashCommand({ name: 'ask', options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'one' }] });
		await first.waitForAnswer();
		expect(emulator.channelMessages(emulator.defaultChannelId, { all: true }).map((m) => m.content)).toEqual(['answer to one']);

		emulator.forgetInteractions();
		expect(emulator.requests).toEqual([]);
		expect(emulator.channelMessages(emulator.defaultChannelId, { all: true })).toEqual([]);
		await expect(
			client?.rest.patch(Routes.webhookMessage(emulator.applicationId, first.token, '@original'), { body: { content: 'late' }, auth: false }),
		).rejects.toThrow(/Unknown/);

		const second = emulator.slashCommand({ name: 'ask', options: [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: 'two' }] });
		expect((await second.waitForAnswer()).original?.content).toBe('answer to two');
		expect(emulator.channelMessages(emulator.defaultChannelId, { all: true }).map((m) => m.content)).toEqual(['answer to two']);
	});

	it('records a follow-up with a file attachment sent as multipart, bytes included', async () => {
		await connect();
		const names: string[] = [];
		handler = async (interaction) => {
			if (!interaction.isChatInputCommand()) return;
			await interaction.reply({ content: 'see below' });
			const message = await interaction.followUp({
				content: 'attached',
				files: [new AttachmentBuilder(Buffer.from('hello file'), { name: 'note.txt' })],
			});
			names.push(message.attachments.first()?.name ?? 'none');
		};
		const handle = emulator.slashCommand({ name: 'export' });
		const state = await handle.waitFor((s) => s.followUps.length === 1);
		const followUp = state.followUps[0];
		expect(followUp?.content).toBe('attached');
		expect(followUp?.files.map((f) => [f.filename, f.data.toString()])).toEqual([['note.txt', 'hello file']]);
		expect(followUp?.attachments[0]).toMatchObject({ filename: 'note.txt', size: 10 });
		expect(followUp?.interaction_metadata).toMatchObject({ id: handle.id, original_response_message_id: state.original?.id });
		const post = emulator.requests.find((r) => r.method === 'POST' && r.path.startsWith('/webhooks/'));
		expect(post?.headers['content-type']).toMatch(/^multipart\/form-data/);
		expect(post?.query.get('wait')).toBe('true');
		expect(post?.files[0]?.field).toBe('files[0]');
		expect(post?.files[0]?.data.toString()).toBe('hello file');
		await emulator.waitUntil(() => names.length === 1, 'discord.js to build the follow-up message');
		expect(names).toEqual(['note.txt']);
	});

	it('shows a Label-based modal and reads the submission back with fields.getTextInputValue', async () => {
		await connect();
		handler = async (interaction) => {
			if (interaction.isChatInputCommand()) {
				const modal = new ModalBuilder()
					.setCustomId('link-modal')
					.setTitle('Link your account')
					.addLabelComponents(
						new LabelBuilder().setLabel('Email').setTextInputComponent(new TextInputBuilder().setCustomId('email').setStyle(TextInputStyle.Short)),
					);
				await interaction.showModal(modal);
			} else if (interaction.isModalSubmit()) {
				await interaction.reply({
					content: `got ${interaction.fields.getTextInputValue('email')}`,
					flags: MessageFlags.Ephemeral,
				});
			}
		};
		const command = await emulator.slashCommand({ name: 'link' }).waitForAnswer();
		expect(command.callbacks[0]?.type).toBe(InteractionResponseType.Modal);
		expect(command.modal?.custom_id).toBe('link-modal');
		expect(command.modal?.components[0]?.type).toBe(ComponentType.Label);
		expect(() => emulator.modalSubmit({ customId: 'link-modal', fields: { password: 'x' } })).toThrow(/no input password/);
		const submit = emulator.modalSubmit({ customId: 'link-modal', fields: { email: 'a@example.com' } });
		expect((submit.payload.data as { components: Array<{ type: number }> }).components[0]?.type).toBe(ComponentType.Label);
		const answered = await submit.waitForAnswer();
		expect(answered.original?.content).toBe('got a@example.com');
		expect(answered.ephemeral).toBe(true);
	});

	it('delivers a button press on the message that carries it, and update() edits that message', async () => {
		await connect();
		handler = async (interaction) => {
			if (interaction.isChatInputCommand()) {
				const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
					new ButtonBuilder().setCustomId('menu:next').setLabel('Next').setStyle(ButtonStyle.Primary),
				);
				await interaction.reply({ content: 'page 1', components: [row] });
			} else if (interaction.isButton()) {
				await interaction.update({ content: `page 2 after ${interaction.message.content}`, components: [] });
			}
		};
		const command = await emulator.slashCommand({ name: 'menu' }).waitForAnswer();
		const press = emulator.button({ customId: 'menu:next' });
		expect((press.payload.message as { id: string }).id).toBe(command.original?.id);
		const pressed = await press.waitForAnswer();
		expect(pressed.callbacks.map((c) => c.type)).toEqual([InteractionResponseType.UpdateMessage]);
		expect(pressed.original?.id).toBe(command.original?.id);
		expect(pressed.original?.content).toBe('page 2 after page 1');
		expect(pressed.original?.components).toEqual([]);
		// The command's own view of its reply shows the same, updated message.
		expect(
			command.original && emulator.channelMessages(emulator.defaultChannelId, { all: true }).find((m) => m.id === command.original?.id)?.content,
		).toBe('page 2 after page 1');
	});

	it('records channel messages, and failure injection makes sends fail with Discord error codes', async () => {
		const c = await connect();
		const channel = (await c.channels.fetch(emulator.defaultChannelId)) as TextChannel;
		const first = await channel.send({ content: 'hello @everyone', allowedMentions: { parse: [] } });
		await channel.send({ content: 'a reply', reply: { messageReference: first.id } });
		const posted = emulator.channelMessages(emulator.defaultChannelId);
		expect(posted.map((m) => m.content)).toEqual(['hello @everyone', 'a reply']);
		expect(posted[0]?.mention_everyone).toBe(false);
		expect(posted[0]?.allowed_mentions).toEqual({ parse: [] });
		expect(posted[1]?.message_reference?.message_id).toBe(first.id);

		emulator.failChannel(emulator.defaultChannelId, 'missing-access');
		await expect(channel.send('nope')).rejects.toMatchObject({ code: 50001, status: 403 });
		emulator.clearChannelFailure(emulator.defaultChannelId);
		emulator.injectRestFailure({ method: 'POST', pathIncludes: '/messages', status: 500, body: { message: 'boom', code: 0 }, times: 1 });
		// @discordjs/rest retries a 5xx once, so the injected fault is absorbed and the send succeeds.
		await channel.send('after a 500');
		expect(emulator.requests.filter((r) => r.path.endsWith('/messages') && r.status === 500)).toHaveLength(1);

		emulator.setChannelOverwrites(emulator.defaultChannelId, [
			{ id: emulator.defaultGuild.botRoleId, type: OverwriteType.Role, allow: '0', deny: PermissionFlagsBits.SendMessages.toString() },
		]);
		await emulator.waitUntil(
			() => channel.permissionsFor(c.user!)?.has(PermissionFlagsBits.SendMessages) === false,
			'CHANNEL_UPDATE to reach the client',
		);
		await expect(channel.send('muted')).rejects.toMatchObject({ code: 50013 });

		emulator.deleteChannel(emulator.defaultChannelId);
		await expect(c.rest.post(Routes.channelMessages(emulator.defaultChannelId), { body: { content: 'gone' } })).rejects.toMatchObject({
			code: 10003,
		});
	});

	it('rejects a wrong token: 401 on REST (TokenInvalid in login) and close 4004 on the gateway', async () => {
		const c = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: emulator.apiUrl } });
		client = c;
		const error = await c.login('d3Jvbmc.token.value').catch((e: unknown) => e);
		expect(error).toBeInstanceOf(DiscordjsError);
		expect((error as DiscordjsError).code).toBe(DiscordjsErrorCodes.TokenInvalid);
		expect(emulator.requests.find((r) => r.path === '/gateway/bot')?.status).toBe(401);

		const ws = new WebSocket(`${emulator.gatewayUrl}/?v=10&encoding=json`);
		const hello = await once(ws, 'message');
		expect(JSON.parse(String(hello[0]))).toMatchObject({ op: GatewayOpcodes.Hello, d: { heartbeat_interval: 41_250 } });
		ws.send(JSON.stringify({ op: GatewayOpcodes.Identify, d: { token: 'wrong', intents: GatewayIntentBits.Guilds, properties: {} } }));
		const [code] = (await once(ws, 'close')) as [number];
		expect(code).toBe(4004);

		const unknown = await fetch(`${emulator.apiUrl}/v10/no/such/route`, { headers: { authorization: `Bot ${emulator.token}` } });
		expect(unknown.status).toBe(404);
		expect(await unknown.json()).toEqual({ message: '404: Not Found', code: 0 });
		expect(emulator.requests.at(-1)).toMatchObject({ path: '/no/such/route', status: 404 });
		expect(emulator.takeApiViolations()).toEqual([{ where: 'GET /no/such/route', problems: ["GET /no/such/route is not a route of Discord's API"] }]);
	});

	it('resumes after RECONNECT, replays what was dispatched meanwhile, and keeps answering', async () => {
		await connect();
		handler = async (interaction) => {
			if (interaction.isChatInputCommand()) await interaction.reply({ content: `pong ${interaction.commandName}` });
		};
		emulator.sendReconnect();
		await emulator.waitUntil(() => emulator.clientCloseCodes.includes(4200), 'the client to close for a resume');
		// Dispatched while no socket is open (the client waits 500 ms before reconnecting): must be replayed.
		const during = emulator.slashCommand({ name: 'during' });
		await emulator.waitUntil(() => emulator.resumeCount === 1, 'the client to resume');
		expect((await during.waitForAnswer()).original?.content).toBe('pong during');
		expect(emulator.identifyCount).toBe(1);
		const after = await emulator.slashCommand({ name: 'after' }).waitForAnswer();
		expect(after.original?.content).toBe('pong after');

		emulator.sendInvalidSession(false);
		// @discordjs/ws spaces IDENTIFYs 5 s apart (max_concurrency 1), so this one takes a while.
		await emulator.waitUntil(() => emulator.identifyCount === 2, 'the client to identify again', 15_000);
		await emulator.waitForReady();
		expect((await emulator.slashCommand({ name: 'fresh' }).waitForAnswer()).original?.content).toBe('pong fresh');
	});

	it('answers a second callback with 40060 and an unknown interaction with 10062', async () => {
		const c = await connect();
		const codes: Array<number | string> = [];
		handler = async (interaction) => {
			if (!interaction.isChatInputCommand()) return;
			await interaction.reply({ content: 'first' });
			// discord.js refuses a second reply locally, so go around it to reach the emulator.
			for (const [id, token] of [
				[interaction.id, interaction.token],
				['1', 'nope'],
			]) {
				await c.rest
					.post(Routes.interactionCallback(id!, token!), {
						body: { type: InteractionResponseType.ChannelMessageWithSource, data: { content: 'second' } },
						auth: false,
					})
					.catch((error: unknown) => codes.push(error instanceof DiscordAPIError ? error.code : String(error)));
			}
		};
		const handle = emulator.slashCommand({ name: 'twice' });
		await emulator.waitUntil(() => codes.length === 2, 'both extra callbacks to fail');
		expect(codes).toEqual([40060, 10062]);
		expect(handle.state().callbacks).toHaveLength(1);
		expect(handle.state().original?.content).toBe('first');
	});

	it('treats a callback after the deadline as an unknown interaction', async () => {
		await restart({ interactionDeadlineMs: 50 });
		await connect();
		const codes: unknown[] = [];
		handler = async (interaction) => {
			if (!interaction.isChatInputCommand()) return;
			await new Promise((resolve) => setTimeout(resolve, 200));
			await interaction.reply('too late').catch((error: unknown) => codes.push((error as DiscordAPIError).code));
		};
		emulator.slashCommand({ name: 'slow' });
		await emulator.waitUntil(() => codes.length === 1, 'the late reply to fail');
		expect(codes).toEqual([10062]);
	});

	it('delivers DM interactions with a user and no guild', async () => {
		await connect();
		const seen: Array<string | null> = [];
		handler = async (interaction) => {
			if (!interaction.isChatInputCommand()) return;
			seen.push(interaction.guildId, interaction.user.id, String(interaction.inGuild()));
			await interaction.reply({ content: 'dm reply' });
		};
		const user = makeUser('dmuser');
		const state = await emulator.slashCommand({ name: 'help', guildId: null, user }).waitForAnswer();
		expect(state.original?.content).toBe('dm reply');
		expect(state.original?.guild_id).toBeUndefined();
		expect(seen).toEqual([null, user.id, 'false']);
	});

	it('rejects what Discord rejects, and turns the first follow-up after a deferral into the answer', async () => {
		await connect();
		const codes: unknown[] = [];
		handler = async (interaction) => {
			if (!interaction.isChatInputCommand()) return;
			if (interaction.commandName === 'bad') {
				await interaction.reply({ content: 'x'.repeat(2001) }).catch((error: unknown) => codes.push((error as DiscordAPIError).code));
				await interaction
					.reply({ embeds: [{ description: 'y'.repeat(4097) }] })
					.catch((error: unknown) => codes.push((error as DiscordAPIError).code));
				await interaction.reply({ content: 'fine' });
				return;
			}
			await interaction.deferReply({ flags: MessageFlags.Ephemeral });
			await interaction.followUp({ content: 'answer', allowedMentions: { parse: [] } });
		};
		const bad = await emulator.slashCommand({ name: 'bad' }).waitForAnswer();
		expect(codes).toEqual([50035, 50035]);
		// Discord's published API refuses both too; the emulator records them for the test that sent them.
		expect(emulator.takeApiViolations().flatMap((violation) => violation.problems)).toEqual([
			expect.stringMatching(/^data\.content: Too big/),
			expect.stringMatching(/^data\.embeds\.0\.description: Too big/),
		]);
		expect(bad.callbacks).toHaveLength(1);
		expect(bad.original?.content).toBe('fine');

		const deferred = await emulator.slashCommand({ name: 'deferred' }).waitForAnswer();
		expect(deferred.followUps).toHaveLength(1);
		expect(deferred.followUps[0]?.id).toBe(deferred.original?.id);
		expect(deferred.original?.content).toBe('answer');
		expect(deferred.original?.deferred).toBe(false);
		expect(deferred.ephemeral).toBe(true);
	});

	it('sends model changes to the connected client: GUILD_CREATE, GUILD_ROLE_UPDATE, CHANNEL_DELETE', async () => {
		const c = await connect();
		const guild = emulator.addGuild({ name: 'Second', channels: [{ name: 'alpha' }, { name: 'beta' }] });
		const [alpha, beta] = guild.channels;
		await emulator.waitUntil(() => c.guilds.cache.get(guild.id)?.channels.cache.size === 2, 'the new guild in the cache');
		const me = () => c.guilds.cache.get(guild.id)?.members.me;
		expect(me()?.permissions.has(PermissionFlagsBits.Administrator)).toBe(false);
		emulator.setBotPermissions(guild.id, PermissionFlagsBits.Administrator);
		await emulator.waitUntil(() => me()?.permissions.has(PermissionFlagsBits.Administrator) === true, 'the role update');
		emulator.deleteChannel(alpha!.id);
		await emulator.waitUntil(() => !c.channels.cache.has(alpha!.id), 'the channel deletion');
		handler = async (interaction) => {
			if (interaction.isChatInputCommand()) await interaction.reply(`in ${interaction.channelId} of ${interaction.guildId}`);
		};
		// The default channel of a guild skips deleted ones.
		const state = await emulator.slashCommand({ name: 'where', guildId: guild.id }).waitForAnswer();
		expect(state.original?.content).toBe(`in ${beta!.id} of ${guild.id}`);
	});

	it('times out a wait with a description of what was recorded', async () => {
		await connect();
		const handle = emulator.slashCommand({ name: 'ignored' });
		await expect(handle.waitForAnswer(100)).rejects.toThrow(/\/ignored.*timed out after 100 ms[\s\S]*callbacks: none/);
	});
});
