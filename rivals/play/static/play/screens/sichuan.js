// The Sichuan "Bloody Battle" table (Part S, SICHUAN.md): you at seat 0 against three server AIs,
// one deal. The server lists the human seat's legal actions; this screen shows each as a button
// and sends it back as an intent — it knows no rule of its own.
// API.md § Sichuan table:
//   POST /sichuan {"seed"?}            a new table
//   GET  /sichuan/{id}                 your view: hand, melds, discards, wall count, missing suits,
//                                      whose turn, legal actions (read when the screen opens)
//   POST /sichuan/{id}/intents {"seq", "type", ...}   → {"accepted", "events", "table"}: the AIs'
//                                      moves up to your next decision come in the same answer

import * as api from "../api.js";
import { faceName } from "../faces.js";
import { esc, guard, showError } from "../ui.js";

const SUIT = { B: "bamboo", C: "characters", D: "dots" };
const SEAT = (s) => (s === 0 ? "you" : `AI ${s}`);

function tile(t, extra = "") {
  const suit = t.face.slice(-1);
  return `<span class="stile suit-${esc(suit)} ${extra}" data-tile="${t.id}" data-face="${esc(t.face)}" title="${esc(faceName(t.face))}">${esc(t.face[0])}<small>${esc(suit)}</small></span>`;
}

function actionLabel(a) {
  switch (a.type) {
    case "declare_missing":
      return `declare ${SUIT[a.suit] || a.suit} missing`;
    case "discard":
      return `discard ${a.face ? faceName(a.face) : a.tile}`;
    case "kong":
      return `kong ${a.face ? faceName(a.face) : ""}`;
    default:
      return a.type; // pong, win, pass
  }
}

export async function show(root, { params: [tableId] }) {
  if (!tableId) {
    root.innerHTML = `<h2>Sichuan table</h2>
      <p>One deal of 108 suited tiles against three AIs (Part S). Declare a missing suit, then discard; pong, kong and
        win when the server offers it. Winners leave the play; the deal ends when three have won or the wall is empty.</p>
      <form class="new-table"><label>Seed (optional) <input name="seed" type="number" min="0"></label> <button>Sit at a new table</button></form>`;
    const form = root.querySelector("form.new-table");
    form.onsubmit = (ev) => {
      ev.preventDefault();
      guard(async () => {
        const table = await api.sichuanCreate(form.seed.value === "" ? undefined : Number(form.seed.value));
        location.hash = `#/sichuan/${table.id}`;
      });
    };
    return;
  }
  let table = await api.sichuan(tableId);
  root.innerHTML = `<div class="sichuan" data-table="${esc(table.id)}"><h2>Sichuan table</h2><div class="table-view"></div>
    <h3>What happened</h3><ol class="log" reversed></ol></div>`;
  const view = root.querySelector(".table-view");
  const logEl = root.querySelector(".log");

  const faces = new Map(); // tile id → face, from every tile the table has shown
  function learn(t) {
    for (const x of [...t.hand, ...(t.drawn ? [t.drawn] : []), ...t.seats.flatMap((s) => [...(s.hand || []), ...s.discards, ...s.melds.flatMap((m) => m.tiles)])])
      faces.set(x.id, x.face);
  }

  function log(ev) {
    if (ev.type === "SichuanIntentAccepted") return; // our own intent: what it did follows
    const d = ev.data || {};
    const you = d.seat === 0;
    const who = d.seat !== undefined ? SEAT(d.seat) : "";
    const face = d.face || faces.get(d.tile);
    const verb = (v) => `${who} ${you ? v : `${v}s`}`;
    let text = ev.type;
    if (ev.type === "TileDiscarded") text = `${verb("discard")}${face ? ` ${faceName(face)}` : ""}`;
    else if (ev.type === "TileDrawn") text = `${verb("draw")}${you && face ? ` ${faceName(face)}` : ""}`;
    else if (ev.type === "HandWon") text = `${verb("win")}`;
    else if (ev.type === "Ponged") text = `${verb("pong")}${face ? ` ${faceName(face)}` : ""}`;
    else if (ev.type === "Konged") text = `${verb("kong")}${face ? ` ${faceName(face)}` : ""}`;
    else if (ev.type === "MissingSuitsRevealed") text = `missing suits: ${(d.suits || []).map((s, i) => `${SEAT(i)} ${SUIT[s] || s}`).join(", ")}`;
    else if (who) text = `${who}: ${ev.type}`;
    logEl.insertAdjacentHTML("afterbegin", `<li>${esc(text)}</li>`);
  }

  function draw() {
    const seat = (s) => table.seats[s];
    const others = [1, 2, 3]
      .map((s) => {
        const x = seat(s);
        return `<div class="seat" data-seat="${s}"><h4>${SEAT(s)} ${s === table.dealer ? "(dealer)" : ""} · score ${x.score} ${x.win ? "· <b>won</b>" : ""}</h4>
          <div>hand: ${x.hand ? x.hand.map((t) => tile(t)).join("") : `${x.hand_size} tiles`} ${x.missing ? `· missing ${SUIT[x.missing]}` : ""}</div>
          <div>melds: ${x.melds.map((m) => `<span class="meld">${m.tiles.map((t) => tile(t)).join("")}</span>`).join(" ") || "—"}</div>
          <div class="discards">discards: ${x.discards.map((t) => tile(t)).join("") || "—"}</div></div>`;
      })
      .join("");
    const mine = seat(0);
    const result = table.result;
    view.innerHTML = `
      <div class="table-status" data-status="${esc(table.status)}" data-phase="${esc(table.phase)}" data-seq="${table.seq}">
        ${table.status === "finished" ? "<b>The deal is over.</b>" : `phase <b>${esc(table.phase)}</b> · ${table.to_act ? "<b>your move</b>" : `turn: ${table.turn === null ? "—" : SEAT(table.turn)}`}`}
        · wall <b class="wall">${table.wall_count}</b> tiles · seq ${table.seq}
      </div>
      ${table.claim ? `<div class="claim">${SEAT(table.claim.from)} offers ${tile(table.claim.tile)} (${esc(table.claim.kind)})</div>` : ""}
      <div class="others">${others}</div>
      <div class="seat mine" data-seat="0"><h4>You ${table.dealer === 0 ? "(dealer)" : ""} · score ${mine.score} ${mine.win ? "· <b>won</b>" : ""} ${table.missing[0] ? `· missing ${SUIT[table.missing[0]]}` : ""}</h4>
        <div class="hand">${table.hand.map((t) => tile(t, table.drawn && t.id === table.drawn.id ? "drawn" : "")).join("")}
          ${table.drawn && !table.hand.some((t) => t.id === table.drawn.id) ? ` + ${tile(table.drawn, "drawn")}` : ""}</div>
        <div>melds: ${mine.melds.map((m) => `<span class="meld">${m.tiles.map((t) => tile(t)).join("")}</span>`).join(" ") || "—"}</div>
        <div class="discards">discards: ${mine.discards.map((t) => tile(t)).join("") || "—"}</div>
      </div>
      <div class="actions">${table.legal_actions
        .map((a, i) => `<button class="action action-${esc(a.type)}" data-i="${i}" data-type="${esc(a.type)}">${esc(actionLabel(a))}</button>`)
        .join("")}</div>
      ${
        result
          ? `<div class="sichuan-result"><h3>Result (${esc(result.reason)})</h3>
        <table>${result.scores.map((s, i) => `<tr data-seat="${i}"><td>${SEAT(i)}</td><td>${s > 0 ? "+" : ""}${s}</td></tr>`).join("")}</table>
        <details><summary>payments</summary><ul>${result.payments
          .map((p) => `<li>${SEAT(p.payer)} pays ${SEAT(p.payee)} ${p.amount} (${esc(p.reason)})</li>`)
          .join("")}</ul></details>
        <p>seed ${table.seed ?? "—"} · <a href="#/sichuan">another table</a></p></div>`
          : ""
      }`;
    for (const b of view.querySelectorAll("button.action")) {
      b.onclick = () => act(table.legal_actions[Number(b.dataset.i)]);
    }
  }

  let busy = false;
  async function act(action) {
    if (busy) return;
    busy = true;
    try {
      const intent = { seq: table.seq, type: action.type };
      if (action.tile !== undefined && action.type !== "pong" && action.type !== "win" && action.type !== "pass") intent.tile = action.tile;
      if (action.suit !== undefined) intent.suit = action.suit;
      const answer = await api.sichuanIntent(table.id, intent);
      table = answer.table;
      learn(table);
      answer.events.forEach(log);
      draw();
    } catch (err) {
      showError(err);
      if (err.code === "conflict") {
        table = await api.sichuan(table.id);
        draw();
      }
    } finally {
      busy = false;
    }
  }

  learn(table);
  draw();
}
