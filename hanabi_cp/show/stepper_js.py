"""The step controls both HTML replays share (``html_template``, the solitaire
deck; ``game_html_template``, a real game): the ``BUTTONS`` of the page's bar and
the script of ``stepper``.  ``go(K)`` clamps K to 0..LAST, renders and
records ``#step=K`` in the URL; the first / previous / next / last / play buttons,
the arrow keys (Shift: 10 steps), Home, End and the space bar, and the URL fragment
followed on ``hashchange``.  Each page defines ``render()``, ``step``, ``timer`` and
its last step's name (LAST)."""


# The buttons the script drives, in the page's bar.
BUTTONS = """  <button id="first" title="Home">|&#x25C0;</button>
  <button id="prev" title="Left arrow">&#x25C0;</button>
  <button id="play" title="Space">play</button>
  <button id="next" title="Right arrow">&#x25B6;</button>
  <button id="last" title="End">&#x25B6;|</button>
"""


def stepper(last: str, interval_ms: int) -> str:
    """The script of the controls for a page whose last step is the variable ``last``,
    playing one step every ``interval_ms`` milliseconds."""
    return _STEPPER.replace("LAST", last).replace("INTERVAL", str(interval_ms))


_STEPPER = r"""function go(K, fromHash) {
  step = Math.max(0, Math.min(LAST, K | 0));
  render();
  if (!fromHash) history.replaceState(null, "", "#step=" + step);
}

function fromHash() {
  const m = /step=(\d+)/.exec(location.hash);
  if (m) go(parseInt(m[1], 10), true);
}

function toggle() {
  if (timer !== null) { clearInterval(timer); timer = null; $("play").textContent = "play"; return; }
  $("play").textContent = "pause";
  timer = setInterval(() => { if (step >= LAST) toggle(); else go(step + 1); }, INTERVAL);
}

$("first").onclick = () => go(0);
$("prev").onclick = () => go(step - 1);
$("next").onclick = () => go(step + 1);
$("last").onclick = () => go(LAST);
$("play").onclick = toggle;
document.addEventListener("keydown", (e) => {
  const by = e.shiftKey ? 10 : 1;
  if (e.key === "ArrowRight") go(step + by);
  else if (e.key === "ArrowLeft") go(step - by);
  else if (e.key === "Home") go(0);
  else if (e.key === "End") go(LAST);
  else if (e.key === " ") toggle();
  else return;
  e.preventDefault();
});
window.addEventListener("hashchange", fromHash);"""
