// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stp-vitals' page (web/*.js, classic scripts that share one global
 * scope, loaded in index.html's order): state.js holds what the others
 * share, the page's state and the status line; api.js reads the JSON
 * API; panes.js draws the vital signs; flags.js the rules' flags;
 * samples.js an epoch's samples; diff.js the diff of two ranges; main.js
 * wires the controls and starts.
 */
'use strict';
const $ = (id) => document.getElementById(id);
const HOUR = 3600e3, DAY = 86400e3;
const FIELDS = ['weight', 'events', 'unique', 'samples', 'dropped'];
const COLORS = ['#1e88e5', '#e53935', '#43a047', '#fb8c00', '#8e24aa',
	'#00897b', '#6d4c41', '#3949ab', '#c0ca33', '#d81b60', '#546e7a',
	'#00acc1'];

const st = {
	meta: null,		/* normMeta */
	vitals: [],		/* names, in the store's order */
	scale: 'epoch',
	field: 'weight',
	overlap: false,
	normalize: false,
	series: {},		/* scale -> normSeries */
	view: null,		/* [min, max] ms on X */
	flags: [],		/* normFlag, evaluated or not */
	spans: [],		/* per rule, its flags' epochs merged */
	bands: [],		/* every rule's flags' epochs merged */
	plots: [],		/* { u, vital (null when overlapped) } */
	epoch: null,		/* the epoch whose samples are listed */
	samples: [],		/* normSample */
	shown: new Set(),	/* the vitals whose samples are listed */
	a: null, b: null,	/* the diff's ranges */
	drag: null,		/* { u: the pane dragged on, shift } */
};

/* ---- status ---- */

function setStatus(text, isError) {
	const s = $('status');
	s.textContent = text;
	s.className = isError ? 'error' : '';
}

/* A failed request: said on the status line, and the page goes on. */
function fail(e) {
	setStatus(String(e.message || e), true);
}

function fmtTime(ms) {
	return new Date(ms).toISOString().replace('T', ' ').replace('.000Z',
		'Z');
}
