import { FileUploadBuilder, LabelBuilder, type ModalSubmitInteraction } from 'discord.js';
import type { SupportedLocale } from '../i18n/locales.js';
import { t } from '../i18n/translate.js';
import { attachmentRef } from '../files/attachmentRef.js';
import type { AttachmentRef } from '../files/readAttachments.js';

/** The file upload's own id in the Follow up form. */
export const FOLLOW_UP_FILES_ID = 'files';
/** At most this many files with one follow-up. */
export const FOLLOW_UP_MAX_FILES = 3;

/**
 * The Follow up form's optional file upload (0 to 3 files); its hint names the conversation's files that were too
 * large to keep, which the member can attach again.
 */
export function followUpFilesLabel(notKept: readonly string[], locale: SupportedLocale): LabelBuilder {
	return new LabelBuilder()
		.setLabel(t(locale, 'members.conversation.filesLabel'))
		.setDescription(notKept.length > 0 ? notKeptHint(notKept, locale) : t(locale, 'members.conversation.filesHint', { count: FOLLOW_UP_MAX_FILES }))
		.setFileUploadComponent(
			new FileUploadBuilder().setCustomId(FOLLOW_UP_FILES_ID).setMinValues(0).setMaxValues(FOLLOW_UP_MAX_FILES).setRequired(false),
		);
}

/** A label's description holds at most 100 characters: the names are cut to what the sentence leaves of them. */
const DESCRIPTION_MAX = 100;

function notKeptHint(names: readonly string[], locale: SupportedLocale): string {
	const list = names.join(', ');
	const room = DESCRIPTION_MAX - t(locale, 'members.conversation.filesNotKept', { names: '' }).length;
	return t(locale, 'members.conversation.filesNotKept', { names: list.length > room ? `${list.slice(0, Math.max(0, room - 1))}…` : list });
}

/** The files uploaded in a Follow up form; none in a form opened before it had an upload. */
export function followUpUploads(interaction: ModalSubmitInteraction): AttachmentRef[] | undefined {
	if (!interaction.fields.fields.has(FOLLOW_UP_FILES_ID)) return undefined;
	const uploaded = interaction.fields.getUploadedFiles(FOLLOW_UP_FILES_ID);
	return uploaded && uploaded.size > 0 ? uploaded.map(attachmentRef) : undefined;
}
