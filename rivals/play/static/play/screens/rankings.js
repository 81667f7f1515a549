// Rankings (R-33…R-35) and the player's own skill rating (R-41).
// API.md § Daily bonus and rankings: GET /rankings/{amr|weekly|daily}, GET /rankings/{board}/me;
// API.md § Matches and rounds: GET /ratings/{account_id}, GET /ratings.

import * as api from "../api.js";
import { esc, guard, playerName } from "../ui.js";

export async function show(root, { params: [board = "amr"] }) {
  root.innerHTML = `
    <h2>Rankings</h2>
    <p class="tabs">${["amr", "weekly", "daily"].map((b) => `<a href="#/rankings/${b}" class="${b === board ? "active" : ""}">${b === "amr" ? "AMR (365 days)" : b}</a>`).join(" · ")}</p>
    <div class="me-rank"></div>
    <table class="ranking"><tbody></tbody></table>
    <h3>Your rating</h3><div class="my-rating"></div>
    <h3>Rating board</h3><table class="rating-board"><tbody></tbody></table>`;
  const [page, me, mine, top] = await Promise.all([
    guard(() => api.ranking(board, 20)),
    guard(() => api.rankingMe(board)),
    guard(() => api.rating(api.session.accountId)),
    guard(() => api.ratings(10)),
  ]);
  if (me) root.querySelector(".me-rank").innerHTML = `You: place <b class="place">${me.place}</b> of ${me.total_players} with <b>${me.points}</b> points.`;
  if (page)
    root.querySelector("table.ranking tbody").innerHTML = page.results.length
      ? page.results.map((r) => `<tr class="${r.player.id === api.session.accountId ? "mine" : ""}"><td>${r.place}</td><td>${esc(playerName(r.player))}</td><td>${r.points}</td></tr>`).join("")
      : "<tr><td>nobody has points here yet</td></tr>";
  if (mine)
    root.querySelector(".my-rating").innerHTML = `ordinal <b class="ordinal">${mine.ordinal.toFixed(2)}</b> (μ ${mine.mu.toFixed(2)}, σ ${mine.sigma.toFixed(2)})${
      mine.provisional ? " — provisional: 12 rated one-to-one or 5 multi-player results make it count" : ""
    }; rated results: ${mine.rated.one_to_one} one-to-one, ${mine.rated.multi} multi-player.`;
  if (top)
    root.querySelector("table.rating-board tbody").innerHTML = top.results.length
      ? top.results.map((r) => `<tr><td>${r.place}</td><td>${esc(playerName(r.player))}</td><td>${r.ordinal.toFixed(2)}</td></tr>`).join("")
      : "<tr><td>no rating is past its provisional stage yet</td></tr>";
}
