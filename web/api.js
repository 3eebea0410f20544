// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON API (vitals/api.h, README.md "The web page's API").  In a
 * report written by `stp-vitals report` the same answers are embedded in
 * window.STP_EMBED, keyed by the request's path, so the page asks for
 * exactly the paths the report embeds: the series and flags (in a
 * report, without their range), an epoch by its start, and an epoch's
 * samples unfiltered (filters apply in the page).  The API's shapes are
 * read through the norm* functions only, so that a change of shape is
 * one place to follow.
 */
'use strict';

function api(path) {
	const emb = window.STP_EMBED;
	if (emb) {
		const j = Object.prototype.hasOwnProperty.call(emb.answers,
			path) ? emb.answers[path] : undefined;
		if (j && j.error)
			return Promise.reject(new Error(path + ': ' + j.error));
		if (j)
			return Promise.resolve(j);
		return Promise.reject(new Error(path +
			': not in this report (stp-vitals serve answers it)'));
	}
	return fetch(path).then((r) => r.text().then((text) => {
		let j;
		try {
			j = JSON.parse(text);
		} catch (e) {
			throw new Error(path + ': ' + r.status + ' ' +
				r.statusText + ' (not JSON)');
		}
		if (!r.ok || (j && j.error))
			throw new Error(path + ': ' + (j.error || r.status));
		return j;
	}));
}

/* A time as Unix ms: ms numbers, ns numbers, or RFC 3339 text. */
function toMs(x) {
	if (x === null || x === undefined)
		return null;
	if (typeof x === 'string')
		return /^\d+$/.test(x) ? toMs(Number(x)) : Date.parse(x);
	return x > 1e15 ? Math.round(x / 1e6) : x;
}

function pick(o, ...keys) {
	for (const k of keys)
		if (o && o[k] !== undefined)
			return o[k];
	return undefined;
}

function list(j, ...keys) {
	return Array.isArray(j) ? j : (pick(j, ...keys) || []);
}

function normMeta(j) {
	const vitals = list(pick(j, 'vitals') || [], 'vitals').map((v) =>
		typeof v === 'string' ? { name: v, available: true } : {
			name: pick(v, 'name', 'vital'),
			available: pick(v, 'available') !== false,
			why: pick(v, 'why'),
		});
	return {
		host: pick(j, 'host') || '',
		first: toMs(pick(j, 'first', 'from', 'first_ms', 'start')),
		last: toMs(pick(j, 'last', 'to', 'last_ms', 'end')),
		epochMs: pick(j, 'epoch_ms', 'epoch_len_ms') || null,
		epochs: pick(j, 'epochs'),
		maxBuckets: pick(pick(j, 'limits') || {}, 'buckets') || 20000,
		vitals,
	};
}

/* Column arrays of one vital: {name, available, why, weight: [], ...}. */
function normColumns(name, c) {
	const out = { name, available: pick(c, 'available') !== false,
		why: pick(c, 'why') };
	for (const f of FIELDS)
		out[f] = (f === 'events' ? pick(c, 'events', 'count') :
			pick(c, f)) || [];
	return out;
}

/* Rows of points ({start, vital, weight, ...}) pivoted into columns. */
function pivot(rows) {
	const t = [], at = new Map(), by = new Map();
	for (const p of rows) {
		const s = toMs(pick(p, 'start', 'start_ms', 't'));
		if (!at.has(s)) {
			at.set(s, t.length);
			t.push(s);
		}
	}
	for (const p of rows) {
		const name = pick(p, 'vital', 'name');
		if (!by.has(name))
			by.set(name, normColumns(name, {}));
		const c = by.get(name), i = at.get(toMs(pick(p, 'start',
			'start_ms', 't')));
		for (const f of FIELDS) {
			while (c[f].length < t.length)
				c[f].push(null);
			c[f][i] = f === 'events' ? pick(p, 'events', 'count') :
				p[f];
		}
		if (p.available === false)
			c.available = false;
	}
	return { t, id: null, vitals: [...by.values()] };
}

function normSeries(j) {
	if (Array.isArray(j) || j.points)
		return pivot(list(j, 'points'));
	const t = (pick(j, 't', 'start', 'times', 'x') || []).map(toMs);
	let v = pick(j, 'vitals', 'series') || [];
	if (!Array.isArray(v))
		v = Object.keys(v).map((k) => normColumns(k, v[k]));
	else
		v = v.map((c) => normColumns(pick(c, 'vital', 'name'), c));
	return { t, id: pick(j, 'id', 'ids', 'epoch') || null, vitals: v };
}

function normFlag(f) {
	return {
		rule: pick(f, 'rule'),
		name: pick(f, 'name') || '',
		evaluated: pick(f, 'evaluated') !== false,
		whyNot: pick(f, 'why_not', 'why') || '',
		start: toMs(pick(f, 'start', 'start_ms', 'from')),
		end: toMs(pick(f, 'end', 'end_ms', 'to')),
		pid: pick(f, 'pid'),
		exec: pick(f, 'exec', 'program') || null,
		evidence: pick(f, 'evidence') || '',
	};
}

/*
 * Kernel frames come first, then user frames: the user stack begins after
 * the last "[kernel]" frame (the entry code), unless the API split them.
 */
function splitStack(s) {
	if (s.kstack !== undefined || s.ustack !== undefined)
		return [lines(s.kstack), lines(s.ustack)];
	const all = lines(s.stack);
	let k = 0;
	all.forEach((f, i) => {
		if (/ \[kernel\]$/.test(f))
			k = i + 1;
	});
	return [all.slice(0, k), all.slice(k)];
}

function lines(x) {
	if (!x)
		return [];
	return Array.isArray(x) ? x : String(x).split('\n').filter(Boolean);
}

function normSample(s) {
	const [k, u] = splitStack(s);
	return {
		time: toMs(pick(s, 'time', 'time_ms', 'time_ns')),
		vital: pick(s, 'vital') || '',
		exec: pick(s, 'exec') || '',
		uid: pick(s, 'uid'),
		pid: pick(s, 'pid'),
		site: pick(s, 'site') || '',
		data: pick(s, 'data') || '',
		weight: pick(s, 'weight'),
		kstack: k,
		ustack: u,
	};
}
