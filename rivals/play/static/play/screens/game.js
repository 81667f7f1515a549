// A solo game (Single Player level, classic, Pool practice): the board, its figures and its
// buttons. API.md § Boards and games:
//   GET  /games/{id}          the whole board, once, when the screen opens (and after a 409)
//   POST /games/{id}/intents  {"seq", "type", ...} with Prefer: return=minimal — the compact
//                             answer is applied to the board held (Board.apply)
//   GET  /levels/{n}/leaderboard, GET /records?mode=single   after a level is won (R-4, T-13)
// Intent types: remove_pair / click_blocked (from the board's taps, T-7), hint (T-10), undo
// (T-11), shuffle (T-14), pause / resume (T-12), restart (R-10), joker (R-8: the selected tile).

import * as api from "../api.js";
import { refreshMe } from "../app.js";
import { Board } from "../board.js";
import { faceName } from "../faces.js";
import { esc, fmtMs, guard, leaderboardTable, showError } from "../ui.js";

const BUTTONS = {
  single: ["hint", "undo", "shuffle", "joker", "pause", "restart"],
  classic: ["hint", "undo", "shuffle", "pause"],
  pool_practice: ["hint", "undo", "shuffle", "restart", "end"],
};

export async function show(root, { params: [id] }) {
  let game = await api.game(id);
  let base = { elapsed: game.elapsed_ms, at: performance.now() };
  const buttons = BUTTONS[game.mode] || [];
  root.innerHTML = `
    <div class="game" data-game="${esc(game.id)}" data-mode="${esc(game.mode)}">
      <div class="panel">
        <h2>${game.mode === "single" ? `Level ${game.level}` : esc(game.mode === "classic" ? "Classic" : "Pool practice")}</h2>
        <div class="figures">
          <span>score <b class="score"></b></span>
          <span>status <b class="status"></b></span>
          <span>tiles <b class="tiles-left"></b></span>
          <span>time <b class="clock"></b></span>
          <span>seq <b class="seq"></b></span>
        </div>
        <div class="code">code <code>${esc(game.code || "—")}</code> · layout ${esc(game.layout)} · ${esc(game.ruleset)} rules</div>
        <div class="buttons">
          ${buttons.map((b) => `<button class="intent-${b}" data-intent="${b}">${b}</button>`).join("")}
          <a href="#/${game.mode === "single" ? "levels" : "classic"}">new game</a>
        </div>
        <div class="outcome"></div>
        <ol class="log" reversed></ol>
        <div class="after"></div>
      </div>
      <div class="board-wrap"></div>
    </div>`;
  const el = (sel) => root.querySelector(sel);
  const board = new Board(el(".board-wrap"), { ruleset: game.ruleset, send });

  function figures() {
    el(".score").textContent = game.score;
    el(".status").textContent = game.status;
    el(".status").dataset.status = game.status;
    el(".tiles-left").textContent = game.tiles_left ?? board.tiles.size;
    el(".seq").textContent = game.seq;
    const pause = el(".intent-pause");
    if (pause) {
      pause.textContent = game.status === "paused" ? "resume" : "pause";
      pause.dataset.intent = game.status === "paused" ? "resume" : "pause";
    }
    for (const b of root.querySelectorAll(".buttons button")) {
      b.disabled = !["playing", "paused", "stuck"].includes(game.status) && b.dataset.intent !== "restart";
    }
  }

  function log(text, cls = "") {
    el(".log").insertAdjacentHTML("afterbegin", `<li class="${cls}">${text}</li>`);
  }

  /** One event of an answer, as the server says it (R-13…R-16, T-10, T-14, R-8). */
  function told(ev) {
    const d = ev.data;
    if (d.play_ms !== undefined) base = { elapsed: d.play_ms, at: performance.now() };
    switch (ev.type) {
      case "PairRemoved": {
        const tags = [d.decisive && "decisive pair (R-15)", d.record && "speed record (R-14)"].filter(Boolean);
        log(`${d.faces.map(faceName).join(" + ")}: <b>+${d.points}</b>${tags.length ? ` — ${tags.join(", ")}` : ""}`, d.decisive ? "decisive" : d.record ? "record" : "");
        break;
      }
      case "BlockedTileClicked":
        log(`blocked tile: <b>${d.points}</b> (R-16)`, "blocked");
        break;
      case "HintGiven":
        board.showHint(d.tiles || []);
        log(d.tiles ? `hint: tiles ${d.tiles.join(" and ")}${d.cost ? ` (${-Math.abs(d.cost)})` : ""}` : esc(d.message || "no moves"), "hint");
        break;
      case "PairRestored":
        log(`undo: tiles ${d.tiles.join(" and ")} back (${-d.points_reverted})`);
        break;
      case "TilesShuffled":
        log(`shuffled${d.solvable ? " (solvable)" : " (not solvable)"}`);
        break;
      case "JokerUsed":
        log(`joker: ${d.faces.map(faceName).join(" + ")} removed`, "joker");
        break;
      case "GameWon":
        log(`<b>won</b> in ${fmtMs(d.play_ms)} with ${d.score}`, "won");
        break;
      case "GameStuck":
        log("stuck: no removable pair (T-8) — undo, shuffle or a new game", "stuck");
        break;
      default:
        log(esc(ev.type));
    }
  }

  async function send(body) {
    try {
      // API.md § Boards and games: the intent with `seq`, compact answer (Prefer: return=minimal)
      const answer = await api.gameIntent(game.id, { seq: game.seq, ...body });
      Object.assign(game, { seq: answer.seq, score: answer.score, status: answer.status, tiles_left: answer.tiles_left });
      board.apply(answer);
      answer.events.forEach(told);
      if (answer.awarded && answer.awarded.points) {
        el(".outcome").insertAdjacentHTML("beforeend", `<div class="awarded">points earned: <b>${answer.awarded.points}</b> (${answer.awarded.sources.map((s) => esc(s.award)).join(", ")})</div>`);
      }
      figures();
      if (["won", "ended"].includes(game.status)) finished();
      if (body.type === "shuffle" || body.type === "restart") board.showHint([]);
    } catch (err) {
      showError(err);
      if (err.code === "conflict") {
        // API.md § Conventions: a stale seq is 409 with the current seq — read the board again
        game = await api.game(game.id);
        board.load(game.tiles);
        figures();
      }
    }
  }

  async function finished() {
    const out = el(".outcome");
    out.dataset.done = game.status;
    out.insertAdjacentHTML("afterbegin", `<div class="result">${game.status === "won" ? "Board cleared!" : "Game over."} Score <b>${game.score}</b></div>`);
    refreshMe().catch(() => {});
    if (game.mode !== "single") return;
    const rows = await guard(() => api.levelLeaderboard(game.level)); // R-4
    if (rows)
      el(".after").innerHTML = `<h3>Level ${game.level}: best times</h3>${leaderboardTable(rows)}<p><a href="#/levels">next level</a></p>`;
  }

  for (const b of root.querySelectorAll(".buttons button")) {
    b.onclick = () => {
      const kind = b.dataset.intent;
      if (kind === "joker") {
        // R-8: the joker removes the selected (lifted, free) tile with its partner wherever it lies
        if (board.selected === null) return showError(new Error("select a free tile first, then use a joker"));
        const tile = board.selected;
        board.selected = null;
        return send({ type: "joker", tile });
      }
      return send({ type: kind });
    };
  }

  board.load(game.tiles);
  figures();
  if (["won", "ended"].includes(game.status)) finished();
  const timer = setInterval(() => {
    const running = game.status === "playing";
    el(".clock").textContent = fmtMs(base.elapsed + (running ? performance.now() - base.at : 0));
  }, 100);
  return () => clearInterval(timer);
}
