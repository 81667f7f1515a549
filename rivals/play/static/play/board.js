// The board a client holds: the API's tiles `[{"id", "x", "y", "z", "face", "free"}]` (API.md §
// Boards and games; x and y on T-4's half-tile grid, z the layer), drawn as SVG, with T-7's
// selection. The server decides everything; the board only turns taps into intents:
//
//   T-7: tapping a free tile selects it; tapping a second free tile removes both if they match,
//   otherwise the selection moves to the new tile; tapping the selected tile deselects; tapping a
//   blocked tile removes nothing and deselects (the server hears `click_blocked`, R-16).
//   T-6a (the Rivals ruleset): a pair (a, b) is removable when a is free and b is free on the board
//   without a — so with a selected, a matching b that only a blocks is sent as a pair too.
//
// A compact answer (`Prefer: return=minimal`) is applied with `apply()`: drop `removed`, put
// `tiles` in place — the result is what the full answer's `game.tiles` would be.

import { faceName, facesMatch, faceSvg } from "./faces.js";

const W = 44; // a tile's width in px (two half-tile units of T-4's grid)
const H = 58;
const UX = W / 2;
const UY = H / 2;
const LAYER = 5; // each layer drawn this many px up and to the left
const LIFT = 32; // the selected tile is drawn this many px higher

/** T-5 on the tiles held: no tile above overlapping it, and its left or right side open. */
export function isFree(tiles, t, without = null) {
  let left = false;
  let right = false;
  for (const o of tiles.values()) {
    if (o.id === t.id || o.id === without) continue;
    const dy = o.y - t.y;
    if (dy <= -2 || dy >= 2) continue;
    const dx = o.x - t.x;
    if (o.z > t.z && dx > -2 && dx < 2) return false;
    if (o.z === t.z) {
      if (dx === -2) left = true;
      else if (dx === 2) right = true;
    }
  }
  return !(left && right);
}

export class Board {
  /** `send(intent)`: the screen's way to send an intent (without `seq`: the screen adds it). */
  constructor(element, { ruleset = "classic", send }) {
    this.element = element;
    this.ruleset = ruleset;
    this.send = send;
    this.tiles = new Map();
    this.selected = null;
    this.hint = [];
    this.extent = { x: 0, y: 0, z: 0 };
    this.locked = false; // an intent on its way
    this.frozen = false; // the screen's say: not playable now (a round not started, or over)
    // one listener per element (a new round's board replaces the last one's)
    element.onclick = (ev) => {
      const g = ev.target.closest("g.tile");
      if (g) this.tap(Number(g.dataset.tile));
    };
  }

  /** The whole board (a game or round read, a full answer). */
  load(tiles) {
    this.tiles = new Map(tiles.map((t) => [t.id, t]));
    this.selected = null;
    this.hint = [];
    this.render();
  }

  /** A compact answer's delta: `removed` ids leave, `tiles` appear or change. */
  apply({ tiles = [], removed = [] }) {
    for (const id of removed) this.tiles.delete(id);
    for (const t of tiles) this.tiles.set(t.id, t);
    if (this.selected !== null && !this.tiles.has(this.selected)) this.selected = null;
    this.hint = this.hint.filter((id) => this.tiles.has(id));
    this.render();
  }

  showHint(ids) {
    this.hint = ids || [];
    this.render();
  }

  /** T-7, and T-6a's lifting in the Rivals ruleset. */
  async tap(id) {
    const t = this.tiles.get(id);
    if (!t || this.locked || this.frozen) return;
    const a = this.selected === null ? null : this.tiles.get(this.selected);
    if (a && a.id === id) {
      this.selected = null; // tapping the selected tile deselects
    } else if (a && facesMatch(a.face, t.face, this.ruleset) && (t.free || (this.ruleset === "rivals" && isFree(this.tiles, t, a.id)))) {
      this.selected = null;
      this.render();
      await this.intent({ type: "remove_pair", tiles: [a.id, t.id] });
      return;
    } else if (t.free) {
      this.selected = id; // a first free tile, or the selection moves to the new tile
    } else {
      this.selected = null; // a blocked tile: removes nothing and deselects (R-16 on the server)
      this.render();
      await this.intent({ type: "click_blocked", tile: id });
      return;
    }
    this.render();
  }

  async intent(body) {
    this.locked = true;
    try {
      await this.send(body);
    } finally {
      this.locked = false;
    }
  }

  render() {
    for (const t of this.tiles.values()) {
      this.extent.x = Math.max(this.extent.x, t.x + 2);
      this.extent.y = Math.max(this.extent.y, t.y + 2);
      this.extent.z = Math.max(this.extent.z, t.z);
    }
    const pad = LAYER * this.extent.z + LIFT + 4;
    const width = this.extent.x * UX + pad + 8;
    const height = this.extent.y * UY + pad + 8;
    const lifted = (t) => (t.id === this.selected ? 1 : 0);
    const order = [...this.tiles.values()].sort((p, q) => lifted(p) - lifted(q) || p.z - q.z || p.y - q.y || q.x - p.x);
    const parts = order.map((t) => {
      const px = pad + t.x * UX - t.z * LAYER;
      // the selected tile is drawn lifted (T-6a: "lifting the first tile can free its neighbours"),
      // so that a tile it covered can be seen and tapped
      const py = pad + t.y * UY - t.z * LAYER - (t.id === this.selected ? LIFT : 0);
      const cls = ["tile", t.free ? "free" : "blocked"];
      if (t.id === this.selected) cls.push("selected");
      if (this.hint.includes(t.id)) cls.push("hint");
      return (
        `<g class="${cls.join(" ")}" data-tile="${t.id}" data-face="${t.face}" data-z="${t.z}" transform="translate(${px},${py})">` +
        `<title>${faceName(t.face)}${t.free ? "" : " (blocked)"}</title>` +
        `<rect class="side" x="2" y="3" width="${W - 2}" height="${H - 2}" rx="5"/>` +
        `<rect class="body" width="${W - 2}" height="${H - 2}" rx="5"/>` +
        faceSvg(t.face, W - 2, H - 2) +
        `</g>`
      );
    });
    this.element.innerHTML =
      `<svg class="board" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" data-tiles="${this.tiles.size}">` +
      parts.join("") +
      `</svg>`;
  }
}
