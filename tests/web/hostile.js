// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The page on tests/web/hostile.c's store, whose texts are HTML and
 * script meant to break out (its host, a vital sign's name, programs,
 * sites, data, stacks):
 *
 *   node tests/web/hostile.js URL
 *
 * Checks, printed as "ok NAME" or "FAIL NAME: why": the page loads; its
 * panes, overlapped panes (uPlot's legend) and the first epoch's samples
 * show the texts as text: no script of theirs runs (each would set
 * document.title), no element of theirs is made, and the sample table
 * holds the texts as they are.  The exit status is the number of
 * failures.
 */
'use strict';
const path = require('path');
const { chromium } = require(path.resolve(__dirname,
	'../../build/npm/node_modules/playwright-core'));

const url = process.argv[2];
const END_SCRIPT = "</script><script>document.title='pwned'</script>";
const TAG = "<img src=x onerror=\"document.title='pwned'\">";
let failed = 0;

function ok(name) {
	console.log('ok ' + name);
}

function bad(name, why) {
	console.log('FAIL ' + name + ': ' + why);
	failed++;
}

/* Nothing of the store's texts ran or became an element. */
async function clean(page, name) {
	const got = await page.evaluate(() => ({
		title: document.title,
		imgs: document.querySelectorAll('img').length,
		scripts: [...document.scripts].filter((s) =>
			s.textContent.includes("document.title='pwned'") &&
			!s.textContent.includes('STP_EMBED')).length,
	}));
	if (got.title !== 'stp vital signs' || got.imgs || got.scripts)
		bad(name, JSON.stringify(got));
	else
		ok(name);
}

async function checkSamples(page) {
	await page.evaluate(() => window.stpPage.openEpoch(
		window.stpPage.state.series.epoch.t[0], null));
	await page.waitForSelector('#samples:not([hidden])');
	const rows = await page.$$eval('#sample-table tbody tr', (trs) =>
		trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
	const text = JSON.stringify(rows);
	if (rows.length !== 2 || !rows[0][2].endsWith(END_SCRIPT) ||
	    rows[1][2] !== TAG || !text.includes('<!--<script>'))
		bad('the samples show the texts as they are', text);
	else
		ok('the samples show the texts as they are');
}

async function main() {
	const browser = await chromium.launch({
		executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
		args: ['--no-sandbox'],
	});
	const page = await browser.newPage();
	const errors = [];
	page.on('pageerror', (e) => errors.push(String(e)));
	page.on('console', (m) => m.type() === 'error' &&
		errors.push(m.text()));
	page.on('dialog', (d) => {
		errors.push('a dialog: ' + d.message());
		d.dismiss();
	});
	try {
		await page.goto(url);
		await page.waitForSelector('body[data-ready="1"]',
			{ timeout: 20000 });
		ok('the page loads');
		await clean(page, 'the panes show the texts as text');
		await page.click('#overlap');
		await clean(page, 'the overlapped pane\'s legend too');
		await checkSamples(page);
		await clean(page, 'and the samples');
	} catch (e) {
		bad('the page', String(e.message || e).split('\n')[0]);
	}
	if (errors.length)
		bad('no errors in the console', errors.join('; '));
	await browser.close();
	process.exit(failed);
}

main().catch((e) => {
	console.log('FAIL the browser: ' + e.message.split('\n')[0]);
	process.exit(1);
});
