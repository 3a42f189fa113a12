/* global document */
import { api, toast } from './api.js';
import { h } from './render.js';

// The model panel: the local model's next answers (ratings, delay, failure), and its latest calls.

const $ = (id) => document.getElementById(id);

export function drawModelPanel(model) {
	$('model-form').hidden = !model.local;
	$('model-status').textContent = model.local
		? 'The local model answers. What you pick here applies to every answer from now on.'
		: 'The real model service answers: nothing to pick here.';
	if (!model.local) return;
	$('model-category').replaceChildren(
		...model.categories.map((c) => h('option', { value: c }, c.replace('HARM_CATEGORY_', '').replaceAll('_', ' ').toLowerCase())),
	);
	const { rating, delayMs, failure } = model.choices;
	document.querySelector(`input[name="rating"][value="${rating ? 'one' : 'clear'}"]`).checked = true;
	if (rating) {
		$('model-category').value = rating.category;
		$('model-level').value = rating.level;
	}
	$('model-delay').value = String(delayMs);
	$('model-failure').value = failure;
}

export function chooseModel(model) {
	const one = document.querySelector('input[name="rating"]:checked').value === 'one';
	const choices = {
		rating: one ? { category: $('model-category').value, level: $('model-level').value } : null,
		delayMs: Math.max(0, Math.min(120_000, Number($('model-delay').value) || 0)),
		failure: $('model-failure').value,
	};
	api('/api/model', choices).then(
		(result) => (model.choices = result.choices),
		(error) => toast(error.message),
	);
}

export function drawExchanges(exchanges) {
	$('model-exchanges').replaceChildren(
		...exchanges
			.slice(-6)
			.reverse()
			.map((x) => {
				const ratings = x.answer?.candidates?.[0]?.safetyRatings
					?.filter((r) => r.probability !== 'NEGLIGIBLE')
					.map((r) => `${r.category.replace('HARM_CATEGORY_', '')} ${r.probability}`);
				const outcome =
					x.status === 0
						? 'no answer yet'
						: `${x.status}${ratings?.length ? ` · ${ratings.join(', ')}` : x.endpoint === 'generate' && x.status === 200 ? ' · all NEGLIGIBLE' : ''}`;
				return h(
					'li',
					{ className: 'exchange' },
					h('strong', {}, x.endpoint),
					` ${x.prompt ? `“${x.prompt.slice(0, 40)}”` : ''}${x.files ? ` + ${x.files.length} file(s)` : ''} → ${outcome}`,
				);
			}),
	);
}
