// A match: Quick Match (one round, R-12), Arena (three rounds, R-20), a duel or a tournament table.
// API.md § Matches and rounds:
//   GET  /matches/{id}          rounds (with each deal's commitment, R-40), standings, prizes —
//                               read when the screen opens and once after a round ends
//   GET  /rounds/{id}           own board as a game, `opponents`, `ends_at`, `status` — read once
//                               per round, after subscribing to its topic (so nothing is missed)
//   POST /rounds/{id}/intents   remove_pair / click_blocked with `seq`, Prefer: return=minimal
// API.md § Live updates: topics `match:<id>` (RoundScheduled, RoundEnded, MatchFinished) and
// `round:<id>` (own board events, each opponent's {"player", "score", "pairs_left", "finished",
// "stuck"} — never their tiles — and RoundEnded). The opponents' progress and the end are pushed:
// the screen sends no request while the opponent plays.
// The clock: `ends_at` as the server says it (R-17: 5 minutes, or 20 s without a pair from anyone:
// it moves with every pair — an opponent's pair pushed at `at` moves it to at + 20 s).

import * as api from "../api.js";
import { refreshMe } from "../app.js";
import { Board } from "../board.js";
import { live } from "../live.js";
import { esc, fmtMs, guard, playerName, showError } from "../ui.js";
import { dealPanel, wireDealPanels } from "../verify.js";

const IDLE_MS = 20_000; // R-17
const ROUND_MS = 5 * 60_000; // R-17

export async function show(root, { params: [matchId] }) {
  const me = api.session.accountId;
  let match = await api.match(matchId);
  const names = new Map(match.players.map((p) => [p.id, playerName(p)]));
  const subs = [];
  let round = null; // the round being shown: the API's round, plus what the screen keeps
  let board = null;
  let refreshing = null;

  root.innerHTML = `
    <div class="match" data-match="${esc(match.id)}" data-mode="${esc(match.mode)}">
      <div class="panel">
        <h2>${match.mode === "quick" ? "Quick Match" : match.mode === "arena" ? "Arena" : esc(match.mode)}</h2>
        <div class="round-title"></div>
        <div class="figures">
          <span>clock <b class="clock">—</b></span>
          <span>your score <b class="score">0</b></span>
          <span>pairs left <b class="pairs-left"></b></span>
        </div>
        <table class="opponents"><thead><tr><th>opponent</th><th>score</th><th>pairs left</th><th></th></tr></thead><tbody></tbody></table>
        <div class="round-result"></div>
        <div class="match-result"></div>
        <div class="deals"></div>
      </div>
      <div class="board-wrap"></div>
    </div>`;
  const el = (sel) => root.querySelector(sel);

  function opponentsRow(o) {
    const status = o.finished ? (o.pairs_left === 0 ? "cleared" : "finished") : o.stuck ? "stuck" : "playing";
    return `<tr data-player="${o.player.id}"><td>${esc(names.get(o.player.id) || playerName(o.player))}</td>
      <td class="opp-score">${o.score}</td><td class="opp-pairs">${o.pairs_left}</td><td class="opp-status">${status}</td></tr>`;
  }

  function drawOpponents() {
    el("table.opponents tbody").innerHTML = [...round.opponents.values()].map(opponentsRow).join("");
  }

  function drawFigures() {
    el(".score").textContent = round.score;
    el(".pairs-left").textContent = Math.floor(board.tiles.size / 2);
    el(".round-title").textContent = `Round ${round.index} of ${match.rounds_total} · ${round.status}`;
    el(".round-title").dataset.status = round.status;
  }

  /** A message of the round's topic. */
  function onRound(msg) {
    if (msg.op !== "event" || !round || msg.topic !== `round:${round.id}`) return;
    const d = msg.data;
    if (d.player) {
      // an opponent's board changed: their figures only (API.md: never their tiles)
      round.opponents.set(d.player.id, d);
      if (msg.type === "PairRemoved" || msg.type === "JokerUsed") {
        const at = Date.parse(msg.at);
        round.endsAt = Math.max(round.endsAt, Math.min(at + IDLE_MS, round.startsAt + ROUND_MS)); // R-17
      }
      drawOpponents();
    } else if (msg.type === "RoundEnded") {
      roundEnded(d);
    } else if (msg.type === "GameEnded" || msg.type === "GameStuck") {
      round.boardStatus = d.status; // own board closed by the server (the round's end, T-8)
    }
    // own PairRemoved & co. were already applied from the intent's answer
  }

  /** A message of the match's topic: the next Arena round, the match's end. */
  function onMatch(msg) {
    if (msg.op !== "event") return;
    if (msg.type === "RoundScheduled" && (!round || msg.data.index > round.index)) {
      guard(() => loadRound(msg.data.round_id));
    } else if (msg.type === "RoundEnded" && round && msg.data.round_id === round.id) {
      roundEnded(msg.data);
    } else if (msg.type === "MatchFinished") {
      refreshMatch();
    }
  }

  function roundEnded(d) {
    if (round.result) return;
    round.result = d;
    round.status = "ended";
    freeze();
    drawFigures();
    el(".round-result").innerHTML = `<h3>Round ${d.index} over (${esc(d.reason)})</h3>
      <table class="places">${d.results
        .map(
          (r) => `<tr class="${r.account_id === me ? "mine" : ""}" data-player="${r.account_id}"><td>${r.place}</td>
          <td>${esc(names.get(r.account_id) || r.account_id)}${r.account_id === me ? " (you)" : ""}</td><td>${r.score}</td>
          <td>${r.completed ? "cleared the board" : `${r.pairs_left} pairs left`}</td></tr>`,
        )
        .join("")}</table>`;
    refreshMatch();
  }

  /** The end of a round read (`GET /rounds/{id}`'s `result`), in the shape of its RoundEnded event. */
  function endedAsRead(r) {
    roundEnded({ ...r.result, index: r.index, results: r.result.places.map((p) => ({ ...p, account_id: p.player.id })) });
  }

  /** GET /matches/{id}: standings, prizes and the deals (revealed once over, R-40). */
  function refreshMatch() {
    if (refreshing) return refreshing;
    refreshing = guard(async () => {
      match = await api.match(matchId);
      el(".deals").innerHTML = match.rounds.map((r) => dealPanel(r, `Round ${r.index}'s deal`)).join("");
      wireDealPanels(el(".deals"));
      if (match.status === "finished") {
        const prize = new Map(match.prizes.map((p) => [p.player.id, p.points]));
        el(".match-result").innerHTML = `<h3 class="finished">Match over</h3><table class="standings">${match.standings
          .map(
            (s) => `<tr class="${s.player.id === me ? "mine" : ""}" data-player="${s.player.id}"><td>${s.place}</td><td>${esc(playerName(s.player))}</td>
            <td>${s.score}</td><td class="prize">+${prize.get(s.player.id) || 0} points</td></tr>`,
          )
          .join("")}</table>`;
        el(".match-result").dataset.points = prize.get(me) || 0;
        refreshMe().catch(() => {});
      }
    }).finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  async function send(body) {
    if (round.status !== "running") return showError(new Error(round.status === "scheduled" ? "the round has not started yet" : "the round is over"));
    const sent = round;
    try {
      const a = await api.roundIntent(sent.id, { seq: sent.seq, ...body }); // Prefer: return=minimal
      if (round !== sent) return; // the round's last pair: the next Arena round is shown already
      round.seq = a.seq;
      round.score = a.score;
      round.boardStatus = a.board_status;
      round.endsAt = Date.parse(a.ends_at);
      if (a.status === "ended") round.status = "ended";
      board.apply(a);
      for (const ev of a.events) if (ev.type === "PairRemoved" && ev.data.decisive) flash("decisive pair +300");
      drawFigures();
      freeze();
    } catch (err) {
      showError(err);
      if (err.code === "conflict") await loadRound(round.id, true);
    }
  }

  function flash(text) {
    el(".round-title").insertAdjacentHTML("afterend", `<div class="flash">${esc(text)}</div>`);
    setTimeout(() => root.querySelector(".flash")?.remove(), 1500);
  }

  async function loadRound(roundId, again = false) {
    if (round && round.id === roundId && !again) return;
    if (round && round.id !== roundId) live.unsubscribe(`round:${round.id}`);
    // subscribe first, then read: whatever happens after the read arrives on the socket
    subs.push(live.subscribe(`round:${roundId}`, onRound));
    const r = await api.round(roundId);
    round = {
      id: r.round_id,
      index: r.index,
      status: r.status,
      boardStatus: r.board_status,
      seq: r.seq,
      score: r.score,
      startsAt: Date.parse(r.starts_at),
      endsAt: Date.parse(r.ends_at),
      opponents: new Map(r.opponents.map((o) => [o.player.id, o])),
      result: null,
    };
    board = new Board(el(".board-wrap"), { ruleset: r.ruleset, send });
    board.load(r.tiles);
    drawOpponents();
    drawFigures();
    if (r.result) endedAsRead(r);
    freeze();
  }

  /** Playable: started (by the server's clock), not over, and the own board still in play. */
  function freeze(now = Date.now() + api.clockSkewMs) {
    board.frozen = round.status === "ended" || now < round.startsAt || round.boardStatus !== "playing";
    el(".board-wrap").dataset.playable = board.frozen ? "0" : "1";
  }

  let askedEnd = false;
  const timer = setInterval(() => {
    if (!round) return;
    const now = Date.now() + api.clockSkewMs;
    const clock = el(".clock");
    freeze(now);
    if (round.status === "ended") {
      clock.textContent = "over";
    } else if (now < round.startsAt) {
      clock.textContent = `starts in ${Math.ceil((round.startsAt - now) / 1000)} s`;
    } else {
      if (round.status === "scheduled") {
        round.status = "running";
        drawFigures();
      }
      const left = round.endsAt - now;
      clock.textContent = fmtMs(left);
      clock.dataset.leftMs = Math.max(0, Math.round(left));
      if (left <= -1000 && !askedEnd) {
        // the deadline passed and no end was pushed yet: one read applies it (the server ends a
        // round on read, by its timer task and by a sweeper, whichever comes first)
        askedEnd = true;
        guard(async () => {
          const r = await api.round(round.id);
          if (r.result) endedAsRead(r);
          else round.endsAt = Date.parse(r.ends_at);
          askedEnd = !!r.result;
        });
      }
    }
  }, 200);

  subs.push(live.subscribe(`match:${matchId}`, onMatch));
  const current = [...match.rounds].sort((a, b) => b.index - a.index)[0];
  await loadRound(current.id);
  if (match.status === "finished" || current.status === "ended") refreshMatch();
  else {
    el(".deals").innerHTML = match.rounds.map((r) => dealPanel(r, `Round ${r.index}'s deal`)).join("");
  }
  return () => {
    clearInterval(timer);
    subs.forEach((unsubscribe) => unsubscribe());
  };
}
