// Single Player's level list (R-1, R-2): ten levels a page, each read from the API, with whether
// it is open to this player (level n opens when n − 1 is won), its difficulty and HARD mark; and
// the player's best Single Player times (T-13).
// API.md § Boards and games: GET /levels/{n}, GET /levels/{n}/leaderboard, POST /games {"mode": "single", "level"},
// GET /records?mode=single.

import * as api from "../api.js";
import { esc, guard, leaderboardTable, recordsRows } from "../ui.js";

const PAGE = 10;

export async function show(root, { params: [page = "1"] }) {
  const first = (Math.max(1, Number(page) || 1) - 1) * PAGE + 1;
  root.innerHTML = `
    <h2>Single Player</h2>
    <p>Levels ${first}–${first + PAGE - 1} of 11,000. A first completion earns 10 points (R-3); a top-10 time
      5 more, the best time 10 (R-5).</p>
    <table class="levels"><thead><tr><th>level</th><th>layout</th><th>difficulty</th><th></th><th></th></tr></thead><tbody></tbody></table>
    <p class="pager">
      ${first > 1 ? `<a href="#/levels/${(first - 1) / PAGE}">← previous</a>` : ""}
      <a href="#/levels/${(first - 1) / PAGE + 2}">next →</a>
    </p>
    <div class="leaderboard-box"></div>
    <h3>Your best Single Player times</h3><table class="records"><tbody></tbody></table>`;
  const numbers = Array.from({ length: PAGE }, (_, i) => first + i);
  const levels = await Promise.all(numbers.map((n) => guard(() => api.level(n))));
  root.querySelector("table.levels tbody").innerHTML = levels
    .filter(Boolean)
    .map(
      (l) => `<tr data-level="${l.level}" class="${l.unlocked ? "open" : "locked"}">
        <td>${l.level}${l.hard ? ' <span class="hard">HARD</span>' : ""}</td><td>${esc(l.layout)}</td>
        <td>${l.difficulty.toFixed(2)}</td>
        <td>${l.unlocked ? `<button class="play-level" data-level="${l.level}">play</button>` : "locked"}</td>
        <td><a href="#" class="best" data-level="${l.level}">best times</a></td></tr>`,
    )
    .join("");
  for (const b of root.querySelectorAll("button.play-level"))
    b.onclick = () =>
      guard(async () => {
        const game = await api.gameCreate({ mode: "single", level: Number(b.dataset.level) });
        location.hash = `#/game/${game.id}`;
      });
  for (const a of root.querySelectorAll("a.best"))
    a.onclick = (ev) => {
      ev.preventDefault();
      guard(async () => {
        const rows = await api.levelLeaderboard(a.dataset.level); // R-4: ties share a place
        root.querySelector(".leaderboard-box").innerHTML = `<h3>Level ${a.dataset.level}: best times</h3>${
          rows.length
            ? leaderboardTable(rows)
            : "<p>nobody has completed it yet</p>"
        }`;
      });
    };
  const records = await guard(() => api.records("single"));
  if (records)
    root.querySelector("table.records tbody").innerHTML = recordsRows(records, "no level won yet");
}
