// Tile faces drawn here as SVG text and shapes (T-1's face codes; no images, no copyrighted art).
// 1B…9B bamboo, 1C…9C characters, 1D…9D dots, N S E W winds, R G Wh dragons, F1…F4 flowers,
// S1…S4 seasons (S alone is the south wind).

const SUITS = { B: ["bam", "#1b7a3a"], C: ["char", "#b3261e"], D: ["dots", "#1f4fa3"] };
const WINDS = { N: "North", S: "South", E: "East", W: "West" };
const DRAGONS = { R: ["Red", "#b3261e"], G: ["Green", "#1b7a3a"], Wh: ["White", "#1f4fa3"] };

/** A short human name of a face (for titles and the Sichuan hand). */
export function faceName(face) {
  const suit = SUITS[face.slice(-1)];
  if (face.length === 2 && suit && /[1-9]/.test(face[0])) return `${face[0]} ${suit[0]}`;
  if (WINDS[face]) return `${WINDS[face]} wind`;
  if (DRAGONS[face]) return `${DRAGONS[face][0]} dragon`;
  if (/^F[1-4]$/.test(face)) return `Flower ${face[1]}`;
  if (/^S[1-4]$/.test(face)) return `Season ${face[1]}`;
  return face;
}

/** T-2 (classic, rivals) and T-3 (pool): do two faces match? */
export function facesMatch(a, b, ruleset) {
  if (a === b) return true;
  const flower = (f) => /^F[1-4]$/.test(f);
  const season = (f) => /^S[1-4]$/.test(f);
  if (flower(a) && flower(b)) return true;
  if (season(a) && season(b)) return true;
  return ruleset === "pool" && (flower(a) || season(a)) && (flower(b) || season(b));
}

/** The face's drawing inside a tile of width w and height h (SVG markup). */
export function faceSvg(face, w, h) {
  const cx = w / 2;
  const big = (text, color) =>
    `<text x="${cx}" y="${h * 0.52}" text-anchor="middle" font-size="${h * 0.42}" font-weight="700" fill="${color}">${text}</text>`;
  const small = (text, color) =>
    `<text x="${cx}" y="${h * 0.86}" text-anchor="middle" font-size="${h * (text.length > 6 ? 0.16 : 0.2)}" fill="${color}">${text}</text>`;
  const suit = SUITS[face.slice(-1)];
  if (face.length === 2 && suit && /[1-9]/.test(face[0])) {
    const [name, color] = suit;
    let mark = "";
    if (face[1] === "D") mark = `<circle cx="${w - 8}" cy="9" r="4" fill="none" stroke="${color}" stroke-width="2"/>`;
    if (face[1] === "B") mark = `<rect x="${w - 10}" y="4" width="4" height="11" rx="2" fill="${color}"/>`;
    if (face[1] === "C") mark = `<path d="M${w - 12} 7h8M${w - 8} 4v10" stroke="${color}" stroke-width="2"/>`;
    return big(face[0], color) + small(name, color) + mark;
  }
  if (WINDS[face]) return big(face, "#222") + small("wind", "#222");
  if (DRAGONS[face]) {
    const [name, color] = DRAGONS[face];
    if (face === "Wh")
      return `<rect x="${w * 0.25}" y="${h * 0.18}" width="${w * 0.5}" height="${h * 0.42}" fill="none" stroke="${color}" stroke-width="3"/>` + small(name, color);
    return big(face, color) + small(name, color);
  }
  if (/^F[1-4]$/.test(face)) {
    const petals = [0, 72, 144, 216, 288]
      .map((a) => {
        const r = (a * Math.PI) / 180;
        return `<circle cx="${cx + 7 * Math.cos(r)}" cy="${h * 0.36 + 7 * Math.sin(r)}" r="4.5" fill="#c2185b" opacity=".8"/>`;
      })
      .join("");
    return petals + `<circle cx="${cx}" cy="${h * 0.36}" r="3" fill="#f9a825"/>` + small(`flower ${face[1]}`, "#8e244d");
  }
  if (/^S[1-4]$/.test(face)) {
    const rays = [0, 45, 90, 135, 180, 225, 270, 315]
      .map((a) => {
        const r = (a * Math.PI) / 180;
        const x1 = cx + 8 * Math.cos(r), y1 = h * 0.36 + 8 * Math.sin(r);
        const x2 = cx + 12 * Math.cos(r), y2 = h * 0.36 + 12 * Math.sin(r);
        return `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#e65100" stroke-width="2"/>`;
      })
      .join("");
    return rays + `<circle cx="${cx}" cy="${h * 0.36}" r="6" fill="#ef6c00"/>` + small(`season ${face[1]}`, "#bf360c");
  }
  return big(face, "#222");
}
