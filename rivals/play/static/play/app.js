// The client's entry: sign in as a guest, open the live socket on demand, and route between the
// screens (one module each, under screens/). Every screen exports `show(root, params)` and may
// return a function that cleans up (unsubscribes its topics, stops its clock) when it is left.

import * as api from "./api.js";
import { live } from "./live.js";
import { $, clearError, esc, showError } from "./ui.js";

const SCREENS = {
  "": () => import("./screens/home.js"),
  levels: () => import("./screens/levels.js"),
  classic: () => import("./screens/classic.js"),
  game: () => import("./screens/game.js"),
  quick: () => import("./screens/queue.js"),
  arena: () => import("./screens/queue.js"),
  match: () => import("./screens/match.js"),
  bonus: () => import("./screens/bonus.js"),
  rankings: () => import("./screens/rankings.js"),
  sichuan: () => import("./screens/sichuan.js"),
};

let leave = null;

async function route() {
  const [name = "", ...params] = location.hash.replace(/^#\/?/, "").split("/");
  const load = SCREENS[name] || SCREENS[""];
  if (leave) {
    try {
      leave();
    } catch (err) {
      console.warn(err);
    }
    leave = null;
  }
  clearError();
  for (const a of document.querySelectorAll("nav a")) a.classList.toggle("active", a.dataset.nav === name);
  const root = $("#screen");
  root.dataset.screen = name || "home";
  try {
    const screen = await load();
    leave = (await screen.show(root, { name, params })) || null;
  } catch (err) {
    showError(err);
  }
}

/** The `account` topic (API.md § Notifications): one line per notification, for a few seconds. */
const NOTICES = {
  match_found: () => "a match was found",
  round_started: (d) => `round ${d.index} of your ${d.mode} match starts`,
  prize_awarded: (d) => `+${d.amount} points (${d.source.replace("_", " ")})`,
  jokers_changed: (d) => `${d.delta > 0 ? "+" : ""}${d.delta} joker${Math.abs(d.delta) === 1 ? "" : "s"} (${d.reason.replace("_", " ")})`,
  trophy_awarded: (d) => `a trophy: ${d.title}`,
  duel_challenged: () => "you are challenged to a duel",
  display_name_reset: (d) => `your display name was reset to ${d.display_name}${d.message ? `: ${d.message}` : ""}`,
  account_suspended: (d) => `your account is suspended${d.message ? `: ${d.message}` : ""}`,
  account_suspension_lifted: () => "your suspension is lifted",
};

function onNotice(msg) {
  if (msg.op !== "event") return;
  const say = NOTICES[msg.type];
  const box = $("#notices");
  const line = document.createElement("div");
  line.className = "notice";
  line.dataset.type = msg.type;
  line.textContent = say ? say(msg.data) : msg.type.replaceAll("_", " ");
  box.prepend(line);
  setTimeout(() => line.remove(), 6000);
  if (["prize_awarded", "jokers_changed", "trophy_awarded", "display_name_reset"].includes(msg.type)) refreshMe().catch(() => {});
}

/** The last `GET /account` answer (the start screen shows it without asking again). */
export let me = null;

export async function refreshMe() {
  me = await api.account(); // API.md § Accounts: GET /account
  $("#me").innerHTML = `<b>${esc(me.display_name)}</b> · ${me.points.amr} pts · ${me.jokers} jokers`;
  $("#me").dataset.account = me.account_id;
  return me;
}

async function start() {
  live.onState((state) => {
    const el = $("#live-state");
    el.textContent = state;
    el.dataset.state = state;
  });
  window.play = { api, live }; // for the curious (and the tests): the client's own objects
  try {
    await api.signIn(); // API.md § Accounts: POST /auth/guest with the device id kept in localStorage
    await refreshMe();
  } catch (err) {
    showError(err);
  }
  window.addEventListener("hashchange", route);
  await route();
  document.body.dataset.ready = "1";
  performance.mark("play-ready");
  live.subscribe("account", onNotice); // the socket opens now (if no screen opened it); screens add their topics
}

start();
