// Small helpers shared by the screens: escaping, the error banner (the API's `message`, as it is),
// times, the tables of best times.

export const $ = (selector, root = document) => root.querySelector(selector);

export function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/** API.md § Conventions: a refusal's `message` is for people — show it, with its `code`. */
export function showError(err) {
  const box = $("#error");
  box.textContent = err.message || String(err);
  box.dataset.code = err.code || "";
  box.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => (box.hidden = true), 8000);
}

export function clearError() {
  $("#error").hidden = true;
}

/** Run `fn`, showing an error instead of throwing. */
export async function guard(fn) {
  try {
    return await fn();
  } catch (err) {
    showError(err);
    return undefined;
  }
}

/** 83450 → "1:23.4" */
export function fmtMs(ms) {
  if (ms === null || ms === undefined) return "—";
  const s = Math.max(0, ms) / 1000;
  return `${Math.floor(s / 60)}:${(s % 60).toFixed(1).padStart(4, "0")}`;
}

export function playerName(player) {
  if (!player) return "—";
  return player.display_name || `player ${player.id}`;
}

/** A level's best times (`GET /levels/{n}/leaderboard`, R-4: ties share a place) as a table. */
export function leaderboardTable(rows) {
  return `<table class="leaderboard">${rows.map((r) => `<tr><td>${r.place}</td><td>${esc(playerName(r.player))}</td><td>${fmtMs(r.time_ms)}</td></tr>`).join("")}</table>`;
}

/** Own best times (`GET /records`, T-13) as table rows; `none` the row when there is none. */
export function recordsRows(rows, none) {
  return rows.length
    ? rows.map((r, i) => `<tr><td>${i + 1}</td><td>${fmtMs(r.time_ms)}</td><td>${esc(r.layout)}</td><td><code>${esc(r.code)}</code></td></tr>`).join("")
    : `<tr><td>${none}</td></tr>`;
}
