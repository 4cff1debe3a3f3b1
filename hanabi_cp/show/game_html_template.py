r"""The real-game replay page's markup, style and script (``game_html.page`` fills in
the chart and the data).

Step K is position K: the deal (0), then the state after the K-th action.  The URL
fragment ``#step=K`` opens the page at step K and follows it; ``#selftest`` runs
``hanabiSelfTest()`` and writes its verdict into ``body[data-selftest]``.  The
shown state is also in data attributes, for tests: ``#hands[data-hands]`` (each
player's deck positions, oldest first, as the referee keeps them),
``#piles[data-levels]``, ``#clues[data-count]`` (``unlimited`` if so),
``#strikes[data-count]``, ``#deckleft[data-count]``, ``#discards[data-lost]`` (deck
positions in the order they were lost) and ``#mover[data-player]``.
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
.bar { display: flex; gap: 6px; align-items: center; margin: 10px 0 6px; flex-wrap: wrap; }
button { font: inherit; padding: 3px 10px; border: 1px solid #888; border-radius: 4px;
         background: #fff; cursor: pointer; }
button:hover { background: #eee; }
#where { margin-left: 10px; font-variant-numeric: tabular-nums; }
.keys { color: #777; font-size: 12px; }
#chart { display: block; width: 100%; height: auto; background: #fff;
         border: 1px solid #ccc; cursor: pointer; }
#chart .tick { font-size: 10px; fill: #666; }
.legend { font-size: 12px; color: #555; margin: 3px 0 4px; }
.legend i { display: inline-block; width: 22px; height: 0; vertical-align: middle; margin: 0 4px 0 12px; }
#now { font-size: 16px; font-weight: bold; margin: 4px 0 0; min-height: 22px; }
#now.lost { color: #c62828; }
#why { margin: 2px 0 0; padding: 0 0 0 18px; font-size: 14px; color: #333; max-width: 60em; }
#why:empty { display: none; }
.stats { display: flex; gap: 18px; flex-wrap: wrap; margin: 2px 0 8px; font-variant-numeric: tabular-nums; }
.stat b { font-size: 15px; }
.stat.warn b { color: #c62828; }
.panels { display: grid; grid-template-columns: max-content 1fr; gap: 6px 14px; align-items: center; }
#hands { display: contents; }   /* its rows join the board's grid */
.label { color: #555; font-size: 12px; text-align: right; }
.label.mover { color: #000; font-weight: bold; }
.label.mover::before { content: "\25B6  "; color: #1565c0; }
.cards { display: flex; gap: 4px; flex-wrap: wrap; align-items: center; min-height: 42px; }
.row { justify-self: start; padding: 2px 6px; border-radius: 6px; }
.row.clued { background: #ffe9a8; }
.card { width: 32px; height: 42px; border-radius: 5px; box-sizing: border-box;
        display: flex; flex-direction: column; align-items: center; justify-content: center;
        font-weight: bold; font-size: 17px; box-shadow: 0 1px 2px rgba(0,0,0,.35); position: relative; }
.card small { font-weight: normal; font-size: 9px; opacity: .9; }
.card.empty { background: #fff; border: 1px dashed #aaa; box-shadow: none; color: #999; }
.card.touched { outline: 3px solid #ffb300; outline-offset: 1px; }
.card.now { outline: 3px solid #000; outline-offset: 1px; }
.card.new::after { content: ""; position: absolute; top: -4px; right: -4px; width: 8px; height: 8px;
                   border-radius: 50%; background: #1565c0; border: 1px solid #fff; }
.card.misplay::after { content: "\2717"; position: absolute; top: -8px; right: -5px; color: #c62828;
                       font-size: 13px; text-shadow: 0 0 2px #fff; }
.card.out { opacity: .45; }
.pile { display: flex; flex-direction: column; align-items: center; font-size: 10px; color: #555; }
.group { display: flex; gap: 2px; margin-right: 10px; }
</style>
</head>
<body data-selftest="">
<h1 id="title"></h1>
<p class="sub" id="rules"></p>
<p class="sub" id="outcome"></p>
<div class="bar">
__BUTTONS__
  <span id="where">position <b id="step">0</b> of <span id="of">0</span></span>
  <span class="keys">keys: &larr; &rarr; (shift: 10), Home, End, space; click the chart to jump</span>
</div>
__CHART__
<div class="legend" id="legend"></div>
<div id="now"></div>
<ul id="why"></ul>
<div class="stats">
  <span class="stat">score (piles) <b id="score"></b></span>
  <span class="stat">best still reachable <b id="best"></b></span>
  <span class="stat">hanab.live max <b id="max"></b></span>
  <span class="stat">clue tokens <b id="clues" data-count=""></b></span>
  <span class="stat" id="strikebox">strikes <b id="strikes" data-count=""></b></span>
  <span class="stat">deck <b id="deckleft" data-count=""></b></span>
  <span class="stat"><span id="mover" data-player=""></span></span>
</div>
<div class="panels" id="board">
  <div class="label">piles</div>
  <div class="cards" id="piles" data-levels=""></div>
  <div id="hands" data-hands=""></div>
  <div class="label">discards</div>
  <div class="cards" id="discards" data-lost=""></div>
</div>
<p class="keys">Hands: the newest card on the left, as on hanab.live; <span style="color:#1565c0">&#x25CF;</span>
  the card just drawn, <span style="color:#b07a00">outlined</span>: the cards the clue just given touches
  (its player's row shaded); black outline: the card just played or discarded; &#x2717;: a misplay (strike).</p>
<p class="keys" id="selftest"></p>
<script type="application/json" id="data">__DATA__</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const M = D.actions.length;
const $ = (id) => document.getElementById(id);
let step = 0, cache = null, timer = null;

// The deal: player i holds deck cards i*H .. (i+1)*H - 1, the rest is the draw pile.
function fresh() {
  const s = {k: 0, turn: 0, hands: [], piles: new Array(D.suits.length).fill(0), clues: D.clueMax,
             strikes: 0, drawn: Math.min(D.P * D.H, D.N), lost: [], misplays: [], endTurn: null,
             drew: -1, tops: new Array(D.suits.length).fill(-1)};
  for (let i = 0; i < D.P; i++) {
    const hand = [];
    for (let o = i * D.H; o < Math.min((i + 1) * D.H, D.N); o++) hand.push(o);
    s.hands.push(hand);
  }
  if (s.drawn === D.N) lastDrawn(s);
  return s;
}

function mover(s) { return (s.turn + D.first) % D.P; }
function gain(s) { if (s.clues !== null && s.clues < D.clueMax) s.clues += 1; }
// A pile holds a count of cards; a reversed suit's is played from n down to 1.
function valueAt(j, height) { return D.down[j] ? D.n + 1 - height : height; }
function lastDrawn(s) { if (D.finalRound) s.endTurn = s.turn + D.P + 1; }
function lose(s, o) { s.lost.push(o); }

// The referee's rules (hanabi_cp/real/referee.py), for the moves of a recorded game.
function apply(s) {
  const [kind, target] = D.actions[s.k];
  s.k += 1;
  s.drew = -1;
  if (kind === 4 || kind === 5) return;           // the game ended without a move
  if (kind === 2 || kind === 3) {
    if (s.clues !== null) s.clues -= D.clueCost;
    s.turn += 1;
    return;
  }
  const o = target, hand = s.hands[mover(s)];
  const fromDeck = kind === 0 && D.deckPlays && s.drawn === D.N - 1 && o === D.N - 1;
  if (kind === 1) { gain(s); lose(s, o); }
  else {
    const a = D.cards[2 * o], k = D.cards[2 * o + 1];
    // Up or Down, Sudoku: the piles choose their order in play; the referee says
    // which plays the piles took (D.playOk), a pile is complete after D.stack cards
    const ok = D.playOk ? D.playOk[s.k - 1] : valueAt(k - 1, s.piles[k - 1] + 1) === a;
    if (ok) {
      s.piles[k - 1] += 1;
      s.tops[k - 1] = o;
      if (s.piles[k - 1] === D.stack && D.topGivesToken) gain(s);
    }
    else { s.strikes += 1; lose(s, o); s.misplays.push(o); }
  }
  if (fromDeck) { s.drawn += 1; lastDrawn(s); }
  else {
    hand.splice(hand.indexOf(o), 1);
    if (s.drawn < D.N) {
      hand.push(s.drawn);
      s.drew = s.drawn;
      s.drawn += 1;
      if (s.drawn === D.N) lastDrawn(s);
    }
  }
  s.turn += 1;
}

function stateAt(K) {
  if (cache === null || cache.k > K) cache = fresh();
  while (cache.k < K) apply(cache);
  return cache;
}

function view(s) {   // the checked part of a state, in the referee's terms
  return JSON.stringify({hands: s.hands, piles: s.piles, clues: s.clues, strikes: s.strikes,
                         drawn: s.drawn, lost: s.lost, endTurn: s.endTurn, mover: mover(s)});
}

function tile(o, cls) {
  const a = D.cards[2 * o], k = D.cards[2 * o + 1], suit = D.suits[k - 1];
  const el = document.createElement("div");
  el.className = "card" + (cls ? " " + cls : "");
  el.style.background = suit.fill;
  el.style.color = suit.ink;
  const rank = a === D.start ? "START" : String(a);      // Up or Down's START card
  el.textContent = a === D.start ? "S" : rank;
  const small = document.createElement("small");
  small.textContent = suit.letter;
  el.appendChild(small);
  el.title = suit.name + " " + rank + " (card #" + o + ")";
  el.dataset.order = String(o);
  return el;
}

function empty(text) {
  const el = document.createElement("div");
  el.className = "card empty";
  el.textContent = text;
  return el;
}

function bestText(K) {
  const [, best, lo, hi] = D.rows[K];
  return D.undecided[K] ? "undecided " + lo + ".." + hi : String(best);
}

function render() {
  const s = stateAt(step);
  $("step").textContent = String(step);
  $("of").textContent = String(M);
  const [score, , , , max] = D.rows[step];
  const drop = D.drops[String(step)];
  const now = $("now");
  now.className = drop ? "lost" : "";
  const fell = drop ? " \u2014 best score " + drop[0] + " \u2192 " + drop[1] : "";
  now.textContent = step === 0 ? "the deal" : "turn " + D.turns[step] + ": " + D.texts[step] + fell;
  const why = $("why");
  why.replaceChildren();
  for (const line of (drop && D.why[String(step)]) || []) {
    const li = document.createElement("li");
    li.textContent = line;
    why.appendChild(li);
  }
  $("score").textContent = score + " of " + D.target;
  $("best").textContent = bestText(step);
  $("max").textContent = String(max);
  // Clue Starved counts half tokens (a clue costs 2): shown in whole tokens
  $("clues").textContent = s.clues === null ? "unlimited"
    : s.clues / D.clueCost + " of " + D.clueMax / D.clueCost;
  $("clues").dataset.count = s.clues === null ? "unlimited" : String(s.clues);
  $("strikes").textContent = s.strikes + " of " + D.strikeMax;
  $("strikes").dataset.count = String(s.strikes);
  $("strikebox").className = "stat" + (s.strikes ? " warn" : "");
  const left = D.N - s.drawn;
  $("deckleft").textContent = left + (left === 1 ? " card" : " cards") +
    (s.endTurn !== null ? "; final round: " + Math.max(0, s.endTurn - s.turn) + " turns left" : "");
  $("deckleft").dataset.count = String(left);
  const over = step === M && D.over;
  $("mover").textContent = over ? "game over: " + D.end : "to move: " + D.names[mover(s)];
  $("mover").dataset.player = over ? "" : String(mover(s));
  const act = step > 0 ? D.actions[step - 1] : null;
  const movedNow = act && act[0] <= 1 ? act[1] : -1;     // the card played or discarded
  const piles = $("piles");
  piles.replaceChildren();
  s.piles.forEach((v, j) => {
    const box = document.createElement("div");
    box.className = "pile";
    let shown = empty(D.suits[j].letter);
    if (v > 0) {
      // the pile's top card: the deck card of that suit and rank played last
      const o = D.playOk ? s.tops[j] : lastPlayed(s, j + 1, valueAt(j, v));
      shown = tile(o, o === movedNow ? "now" : "");
    }
    box.appendChild(shown);
    const lab = document.createElement("span");
    lab.textContent = D.suits[j].name;
    box.appendChild(lab);
    piles.appendChild(box);
  });
  piles.dataset.levels = s.piles.join(" ");
  const hands = $("hands");
  hands.replaceChildren();
  const touched = new Set(D.touched[step]);
  const clued = act && (act[0] === 2 || act[0] === 3) ? act[1] : -1;
  s.hands.forEach((hand, p) => {
    const lab = document.createElement("div");
    lab.className = "label" + (!over && p === mover(s) ? " mover" : "");
    lab.textContent = D.names[p];
    const row = document.createElement("div");
    row.className = "cards row" + (p === clued ? " clued" : "");
    for (let i = hand.length - 1; i >= 0; i--) {
      const o = hand[i];
      row.appendChild(tile(o, (touched.has(o) ? "touched" : "") + (o === s.drew ? " new" : "")));
    }
    for (let i = hand.length; i < D.H; i++) row.appendChild(empty(""));
    hands.appendChild(lab);
    hands.appendChild(row);
  });
  hands.dataset.hands = JSON.stringify(s.hands);
  const discards = $("discards");
  discards.replaceChildren();
  const bySuit = D.suits.map(() => []);
  for (const o of s.lost) bySuit[D.cards[2 * o + 1] - 1].push(o);
  bySuit.forEach((group) => {
    if (!group.length) return;
    group.sort((x, y) => D.cards[2 * x] - D.cards[2 * y]);
    const g = document.createElement("div");
    g.className = "group";
    for (const o of group) {
      g.appendChild(tile(o, (s.misplays.includes(o) ? "misplay" : "") + (o === movedNow ? " now" : "")));
    }
    discards.appendChild(g);
  });
  if (!s.lost.length) discards.appendChild(empty("\u2013"));
  discards.dataset.lost = JSON.stringify(s.lost);
  moveCursor();
}

function lastPlayed(s, k, v) {
  // Of the copies of (v, k), the one played is the copy not lost and no longer held
  // nor in the draw pile: the first such by deck position.
  const held = new Set(s.hands.flat());
  for (let o = 0; o < s.drawn; o++) {
    if (D.cards[2 * o] === v && D.cards[2 * o + 1] === k && !held.has(o) && !s.lost.includes(o)) return o;
  }
  return s.drawn - 1;
}

function moveCursor() {
  const svg = $("chart"), left = +svg.dataset.left, unit = +svg.dataset.unit;
  $("cursor").setAttribute("x", String(left + step * unit));
}

__STEPPER__
$("chart").addEventListener("click", (e) => {
  const svg = e.currentTarget, r = svg.getBoundingClientRect(), box = svg.viewBox.baseVal;
  const x = (e.clientX - r.left) * box.width / r.width;
  go(Math.floor((x - +svg.dataset.left) / +svg.dataset.unit));
});

// Every position: the page's own replay against the referee's state computed in
// Python, then what the page shows against it; then the keys and buttons.
window.hanabiSelfTest = function () {
  const problems = [];
  cache = null;
  for (let K = 0; K <= M; K++) {
    const want = D.check[K];
    if (view(stateAt(K)) !== JSON.stringify(want)) { problems.push("state at position " + K); break; }
    go(K);
    const shown = JSON.stringify({hands: JSON.parse($("hands").dataset.hands),
      piles: $("piles").dataset.levels, clues: $("clues").dataset.count,
      strikes: +$("strikes").dataset.count, left: +$("deckleft").dataset.count,
      lost: JSON.parse($("discards").dataset.lost)});
    const expected = JSON.stringify({hands: want.hands, piles: want.piles.join(" "),
      clues: want.clues === null ? "unlimited" : String(want.clues), strikes: want.strikes,
      left: D.N - want.drawn, lost: want.lost});
    if (shown !== expected) { problems.push("shown at position " + K); break; }
  }
  go(0);
  document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight"}));
  if (M > 0 && step !== 1) problems.push("right arrow");
  $("next").click();
  if (M > 1 && step !== 2) problems.push("next button");
  document.dispatchEvent(new KeyboardEvent("keydown", {key: "End"}));
  if (step !== M) problems.push("End key");
  $("first").click();
  if (step !== 0) problems.push("first button");
  return problems.length ? "FAIL: " + problems.join(", ") : "ok";
};

$("title").textContent = D.head;
$("rules").textContent = D.rules;
$("outcome").textContent = D.outcome;
const L = D.lines;
const legend = [[L.score, "solid", "score (piles)"], [L.best, "solid", "best score still reachable"],
                [L.max, "dashed", "hanab.live's max score (discards only)"]];
if (D.undecided.some((x) => x)) legend.push([L.band, "solid", "undecided: lower..upper bound"]);
if (Object.keys(D.drops).length) legend.push([D.alarm, "solid", "an action that lost points (hover it)"]);
for (const [color, style, text] of legend) {
  const i = document.createElement("i");
  i.style.borderTop = "3px " + style + " " + color;
  $("legend").appendChild(i);
  $("legend").appendChild(document.createTextNode(text));
}
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
""".replace("__STEPPER__", stepper("M", 700)).replace("__BUTTONS__\n", BUTTONS)
