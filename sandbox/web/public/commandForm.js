/* global document, window */
import { h } from './render.js';
import { commandEntries, localDescription, localName, nodeAt, parseTyped, visibleCommands, wrapOptions } from './commandBox.js';

// The composer: suggestions while `/` is typed, the options form of the command chosen, and its sending.

const $ = (id) => document.getElementById(id);

/** The command box of the page; `page` gives the current person, channel, state, and `send(name, options, files)`. */
export function commandBox(page) {
	let current;
	const locale = () => page.person().locale;
	const commands = () => visibleCommands(page.state().commands, page.person(), page.channel());

	function onInput() {
		const text = $('composer-input').value;
		const list = $('command-suggestions');
		if (!text.startsWith('/') || current) return void (list.hidden = true);
		const typed = text.slice(1).trim().toLowerCase();
		const matches = commandEntries(commands(), locale()).filter(
			(e) => e.label.toLowerCase().startsWith(typed) || typed.startsWith(`${e.label.toLowerCase()} `),
		);
		list.replaceChildren(
			...matches.map((entry) =>
				h(
					'li',
					{ role: 'option', className: 'suggestion', 'data-command': entry.path.join(' '), onclick: () => open(entry.command, entry.path, {}) },
					h('strong', {}, `/${entry.label}`),
					` ${localDescription(entry.node, locale())}`,
				),
			),
		);
		list.hidden = matches.length === 0;
	}

	function onKey(event) {
		if (event.key !== 'Enter') return false;
		const text = $('composer-input').value.trim();
		if (!text.startsWith('/')) return false;
		event.preventDefault();
		const typed = parseTyped(text, commands(), locale());
		if (!typed) {
			page.toast(`Veil has no command ${text.split(/\s+/)[0]} here.`);
			return true;
		}
		open(typed.command, typed.path, typed.values);
		return true;
	}

	/** The form of a command at `path`; a path short of a subcommand gets a picker with nothing chosen. */
	function open(command, path, values) {
		current = { command, path };
		$('command-suggestions').hidden = true;
		const form = $('command-form');
		const fields = h('div', { className: 'command-fields' });
		const title = h('strong', {});
		const drawFields = (chosenPath, given) => {
			current.path = chosenPath;
			const node = nodeAt(command, chosenPath);
			title.textContent = `/${chosenPath.map((_, i) => localName(nodeAt(command, chosenPath.slice(0, i + 1)), locale())).join(' ')}`;
			$('composer-input').value = `${title.textContent} `;
			fields.replaceChildren(...(node.options ?? []).filter((o) => o.type !== 1 && o.type !== 2).map((o) => optionField(o, given[o.name])));
			(fields.querySelector('[data-filled]') ?? fields.querySelector('input, textarea, select'))?.focus();
		};
		const leaves = commandEntries([command], locale());
		const needsChoice = leaves.length > 1 || leaves[0].path.length > 1;
		const picker =
			needsChoice &&
			h(
				'select',
				{
					name: '__subcommand',
					'aria-label': 'Subcommand',
					required: true,
					onchange: (e) => drawFields(e.target.value ? e.target.value.split(' ') : path.slice(0, 1), {}),
				},
				h('option', { value: '', selected: path.length === 1 }, 'Choose a subcommand…'),
				leaves.map((leaf) => h('option', { value: leaf.path.join(' '), selected: leaf.path.join(' ') === path.join(' ') }, leaf.label)),
			);
		form.replaceChildren(
			h('div', { className: 'command-title' }, title, ` ${localDescription(command, locale())}`),
			picker || '',
			fields,
			h(
				'div',
				{ className: 'command-buttons' },
				h('button', { type: 'submit', className: 'button primary' }, 'Send'),
				h('button', { type: 'button', className: 'button secondary', onclick: close }, 'Cancel'),
			),
		);
		form.hidden = false;
		drawFields(path, values);
		if (needsChoice && path.length === 1) picker.focus();
	}

	function optionField(option, given) {
		const label = `${localName(option, locale())}${option.required ? ' *' : ''}`;
		const attributes = { name: option.name, 'data-type': option.type, required: option.required === true, title: localDescription(option, locale()) };
		const select = (...choices) => h('select', attributes, h('option', { value: '' }, '—'), ...choices);
		let input;
		if (option.type === 5) input = select(h('option', { value: 'true' }, 'True'), h('option', { value: 'false' }, 'False'));
		else if (option.type === 7) input = select(page.state().allChannels.map((c) => h('option', { value: c.id }, `#${c.name}`)));
		else if (option.type === 6) input = select(page.state().people.map((p) => h('option', { value: p.id }, p.name)));
		else if (option.choices) input = select(option.choices.map((c) => h('option', { value: c.value }, localName(c, locale()))));
		else if (option.type === 4 || option.type === 10)
			input = h('input', { ...attributes, type: 'number', min: option.min_value, max: option.max_value, step: option.type === 4 ? 1 : 'any' });
		else if (option.type === 3) return textField(option, attributes, label, given);
		else if (option.type === 11) input = h('input', { ...attributes, type: 'file' });
		else input = h('input', { ...attributes, type: 'text', disabled: true, required: false, placeholder: 'not in the sandbox' });
		if (given !== undefined && input.tagName === 'SELECT') {
			const wanted = [...input.options].find((o) => o.value === given || o.textContent.replace(/^#/, '') === given.replace(/^#/, ''));
			if (wanted) input.value = wanted.value;
		} else if (given !== undefined && input.type === 'number') input.value = given;
		if (given !== undefined) input.dataset.filled = '';
		return h('label', { className: 'command-option' }, h('span', {}, label), input);
	}

	/** A text option, with the command's own limit shown as a counter: too long is said, never cut. */
	function textField(option, attributes, label, given) {
		const max = option.max_length;
		const input = h('input', { ...attributes, type: 'text', minlength: option.min_length, placeholder: localDescription(option, locale()) });
		const counter = max ? h('small', { className: 'counter', 'aria-live': 'polite' }) : undefined;
		const count = () => {
			if (!max) return;
			const length = [...input.value].length;
			counter.textContent = `${length} / ${max}`;
			counter.classList.toggle('over', length > max);
			input.setCustomValidity(length > max ? `At most ${max} characters: ${length - max} too many.` : '');
		};
		input.addEventListener('input', count);
		if (given !== undefined) {
			input.value = given;
			input.dataset.filled = '';
		}
		count();
		return h('label', { className: 'command-option' }, h('span', {}, label), h('span', { className: 'text-option' }, input, counter));
	}

	function close() {
		current = undefined;
		$('command-form').hidden = true;
		$('command-suggestions').hidden = true;
		$('composer-input').value = '';
	}

	async function submit(event) {
		event.preventDefault();
		if (!current) return;
		const form = $('command-form');
		const options = [];
		const files = {};
		for (const field of form.querySelectorAll('.command-fields [data-type]')) {
			if (field.value === '' || field.disabled) continue;
			const type = Number(field.dataset.type);
			if (type === 11) {
				const file = field.files[0];
				files[field.name] = { filename: file.name, contentType: file.type, base64: await base64Of(file) };
				options.push({ type, name: field.name, value: `file:${field.name}` });
				continue;
			}
			const value = type === 5 ? field.value === 'true' : type === 4 || type === 10 ? Number(field.value) : field.value;
			options.push({ type, name: field.name, value });
		}
		// The form stays open until the sandbox has the command: a stopped sandbox loses nothing that was typed.
		if (await page.send(current.command.name, wrapOptions(current.path, options), files)) close();
	}

	return { onInput, onKey, close, submit, isOpen: () => current !== undefined };
}

async function base64Of(file) {
	let binary = '';
	for (const byte of new Uint8Array(await file.arrayBuffer())) binary += String.fromCharCode(byte);
	return window.btoa(binary);
}
