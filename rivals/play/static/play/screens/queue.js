// The Quick Match and Arena queue: join, wait for the match pushed on the ticket's
// topic, then play it (screens/match.js).
// API.md § Matches and rounds: POST /queue {"mode"} → ticket; GET /queue/{ticket} (read once
// after subscribing, to close the race with a match made in between); DELETE /queue/{ticket}.
// API.md § Live updates: topic `queue:<ticket id>` — QueueMatched {"ticket_id", "match_id"},
// QueueExpired, QueueLeft. Nothing is polled.

import * as api from "../api.js";
import { live } from "../live.js";
import { esc, guard } from "../ui.js";

const TEXT = {
  quick: ["Quick Match", "Two players, one round on the same deal (R-12): the first to clear the board wins 20 points, else the better score 15."],
  arena: ["Arena", "Four players, three rounds with 10-second breaks (R-20): prizes 80 / 40 / 20 / 0 by the sum of the scores."],
};

export async function show(root, { name }) {
  const mode = name === "arena" ? "arena" : "quick";
  const [title, text] = TEXT[mode];
  root.innerHTML = `
    <h2>${title}</h2><p>${text}</p>
    <p>No one else around? <a class="second-player" href="/play/?player=${api.SLOT === "2" ? "3" : "2"}#/${mode}" target="_blank">Open a second player in a new tab</a>
      (another guest of this browser) and join there too.</p>
    <button class="join">Join the ${mode === "quick" ? "Quick Match" : "Arena"} queue</button>
    <div class="queue-state"></div>`;
  const state = root.querySelector(".queue-state");
  let ticket = null;
  let unsubscribe = null;

  const go = (matchId) => {
    location.hash = `#/match/${matchId}`;
  };

  function onTicket(msg) {
    if (msg.op === "subscribed") {
      // the match may have been made between the join's answer and this subscription: read once
      guard(async () => {
        const t = await api.queueTicket(ticket.id);
        if (t.status === "matched") go(t.match);
      });
    } else if (msg.op === "event" && msg.type === "QueueMatched") {
      go(msg.data.match_id);
    } else if (msg.op === "event" && (msg.type === "QueueExpired" || msg.type === "QueueLeft")) {
      state.innerHTML = `<p class="expired">The ticket ${msg.type === "QueueExpired" ? "expired (nobody came in time)" : "was left"}: join again.</p>`;
      root.querySelector("button.join").disabled = false;
    }
  }

  root.querySelector("button.join").onclick = () =>
    guard(async () => {
      ticket = await api.queueJoin(mode);
      if (ticket.status === "matched") return go(ticket.match);
      root.querySelector("button.join").disabled = true;
      state.innerHTML = `<p class="waiting" data-ticket="${esc(ticket.id)}">Waiting for ${mode === "quick" ? "an opponent" : "three opponents"}… (the ticket lasts until ${esc(new Date(ticket.expires_at).toLocaleTimeString())})</p>
        <button class="leave">Leave the queue</button>`;
      state.querySelector("button.leave").onclick = () =>
        guard(async () => {
          await api.queueLeave(ticket.id);
        });
      unsubscribe = live.subscribe(`queue:${ticket.id}`, onTicket);
    });
  return () => unsubscribe && unsubscribe();
}
