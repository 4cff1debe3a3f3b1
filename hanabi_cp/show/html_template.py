"""The replay page's markup, style and script (``html.page`` fills in the data).

Step K is the state after the window's first K cards (0: before any).  The URL
fragment ``#step=K`` opens the page at step K and follows it; ``#selftest`` runs
``hanabiSelfTest()`` and writes its verdict into ``body[data-selftest]``.
"""

from .stepper_js import BUTTONS, stepper

TEMPLATE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 16px 24px; color: #222; background: #fafafa; }
h1 { font-size: 17px; margin: 0 0 2px; }
.sub { color: #444; margin: 0 0 2px; }
.reason { color: #c62828; margin: 0 0 8px; }
.bar { display: flex; gap: 6px; align-items: center; margin: 10px 0; flex-wrap: wrap; }
button { font: inherit; padding: 3px 10px; border: 1px solid #888; border-radius: 4px;
         background: #fff; cursor: pointer; }
button:hover { background: #eee; }
#where { margin-left: 10px; font-variant-numeric: tabular-nums; }
canvas { display: block; width: 100%; height: 34px; border: 1px solid #bbb; background: #fff; cursor: pointer; }
.panels { display: grid; grid-template-columns: max-content 1fr; gap: 8px 18px; align-items: center; margin-top: 12px; }
.label { color: #555; font-size: 12px; text-align: right; }
.cards { display: flex; gap: 4px; flex-wrap: wrap; align-items: center; }
.card { min-width: 30px; padding: 0 3px; box-sizing: border-box; height: 40px; border-radius: 5px;
        display: flex; flex-direction: column; align-items: center;
        justify-content: center; font-weight: bold; font-size: 15px; box-shadow: 0 1px 2px rgba(0,0,0,.35); }
.card small { font-weight: normal; font-size: 9px; opacity: .85; }
.card.big { min-width: 54px; height: 72px; font-size: 26px; }
.card.empty { background: #fff; border: 1px dashed #aaa; box-shadow: none; color: #aaa; }
.card.faded { opacity: .35; }
.card.now { outline: 3px solid #000; outline-offset: 1px; }
.card.bad { outline: 3px solid #c62828; outline-offset: 1px; }
.pile { display: flex; flex-direction: column; align-items: center; font-size: 10px; color: #555; }
#decision { font-size: 18px; font-weight: bold; margin-left: 10px; }
#role { color: #555; margin-left: 10px; }
#note { color: #c62828; font-weight: bold; }
.act { font-size: 10px; font-weight: bold; text-align: center; }
.keys { color: #777; font-size: 12px; }
</style>
</head>
<body data-selftest="">
<h1 id="title"></h1>
<p class="sub" id="verdict"></p>
<p class="reason" id="reason"></p>
<div class="bar">
__BUTTONS__
  <span id="where">step <b id="step">0</b> of <span id="of">0</span></span>
  <span class="keys">keys: &larr; &rarr; (shift: 10), Home, End, space; click the timeline to jump</span>
</div>
<canvas id="timeline" height="34"></canvas>
<p class="keys" id="legend">timeline: upper half the card's color, lower half its action:
  <b id="lp">play</b>, <b id="ls">store</b>, <b id="ld">discard</b><span id="lx"></span></p>
<div class="panels">
  <div class="label">card</div>
  <div class="cards"><div id="current"></div><span id="decision"></span><span id="role"></span></div>
  <div class="label">deck</div>
  <div class="cards" id="strip"></div>
  <div class="label">hand</div>
  <div class="cards" id="hand" data-count="0"></div>
  <div class="label">piles</div>
  <div class="cards" id="piles" data-levels=""></div>
  <div class="label"></div>
  <div id="note"></div>
</div>
<p class="keys" id="selftest"></p>
<script type="application/json" id="data">__DATA__</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const W = D.hi - D.lo, R = D.actions.length;
const WORDS = {P: "play", S: "store", D: "discard"};
const $ = (id) => document.getElementById(id);
let step = 0, cache = null, timer = null;

function fresh() {
  return {k: 0, piles: D.start.piles.slice(), hand: D.start.hand.map((x) => x.slice())};
}

// The referee's rules: a stored playable card plays at once; stored cards cascade.
function advance(s) {
  const i = s.k, a = D.cards[2 * i], k = D.cards[2 * i + 1], act = D.actions[i];
  s.k += 1;
  if (act === "D" || (act === "S" && s.piles[k - 1] + 1 !== a)) {
    if (act === "S") s.hand.push([a, k]);
    return;
  }
  s.piles[k - 1] = a;
  for (;;) {
    const j = s.hand.findIndex((x) => x[1] === k && x[0] === s.piles[k - 1] + 1);
    if (j < 0) break;
    s.hand.splice(j, 1);
    s.piles[k - 1] += 1;
  }
}

function stateAt(K) {
  const upto = Math.min(K, R);
  if (cache === null || cache.k > upto) cache = fresh();
  while (cache.k < upto) advance(cache);
  return cache;
}

function tile(a, k, cls, sub) {
  const el = document.createElement("div");
  el.className = "card" + (cls ? " " + cls : "");
  el.style.background = D.colors[k - 1];
  el.style.color = D.ink[k - 1];
  el.textContent = String(a);
  if (sub) { const s = document.createElement("small"); s.textContent = sub; el.appendChild(s); }
  el.title = "value " + a + ", color " + D.rows[k - 1];
  return el;
}

function empty(text) {
  const el = document.createElement("div");
  el.className = "card empty";
  el.textContent = text;
  return el;
}

function labelAt(spans, i) {
  for (const s of spans) if (s[0] <= i && i < s[1]) return s[2];
  return "";
}

function render() {
  const s = stateAt(step);
  $("step").textContent = String(step);
  $("of").textContent = String(W);
  const i = step - 1;
  const cur = $("current");
  cur.replaceChildren();
  let decision = "", color = "#222";
  if (i < 0) {
    cur.appendChild(empty("·"));
    decision = "before card #" + (D.lo + 1);
  } else {
    const a = D.cards[2 * i], k = D.cards[2 * i + 1];
    const bad = D.stop !== null && i === D.stop;
    cur.appendChild(tile(a, k, "big" + (bad ? " bad" : ""), D.rows[k - 1]));
    const act = D.actions[i];
    if (bad) { decision = "card #" + (D.lo + i + 1) + ": illegal: " + D.stopError; color = D.alarm; }
    else if (act) { decision = "card #" + (D.lo + i + 1) + ": " + WORDS[act]; color = D.actionColors[act]; }
    else decision = "card #" + (D.lo + i + 1) + (R || D.stop !== null ? ": not replayed" : "");
  }
  $("decision").textContent = decision;
  $("decision").style.color = color;
  const g = i >= 0 ? labelAt(D.gadgets, i) : "", p = i >= 0 ? labelAt(D.parts, i) : "";
  $("role").textContent = g && p && g !== p ? g + " / " + p : (p || g);
  const strip = $("strip");
  strip.replaceChildren();
  for (let j = Math.max(0, i - 8); j < Math.min(W, i + 13); j++) {
    const col = document.createElement("div");
    const act = j < R ? D.actions[j] : "";
    const faded = act === "D" || (j >= R && R > 0);
    const mark = j === i ? "now" : (D.witnessCards.includes(j) ? "bad" : "");
    col.appendChild(tile(D.cards[2 * j], D.cards[2 * j + 1], mark + (faded ? " faded" : "")));
    const lab = document.createElement("div");
    lab.className = "act";
    lab.textContent = D.stop === j ? "\u2717" : act;
    lab.style.color = D.stop === j ? D.alarm : (D.actionColors[act] || "#999");
    col.appendChild(lab);
    strip.appendChild(col);
  }
  const hand = $("hand");
  hand.replaceChildren();
  for (const [a, k] of s.hand) hand.appendChild(tile(a, k, "", D.rows[k - 1]));
  for (let j = s.hand.length; j < (D.h || 0); j++) hand.appendChild(empty(""));
  hand.dataset.count = String(s.hand.length);
  const piles = $("piles");
  piles.replaceChildren();
  s.piles.forEach((v, j) => {
    const box = document.createElement("div");
    box.className = "pile";
    box.appendChild(v > 0 ? tile(v, j + 1, "") : empty("0"));
    const lab = document.createElement("span");
    lab.textContent = D.rows[j];
    box.appendChild(lab);
    piles.appendChild(box);
  });
  piles.dataset.levels = s.piles.join(" ");
  $("note").textContent = D.witness !== null && i >= D.witness ? D.witnessText : "";
  drawCursor();
}

let base = null;   // the timeline without its cursor, drawn once per size
function drawTimeline() {
  const cv = $("timeline");
  cv.width = Math.max(200, cv.clientWidth || 800);
  base = document.createElement("canvas");
  base.width = cv.width;
  base.height = cv.height;
  const ctx = base.getContext("2d"), w = base.width, h = base.height;
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, w, h);
  for (let j = 0; j < W; j++) {
    const x0 = Math.floor(j * w / W), x1 = Math.max(x0 + 1, Math.floor((j + 1) * w / W));
    ctx.fillStyle = D.colors[D.cards[2 * j + 1] - 1];
    ctx.fillRect(x0, 0, x1 - x0, h / 2);
    const act = j < R ? D.actions[j] : "";
    ctx.fillStyle = D.stop === j ? D.alarm : (D.actionColors[act] || "#e0e0e0");
    ctx.fillRect(x0, h / 2, x1 - x0, h / 2);
  }
  for (const at of [D.stop, D.witness]) {
    if (at === null) continue;
    ctx.fillStyle = D.alarm;
    ctx.fillRect(Math.floor((at + 1) * w / W) - 1, 0, 2, h);
  }
}

function drawCursor() {
  const cv = $("timeline"), ctx = cv.getContext("2d");
  if (base === null) drawTimeline();
  ctx.clearRect(0, 0, cv.width, cv.height);
  ctx.drawImage(base, 0, 0);
  const x = Math.round(step * cv.width / Math.max(1, W));
  ctx.fillStyle = "#000";
  ctx.fillRect(Math.min(cv.width - 2, Math.max(0, x - 1)), 0, 2, cv.height);
}

__STEPPER__
$("timeline").onclick = (e) => {
  const r = e.currentTarget.getBoundingClientRect();
  go(Math.round((e.clientX - r.left) / r.width * W));
};
window.addEventListener("resize", () => { base = null; drawCursor(); });

// Replays every step and compares with the hand counts and final piles computed by
// the Python timeline; presses the controls and checks that they move the step.
window.hanabiSelfTest = function () {
  const problems = [];
  cache = null;
  for (let K = 1; K <= R; K++) {
    const s = stateAt(K);
    if (s.hand.length !== D.handCounts[K - 1]) { problems.push("hand after step " + K); break; }
    if (D.h !== null && s.hand.length > D.h) { problems.push("hand over h at step " + K); break; }
  }
  if (stateAt(R).piles.join(" ") !== D.finalPiles.join(" ")) problems.push("final piles");
  go(0);
  document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight"}));
  if (W > 0 && step !== 1) problems.push("right arrow");
  $("next").click();
  if (W > 1 && step !== 2) problems.push("next button");
  document.dispatchEvent(new KeyboardEvent("keydown", {key: "End"}));
  if (step !== W) problems.push("End key");
  const shown = $("piles").dataset.levels;
  if (R > 0 && D.stop === null && shown !== D.finalPiles.join(" ")) problems.push("piles shown at the end");
  return problems.length ? "FAIL: " + problems.join(", ") : "ok";
};

$("title").textContent = D.head;
$("verdict").textContent = D.verdict;
$("lp").style.color = D.actionColors.P;
$("ls").style.color = D.actionColors.S;
$("ld").style.color = D.actionColors.D;
if (D.stop !== null || D.witness !== null) {
  $("lx").textContent = "; red: the illegal step or the loss";
  $("lx").style.color = D.alarm;
}
if (!R) $("legend").textContent = "timeline: the card colors (no play sequence)";
$("reason").textContent = D.reason;
if (/selftest/.test(location.hash)) {
  const verdict = window.hanabiSelfTest();
  document.body.dataset.selftest = verdict;
  $("selftest").textContent = "self-test: " + verdict;
} else {
  go(0, true);
  fromHash();
}
</script>
</body>
</html>
""".replace("__STEPPER__", stepper("W", 250)).replace("__BUTTONS__\n", BUTTONS)
