// The daily bonus (R-30…R-32): claim once a Romanian day (10, 20 … 100 points by streak day, a
// joker every 10th day), then double it once.
// API.md § Daily bonus and rankings: POST /daily-bonus/claim, POST /daily-bonus/double;
// API.md § Accounts: GET /account for the streak and today's state.

import * as api from "../api.js";
import { refreshMe } from "../app.js";
import { esc, guard } from "../ui.js";

export async function show(root) {
  root.innerHTML = `<h2>Daily bonus</h2><div class="bonus"></div><div class="bonus-result"></div>`;
  const box = root.querySelector(".bonus");
  const result = root.querySelector(".bonus-result");

  async function draw() {
    const me = await api.account();
    const b = me.daily_bonus;
    box.dataset.claimed = b.claimed_today ? "1" : "0";
    box.innerHTML = `
      <p>Streak: <b class="streak">${b.streak}</b> day(s). Today: ${b.claimed_today ? "claimed" : "not claimed yet"}${b.doubled_today ? ", doubled" : ""}.</p>
      <p>Points: AMR ${me.points.amr}, this week ${me.points.weekly}, today ${me.points.daily}. Jokers: ${me.jokers}.</p>
      <button class="claim" ${b.claimed_today ? "disabled" : ""}>Claim today's bonus</button>
      <button class="double" ${!b.claimed_today || b.doubled_today ? "disabled" : ""}>Double it (watch the offer)</button>`;
    box.querySelector("button.claim").onclick = () =>
      guard(async () => {
        const c = await api.dailyBonusClaim();
        result.innerHTML = `<p class="claimed">Day <b>${c.day}</b> of your streak: <b class="points">+${c.points}</b> points${c.jokers ? ` and <b>${c.jokers}</b> joker` : ""} (${esc(c.date)}).</p>`;
        await draw();
        await refreshMe();
      });
    box.querySelector("button.double").onclick = () =>
      guard(async () => {
        const d = await api.dailyBonusDouble();
        result.insertAdjacentHTML("beforeend", `<p class="doubled">Doubled: <b>+${d.points}</b> points more.</p>`);
        await draw();
        await refreshMe();
      });
  }
  await guard(draw);
}
