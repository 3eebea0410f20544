// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON API (vitals/api.h, doc/web.md "The web page's API").  In a
 * report written by `stp-vitals report` the same answers are embedded in
 * window.STP_EMBED, keyed by the request's path, so the page asks for
 * exactly the paths the report embeds: the series and flags (in a
 * report, without their range), an epoch by its start, and an epoch's
 * samples unfiltered (filters apply in the page).  The API's shapes are
 * read through the norm* functions only, so that a change of shape is
 * one place to follow.  A not-evaluated rule is a flag with evaluated
 * false.
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

/* The answer's list under key (an error's answer has none). */
function list(j, key) {
	return (j && j[key]) || [];
}

/* /api/meta: what the store holds. */
function normMeta(j) {
	return {
		host: j.host || '',
		first: j.first,
		last: j.last,
		epochMs: j.epoch_ms || null,
		epochs: j.epochs || 0,
		maxBuckets: (j.limits && j.limits.buckets) || 20000,
		vitals: list(j, 'vitals').map((v) => ({ name: v.name,
			available: v.available !== false, why: v.why })),
	};
}

/* /api/series: t, and each vital's aligned arrays of FIELDS and available. */
function normSeries(j) {
	return {
		t: list(j, 't'),
		vitals: list(j, 'vitals').map((c) => {
			const out = { name: c.name };
			for (const f of FIELDS)
				out[f] = c[f] || [];
			out.available = c.available || [];
			return out;
		}),
	};
}

/* A flag of /api/flags, or one of its rules not evaluated. */
function normFlag(f) {
	return {
		rule: f.rule,
		name: f.name || '',
		evaluated: f.evaluated !== false,
		whyNot: f.why || '',
		start: f.start,
		end: f.end,
		pid: f.pid,
		exec: f.exec || null,
		evidence: f.evidence || '',
	};
}

/*
 * A sample's stack is its kernel frames, then its user frames: the user
 * stack begins after the last "[kernel]" frame (the entry code).
 */
function splitStack(s) {
	const all = s.stack || [];
	let k = 0;
	all.forEach((f, i) => {
		if (/ \[kernel\]$/.test(f))
			k = i + 1;
	});
	return [all.slice(0, k), all.slice(k)];
}

/* A sample of /api/samples, its stack split. */
function normSample(s) {
	const [k, u] = splitStack(s);
	return {
		time: s.time,
		vital: s.vital || '',
		exec: s.exec || '',
		uid: s.uid,
		pid: s.pid,
		site: s.site || '',
		data: s.data || '',
		weight: s.weight,
		kstack: k,
		ustack: u,
	};
}
