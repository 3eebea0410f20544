// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A stand-in for stp-vitals serve while the page is written: the page's
 * files from WEBDIR and the API's documented shapes (README, "The web
 * page's API"), made from `stp-vitals dump DB`.  Hours and days are
 * sums of the epochs (unique events summed, not rebuilt from the HCAs);
 * flags come from FLAGS.json when given.  Not the test of the server.
 *
 *   node tests/web/fake_api.js STP_VITALS DB WEBDIR PORT [FLAGS.json]
 */
'use strict';
const http = require('http'), fs = require('fs'), path = require('path');
const { execFileSync } = require('child_process');
const [tool, db, web, port, flagsFile] = process.argv.slice(2);
const lines = execFileSync(tool, ['dump', db], { maxBuffer: 1 << 30 })
	.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const epochs = [], byStart = new Map();
for (const l of lines) {
	const s = Date.parse(l.epoch_start);
	if (!byStart.has(s)) {
		const e = { id: epochs.length + 1, start: s, vitals: [],
			samples: [] };
		byStart.set(s, e);
		epochs.push(e);
	}
	const e = byStart.get(s);
	if (l.kind === 'vital') {
		e.end = Date.parse(l.epoch_end);
		e.vitals.push(l);
	} else {
		e.samples.push(Object.assign({}, l, { time: Date.parse(l.time),
			label: String(l.label) }));
	}
}
const names = epochs.length ? epochs[epochs.length - 1].vitals.map((v) =>
	v.vital) : [];
const F = ['weight', 'events', 'unique', 'samples', 'dropped'];

function series(scale, from, to) {
	const len = { hour: 3600e3, day: 86400e3 }[scale];
	const buckets = new Map();
	for (const e of epochs) {
		if (e.end <= from || e.start >= to)
			continue;
		const k = len ? Math.floor(e.start / len) * len : e.start;
		if (!buckets.has(k))
			buckets.set(k, { t: k, end: len ? k + len : e.end, eps: [] });
		buckets.get(k).eps.push(e);
	}
	const b = [...buckets.values()];
	return {
		scale, from, to, t: b.map((x) => x.t), end: b.map((x) => x.end),
		epochs: b.map((x) => x.eps.length),
		vitals: names.map((n) => {
			const o = { name: n };
			for (const f of F)
				o[f] = b.map((x) => x.eps.reduce((s, e) => s +
					(e.vitals.find((v) => v.vital === n) || {})[f], 0));
			o.available = b.map((x) => x.eps.some((e) => (e.vitals.find(
				(v) => v.vital === n) || {}).available));
			return o;
		}),
	};
}

function answer(u) {
	const q = u.searchParams, n = (k) => Number(q.get(k));
	switch (u.pathname) {
	case '/api/meta':
		return { host: 'guest', first: epochs[0].start,
			last: epochs[epochs.length - 1].end, epochs: epochs.length,
			epoch_ms: 2000, vitals: names.map((v) => {
				const x = epochs[epochs.length - 1].vitals.find(
					(y) => y.vital === v);
				return { name: v, available: x.available,
					why: x.why || null };
			}), scales: ['epoch', 'hour', 'day'],
			limits: { buckets: 20000 } };
	case '/api/series':
		return series(q.get('scale'), n('from'), n('to'));
	case '/api/epoch': {
		const e = epochs.find((x) => x.start <= n('at') && n('at') < x.end);
		return e ? { id: e.id, start: e.start, end: e.end } : null;
	}
	case '/api/samples': {
		const e = epochs[n('epoch') - 1];
		return e ? { epoch: e.id, start: e.start, end: e.end,
			total: e.samples.length, matched: e.samples.length,
			samples: e.samples } : null;
	}
	case '/api/flags':
		return flagsFile ? JSON.parse(fs.readFileSync(flagsFile)) :
			{ flags: [], not_evaluated: [] };
	case '/api/diff':
		return { rows: [{ kind: 'vital', vital: 'cpuu', name: 'cpuu',
			a: 1, b: 2, score: 1 }] };
	}
	return null;
}

http.createServer((req, res) => {
	const u = new URL(req.url, 'http://x');
	if (u.pathname.startsWith('/api/')) {
		const j = answer(u);
		res.writeHead(j ? 200 : 404, { 'Content-Type': 'application/json' });
		res.end(JSON.stringify(j || { error: 'not found' }));
		return;
	}
	const f = path.join(web, path.basename(u.pathname) || 'index.html');
	fs.readFile(f, (err, data) => {
		res.writeHead(err ? 404 : 200, { 'Content-Type':
			f.endsWith('.js') ? 'text/javascript' : f.endsWith('.css') ?
			'text/css' : 'text/html' });
		res.end(err ? 'not found' : data);
	});
}).listen(Number(port), '127.0.0.1');
