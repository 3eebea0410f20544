// SPDX-License-Identifier: GPL-2.0-or-later
/* The diff of two ranges of the view (stp-vitals diff's rows). */
'use strict';

function rangeText(r) {
	return fmtTime(r[0]) + ' \u2013 ' + fmtTime(r[1]);
}

function take(which, range) {
	st[which] = range || st.view.slice();
	$('range-' + which).textContent = rangeText(st[which]);
	$('run-diff').disabled = !(st.a && st.b);
}

/* A shift-drag's range: A first, then B (then A again, B cleared). */
function takeRange(min, max) {
	if (st.a && !st.b) {
		take('b', [min, max]);
		return;
	}
	st.b = null;
	$('range-b').textContent = '(none)';
	take('a', [min, max]);
}

function runDiff() {
	const path = '/api/diff?a=' + st.a[0] + '-' + st.a[1] + '&b=' +
		st.b[0] + '-' + st.b[1];
	setStatus('diffing');
	return api(path).then((j) => {
		const body = $('diff-table').tBodies[0];
		body.textContent = '';
		for (const r of list(j, 'rows')) {
			const tr = document.createElement('tr');
			const a = r.a, b = r.b;
			cell(tr, r.kind);
			cell(tr, r.vital);
			cell(tr, r.name);
			cell(tr, fmtNum(a), 'num');
			cell(tr, fmtNum(b), 'num');
			cell(tr, (b >= a ? '+' : '') + fmtNum(b - a), 'num');
			body.appendChild(tr);
		}
		$('diff-table').hidden = false;
		setStatus('');
	});
}

function fmtNum(x) {
	return typeof x === 'number' ? (Number.isInteger(x) ? String(x) :
		x.toFixed(2)) : '';
}
