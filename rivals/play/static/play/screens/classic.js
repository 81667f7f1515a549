// Classic: start a game on a random deal or on a code (T-9) — or a Pool practice game (Part P) —
// and see one's best times (T-13).
// API.md § Boards and games: POST /games {"mode": "classic" | "pool_practice", "code"?},
// GET /records?mode=classic.

import * as api from "../api.js";
import { guard, recordsRows } from "../ui.js";

export async function show(root) {
  root.innerHTML = `
    <h2>Classic</h2>
    <p>Free tiles are drawn bright; a greyed tile is blocked (T-5). Tap two free matching tiles to remove them (T-7).</p>
    <form class="new-classic">
      <label>Game code (optional) <input name="code" placeholder="MJ1-L00-AAAAAAB" size="18"></label>
      <button>Start</button>
      <button type="button" class="pool">Pool practice (Part P scoring)</button>
    </form>
    <h3>Your best times</h3>
    <table class="records"><tbody><tr><td>…</td></tr></tbody></table>`;
  const form = root.querySelector("form.new-classic");
  /** A new game of `mode` on the code typed, or on a random deal. */
  const start = (mode) =>
    guard(async () => {
      const code = form.code.value.trim();
      const game = await api.gameCreate(code ? { mode, code } : { mode });
      location.hash = `#/game/${game.id}`;
    });
  form.onsubmit = (ev) => {
    ev.preventDefault();
    start("classic");
  };
  form.querySelector("button.pool").onclick = () => start("pool_practice");
  const rows = await guard(() => api.records("classic"));
  if (rows)
    root.querySelector("table.records tbody").innerHTML = recordsRows(rows, "no win yet");
}
