/**
 * The least a discord.js 14 bot can do for `/ask`, the yardstick of `npm run bench`: default client options and
 * the Guilds intent, as most bots start; defer, one undici POST to the generation service, edit the reply. No
 * store, no account, no safety check, no logging. Configured by the same variables as Veil.
 */
import { Client, Events, GatewayIntentBits } from 'discord.js';
import { request } from 'undici';

const env = (name: string): string => {
	const value = process.env[name];
	if (!value) throw new Error(`${name} is not set`);
	return value;
};

const generateUrl =
	`${env('GENERATION_BASE_URL')}/v1beta/models/${encodeURIComponent(env('GENERATION_MODEL'))}:generateContent` +
	`?key=${encodeURIComponent(env('GENERATION_API_KEY'))}`;

interface GenerationBody {
	candidates?: Array<{ content?: { parts?: Array<{ text?: string }> } }>;
}

// BENCH_MESSAGE_INTENTS: the same bot taking the message intents, as a bot that answers mentions would.
const messageIntents = process.env.BENCH_MESSAGE_INTENTS ? [GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages] : [];
const client = new Client({ intents: [GatewayIntentBits.Guilds, ...messageIntents], rest: { api: env('DISCORD_API_URL') } });

client.on(Events.InteractionCreate, async (interaction) => {
	if (!interaction.isChatInputCommand() || interaction.commandName !== 'ask') return;
	try {
		await interaction.deferReply();
		const prompt = interaction.options.getString('prompt', true);
		const response = await request(generateUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: prompt }] }] }),
		});
		const body = (await response.body.json()) as GenerationBody;
		const text = body.candidates?.[0]?.content?.parts?.[0]?.text ?? 'No answer.';
		await interaction.editReply(text.slice(0, 2000));
	} catch (error) {
		console.error(error);
	}
});

process.on('SIGTERM', () => {
	void client.destroy().finally(() => process.exit(0));
});

await client.login(env('DISCORD_TOKEN'));
