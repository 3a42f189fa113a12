import {
	ActionRowBuilder,
	AttachmentBuilder,
	ButtonBuilder,
	ButtonStyle,
	MessageFlags,
	Routes,
	time,
	TimestampStyles,
	type ButtonInteraction,
	type ChatInputCommandInteraction,
	type InteractionEditReplyOptions,
} from 'discord.js';
import { nextUtcMidnight } from '../src/admission/dailyLimit.js';
import { button, type Command } from '../src/app/command.js';
import { argumentsOf } from '../src/app/commandData.js';
import type { InteractionContext } from '../src/app/context.js';
import { customIds } from '../src/app/customIds.js';
import { checkPreconditions, MANAGE_SERVER } from '../src/discord/permissions.js';
import { UserInputError } from '../src/errors/veilError.js';
import type { SupportedLocale } from '../src/i18n/locales.js';
import { sentence, t } from '../src/i18n/translate.js';
import { usageCsv } from '../src/usage/usageCsv.js';
import { dayOf } from '../src/usage/usageCounts.js';
import { serverReport } from '../src/usage/usageReport.js';
import { DAY_MS } from '../src/time/durations.js';
import { usageData } from './definitions/usage.js';

/** The days /usage server shows when none are asked for. */
const DEFAULT_DAYS = 7;

async function execute(interaction: ChatInputCommandInteraction, ctx: InteractionContext): Promise<void> {
	const { server, days } = argumentsOf(interaction, usageData.options);
	if (server === true || days !== undefined) {
		const guildId = managedServer(interaction, ctx);
		await interaction.deferReply({ flags: MessageFlags.Ephemeral });
		await interaction.editReply(await serverMessage(guildId, daysWithin(days, ctx), ctx));
		return;
	}
	await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	await interaction.editReply({ content: await memberMessage(interaction, ctx) });
}

/**
 * `/usage`: the member's asks today where they are, against the limit that applies to them here (the server's,
 * their roles', or ASK_USER_PER_DAY outside Veil's servers), the last 7 days, and the account that answers them.
 */
async function memberMessage(interaction: ChatInputCommandInteraction, ctx: InteractionContext): Promise<string> {
	const reader = ctx.locale;
	const { guildId } = ctx.place;
	const now = Date.now();
	const [counts, limit, account] = await Promise.all([
		ctx.usage.member(guildId, interaction.user.id, now),
		ctx.place.dailyLimit(ctx),
		ctx.accounts.find(interaction.user.id),
	]);
	const today = counts[0] ?? 0;
	const lines = [
		t(reader, 'usage.mine.title'),
		t(reader, guildId === null ? 'usage.mine.todayOutside' : 'usage.mine.todayServer', { asks: today }),
		limit !== undefined && limit > 0
			? t(reader, 'usage.mine.limit', { limit, resetsAt: time(Math.ceil(nextUtcMidnight(now) / 1000), TimestampStyles.RelativeTime) })
			: t(reader, 'usage.mine.limitNone'),
		t(reader, 'usage.mine.lastDays'),
		...counts.map((count, n) => `\`${dayOf(now - n * DAY_MS)}\` ${count}`),
		account ? t(reader, 'usage.mine.account', { maskedEmail: account.maskedEmail }) : t(reader, 'usage.mine.noAccount'),
	];
	return lines.join('\n');
}

/**
 * The server whose usage is asked for: a server that installed Veil (elsewhere nothing is counted per server), and
 * a member who manages it, checked from this very interaction's permissions.
 */
function managedServer(interaction: ChatInputCommandInteraction | ButtonInteraction, ctx: InteractionContext): string {
	const { guildId } = ctx.place;
	if (guildId === null) throw new UserInputError({ answer: sentence('usage.server.veilServersOnly'), code: 'not_in_guild' });
	checkPreconditions(interaction, { permission: MANAGE_SERVER });
	return guildId;
}

/** Within the retention: older days are gone with the flags of their time. */
function daysWithin(days: number | undefined, ctx: InteractionContext): number {
	return Math.max(1, Math.min(days ?? DEFAULT_DAYS, Math.floor(ctx.config.flagRetentionDays)));
}

/** `/usage server`: the report, and its Export button. */
async function serverMessage(guildId: string, days: number, ctx: InteractionContext): Promise<InteractionEditReplyOptions> {
	const reader = ctx.locale;
	const report = serverReport(await ctx.usage.server(guildId, days));
	const { totals } = report;
	const lines = [
		t(reader, 'usage.server.title', { from: report.from, to: report.to }),
		t(reader, 'usage.server.asks', { asks: totals.asks, askers: report.askers }),
		t(reader, 'usage.server.outcomes', { shown: totals.shown, held: totals.held, refused: totals.refused, failed: totals.failed }),
		t(reader, 'usage.server.heldBy', totals.heldBy),
		t(reader, 'usage.server.refusedBy', totals.refusedBy),
		report.heldShare === undefined
			? t(reader, 'usage.server.heldShareNone')
			: t(reader, 'usage.server.heldShare', { share: percent(report.heldShare, reader) }),
		report.busiest.length === 0
			? t(reader, 'usage.server.busiestNone')
			: t(reader, 'usage.server.busiest', { channels: report.busiest.map(({ channelId, asks }) => `<#${channelId}> ${asks}`).join(' · ') }),
		t(reader, 'usage.server.perDay'),
		...report.days.map(({ day, asks, askers }) => `\`${day}\` ${asks} · ${askers}`),
	];
	const exportButton = new ButtonBuilder()
		.setCustomId(customIds.usage.export.build(days))
		.setLabel(t(reader, 'usage.server.exportButton'))
		.setStyle(ButtonStyle.Secondary);
	return { content: lines.join('\n'), components: [new ActionRowBuilder<ButtonBuilder>().addComponents(exportButton)] };
}

function percent(share: number, locale: SupportedLocale): string {
	return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(share);
}

/**
 * Export: the same days as CSV, attached to an answer only the presser sees. Whoever presses must manage the server
 * now; the channels' names are read from Discord in one request (without them the file still has their ids).
 */
const exportCsv = button({
	id: customIds.usage.export,
	async handle(interaction, [days], ctx) {
		const guildId = managedServer(interaction, ctx);
		const reader = ctx.locale;
		await interaction.deferReply({ flags: MessageFlags.Ephemeral });
		const within = daysWithin(days, ctx);
		const [usage, names] = await Promise.all([ctx.usage.server(guildId, within), channelNames(guildId, ctx)]);
		const report = serverReport(usage);
		const file = new AttachmentBuilder(
			Buffer.from(
				usageCsv(usage, (id) => names.get(id)),
				'utf8',
			),
			{
				name: `veil-usage-${report.from}-${report.to}.csv`,
			},
		);
		await interaction.editReply({ content: t(reader, 'usage.server.exported', { from: report.from, to: report.to }), files: [file] });
	},
});

async function channelNames(guildId: string, ctx: InteractionContext): Promise<Map<string, string>> {
	try {
		const channels = (await ctx.client.rest.get(Routes.guildChannels(guildId))) as Array<{ id: string; name?: string | null }>;
		return new Map(channels.flatMap(({ id, name }) => (typeof name === 'string' ? [[id, name] as const] : [])));
	} catch (error) {
		ctx.log.warn({ err: error }, "could not read the server's channel names; the export goes with their ids alone");
		return new Map();
	}
}

export default { data: usageData, execute, buttons: [exportCsv] } satisfies Command;
