// The start screen: what can be played here, and the player's own name (API.md § Accounts).

import * as api from "../api.js";
import { me as known, refreshMe } from "../app.js";
import { esc, guard } from "../ui.js";

export async function show(root) {
  root.innerHTML = `
    <section class="intro">
      <h1>Play Mahjong Rivals</h1>
      <p>This page is the service's reference client: plain JavaScript modules served by the app, speaking
        only the public REST API (<a href="/api/docs/">its documentation</a>) and the live socket. You play
        as a guest of this browser; <a href="/play/?player=2">/play/?player=2</a> in a second tab is another
        guest, to play a Quick Match against yourself.</p>
      <ul class="cards">
        <li><a href="#/levels">Single Player</a> — 11,000 levels, points for a first completion and a top-10 time</li>
        <li><a href="#/classic">Classic</a> — any deal, with hints, undo and shuffle</li>
        <li><a href="#/quick">Quick Match</a> — one round against another player, pushed live</li>
        <li><a href="#/arena">Arena</a> — four players, three rounds</li>
        <li><a href="#/bonus">Daily bonus</a> — claim it every day</li>
        <li><a href="#/rankings">Rankings</a> — AMR, weekly, daily and your rating</li>
        <li><a href="#/sichuan">Sichuan table</a> — you against three AIs</li>
      </ul>
      <form class="rename">
        <label>Your display name <input name="display_name" maxlength="40"></label>
        <button>Save</button>
      </form>
    </section>`;
  const form = root.querySelector("form.rename");
  const me = known || (await guard(() => api.account()));
  if (me) form.display_name.value = me.display_name;
  form.dataset.loaded = "1";
  form.onsubmit = (ev) => {
    ev.preventDefault();
    guard(async () => {
      await api.accountRename(form.display_name.value); // API.md § Accounts: PATCH /account
      await refreshMe();
      form.insertAdjacentHTML("beforeend", `<span class="ok">saved as ${esc(form.display_name.value)}</span>`);
    });
  };
}
