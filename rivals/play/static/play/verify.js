// R-40, provably fair deals (API.md § Matches and rounds, "Secret deals"): a competition's round,
// match rounds and pots carry `commitment` = SHA-256 of the UTF-8 text "<code>:<salt>" (lowercase
// hex) from the start, and `code` and `salt` once the competition is over. "Verify" recomputes it
// here, in the browser, from what the server revealed: it trusts nothing but the hash.
//
// crypto.subtle is the browser's SHA-256; it exists only in a secure context (https, or
// http://localhost / 127.0.0.1). On plain http to another host a small SHA-256 written out below
// (FIPS 180-4) gives the same digest.

import { esc } from "./ui.js";

const K = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
];
const ror = (x, n) => (x >>> n) | (x << (32 - n));

/** SHA-256 of `bytes` in plain JavaScript (FIPS 180-4), lowercase hex. */
export function sha256Plain(bytes) {
  const total = Math.ceil((bytes.length + 9) / 64) * 64;
  const m = new Uint8Array(total);
  m.set(bytes);
  m[bytes.length] = 0x80;
  const dv = new DataView(m.buffer);
  const bits = bytes.length * 8;
  dv.setUint32(total - 8, Math.floor(bits / 2 ** 32));
  dv.setUint32(total - 4, bits >>> 0);
  const hh = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
  const w = new Uint32Array(64);
  for (let off = 0; off < total; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = dv.getUint32(off + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, h] = hh;
    for (let i = 0; i < 64; i++) {
      const t1 = (h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    [a, b, c, d, e, f, g, h].forEach((x, i) => (hh[i] = (hh[i] + x) >>> 0));
  }
  return hh.map((x) => x.toString(16).padStart(8, "0")).join("");
}

/** SHA-256 of a text (UTF-8), lowercase hex: crypto.subtle where the browser offers it. */
export async function sha256Hex(text) {
  const bytes = new TextEncoder().encode(text);
  if (globalThis.crypto && crypto.subtle) {
    const digest = await crypto.subtle.digest("SHA-256", bytes);
    return Array.from(new Uint8Array(digest), (x) => x.toString(16).padStart(2, "0")).join("");
  }
  return sha256Plain(bytes);
}

/** R-40: does sha256("<code>:<salt>") equal the commitment shown from the start? */
export async function verifyDeal({ commitment, code, salt }) {
  const computed = await sha256Hex(`${code}:${salt}`);
  return { ok: computed === commitment, computed };
}

/** A deal's panel: its commitment, and once revealed its code, salt and a Verify button. */
export function dealPanel(deal, title = "Deal") {
  if (!deal || !deal.commitment) return "";
  const revealed = deal.code && deal.salt;
  return `<div class="deal" data-commitment="${esc(deal.commitment)}" data-code="${esc(deal.code || "")}" data-salt="${esc(deal.salt || "")}">
    <h4>${esc(title)} — provably fair (R-40)</h4>
    <div>commitment <code class="commitment">${esc(deal.commitment)}</code></div>
    ${
      revealed
        ? `<div>code <code class="code">${esc(deal.code)}</code> salt <code class="salt">${esc(deal.salt)}</code></div>
           <button class="verify">Verify</button> <span class="verdict"></span>`
        : `<div class="secret">the code and salt are revealed once the competition is over</div>`
    }
  </div>`;
}

/** Wire the Verify buttons of the deal panels under `root`. */
export function wireDealPanels(root) {
  for (const panel of root.querySelectorAll(".deal")) {
    const button = panel.querySelector("button.verify");
    if (!button) continue;
    button.onclick = async () => {
      const { commitment, code, salt } = panel.dataset;
      const { ok, computed } = await verifyDeal({ commitment, code, salt });
      const verdict = panel.querySelector(".verdict");
      verdict.className = `verdict ${ok ? "ok" : "bad"}`;
      verdict.dataset.computed = computed;
      verdict.textContent = ok
        ? `✔ sha256("${code}:${salt}") = ${computed}: the deal is the one committed to`
        : `✘ sha256 gives ${computed}: it does NOT match the commitment`;
    };
  }
}
