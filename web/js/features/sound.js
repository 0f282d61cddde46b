// Card sounds, kept as AudioBuffers. The card's own sounds (a deal, a draw, a card played, a
// shuffle) are recordings, Kenney's "Casino Audio" samples (CC0: web/licenses/casino-audio.txt,
// web/sounds/), fetched only once Sound is on and the person has touched the page; until one
// has arrived and decoded (or where the browser cannot decode it), that cue is drawn here from
// filtered noise shaped as the same sound. A chime for "your turn", a rising phrase for a
// round won and a falling one for a round lost are drawn here. Silent unless the Sound
// setting is on, at the Volume setting; the audio context is only created after the person
// has touched the page (the browsers' autoplay rule). While the tab is hidden, only "your
// turn" sounds. Every sound passes through one analyser, which the tests read (soundCheck).
import { getSettings } from "./preferences.js";

const NAMES = ["deal", "draw", "play", "shuffle", "turn", "won", "lost"];
/** The names an earlier page used, still accepted. */
const ALIASES = { card: "play", win: "won" };

let context = null;
let output = null;      // the master gain: the volume
let analyser = null;    // between the master gain and the speakers
const buffers = {};     // name -> AudioBuffer, each rendered on its first use or when the page is idle
/** The recorded cues (beside the page, wherever this module is bundled). */
const RECORDINGS = {
  deal: "sounds/card-shove-2.ogg",
  draw: "sounds/card-slide-1.ogg",
  play: "sounds/card-place-1.ogg",
  shuffle: "sounds/card-shuffle.ogg",
};
const kinds = {};       // name -> "recorded" once its recording is in buffers, else drawn

function audio() {
  if (context) return context;
  const Ctor = window.AudioContext || window.webkitAudioContext;
  if (!Ctor) return null;
  try { context = new Ctor(); } catch { context = null; return null; }
  output = context.createGain();
  analyser = context.createAnalyser();
  analyser.fftSize = 2048;
  output.connect(analyser).connect(context.destination);
  return context;
}

/** Call from a user gesture (click, key): creates or wakes the audio context if sound is on;
 * the sounds are then drawn one at a time while the page is idle, never in the way of a move. */
export function unlock() {
  if (!getSettings().sound) return;
  const ctx = audio();
  if (ctx && ctx.state === "suspended") ctx.resume().catch(() => undefined);
  if (ctx) warm(ctx);
}

let warming = false;
function warm(ctx) {
  if (warming) return;
  warming = true;
  const idle = window.requestIdleCallback || ((fn) => setTimeout(fn, 200));
  const next = () => {
    const name = NAMES.find((n) => !buffers[n]);
    if (name) { buffer(ctx, name); idle(next); } else fetchRecordings(ctx);
  };
  idle(next);
}

/** Fetch and decode the recordings one after another; each replaces its drawn cue once it is
 * in. A recording that cannot be fetched or decoded leaves the drawn one. */
async function fetchRecordings(ctx) {
  for (const [name, path] of Object.entries(RECORDINGS)) {
    try {
      const response = await fetch(new URL(path, document.baseURI).href);
      if (!response.ok) continue;
      const decoded = await ctx.decodeAudioData(await response.arrayBuffer());
      buffers[name] = levelled(ctx, decoded);
      kinds[name] = "recorded";
    } catch {
      // the drawn cue stays
    }
  }
}

/** `decoded` in one channel (the channels' mean), at the drawn sounds' level. */
function levelled(ctx, decoded) {
  const out = ctx.createBuffer(1, decoded.length, decoded.sampleRate);
  const data = out.getChannelData(0);
  for (let c = 0; c < decoded.numberOfChannels; c++) {
    const channel = decoded.getChannelData(c);
    for (let i = 0; i < data.length; i++) data[i] += channel[i] / decoded.numberOfChannels;
  }
  return normalised(out);
}

/** `out` with its peak at 0.8, every cue's level. */
function normalised(out) {
  const data = out.getChannelData(0);
  let peak = 0;
  for (const v of data) peak = Math.max(peak, Math.abs(v));
  if (peak > 0) for (let i = 0; i < data.length; i++) data[i] *= 0.8 / peak;
  return out;
}

// ----- drawing the sounds ---------------------------------------------------------------------

/** A seeded generator, so that every visit's sounds are the same. */
function noiseSource(seed) {
  let x = seed >>> 0 || 1;
  return () => { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; return ((x >>> 0) / 4294967296) * 2 - 1; };
}

/** A band-pass (or low-pass) biquad over `data` in place. */
function filter(data, rate, kind, freq, q) {
  const w = (2 * Math.PI * freq) / rate;
  const alpha = Math.sin(w) / (2 * q);
  const cos = Math.cos(w);
  let b0, b1, b2;
  if (kind === "band") { b0 = alpha; b1 = 0; b2 = -alpha; }
  else { b0 = (1 - cos) / 2; b1 = 1 - cos; b2 = (1 - cos) / 2; }
  const a0 = 1 + alpha, a1 = -2 * cos, a2 = 1 - alpha;
  let x1 = 0, x2 = 0, y1 = 0, y2 = 0;
  for (let i = 0; i < data.length; i++) {
    const x = data[i];
    const y = (b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2) / a0;
    x2 = x1; x1 = x; y2 = y1; y1 = y;
    data[i] = y;
  }
}

/** Noise from `start` seconds for `length`, shaped by attack and decay, filtered. */
function burst(data, rate, rand, { start = 0, length, attack = 0.002, decay, gain = 1, band = 3000, q = 0.8, low = false }) {
  const from = Math.floor(start * rate), n = Math.floor(length * rate);
  const part = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const t = i / rate;
    const env = t < attack ? t / attack : Math.exp(-(t - attack) / decay);
    part[i] = rand() * env;
  }
  filter(part, rate, low ? "low" : "band", band, q);
  for (let i = 0; i < n && from + i < data.length; i++) data[from + i] += part[i] * gain;
}

/** A struck tone with a few inharmonic partials (a small bell or a marimba bar). */
function bell(data, rate, { start = 0, freq, length = 0.6, gain = 0.3, partials = [[1, 1], [2.76, 0.35], [5.4, 0.12]] }) {
  const from = Math.floor(start * rate), n = Math.floor(length * rate);
  for (let i = 0; i < n && from + i < data.length; i++) {
    const t = i / rate;
    let v = 0;
    for (const [ratio, level] of partials) v += level * Math.sin(2 * Math.PI * freq * ratio * t) * Math.exp(-t * (3 + ratio * 2.2));
    data[from + i] += v * gain * Math.min(1, t / 0.004);
  }
}

/** A soft low thump: the card meeting the table. */
function thump(data, rate, { start = 0, freq = 140, gain = 0.35 }) {
  const from = Math.floor(start * rate), n = Math.floor(0.05 * rate);
  for (let i = 0; i < n && from + i < data.length; i++) {
    const t = i / rate;
    data[from + i] += gain * Math.sin(2 * Math.PI * freq * t * (1 - t * 4)) * Math.exp(-t / 0.012);
  }
}

const DRAW = {
  play(d, r, rand) {
    burst(d, r, rand, { length: 0.09, attack: 0.001, decay: 0.012, band: 2600, q: 0.7, gain: 1.6 });
    burst(d, r, rand, { start: 0.004, length: 0.06, decay: 0.02, band: 900, q: 1.2, gain: 0.5 });
    thump(d, r, { start: 0.002 });
  },
  deal(d, r, rand) {
    burst(d, r, rand, { length: 0.07, attack: 0.03, decay: 0.015, band: 1800, q: 0.6, gain: 0.7 });
    burst(d, r, rand, { start: 0.06, length: 0.05, attack: 0.001, decay: 0.008, band: 3200, q: 0.9, gain: 1.1 });
    thump(d, r, { start: 0.062, gain: 0.2, freq: 170 });
  },
  draw(d, r, rand) {
    burst(d, r, rand, { length: 0.16, attack: 0.05, decay: 0.04, band: 1400, q: 0.5, gain: 0.8 });
    burst(d, r, rand, { start: 0.02, length: 0.12, attack: 0.04, decay: 0.03, band: 4200, q: 1, gain: 0.35 });
  },
  shuffle(d, r, rand) {
    // The riffle: the two halves' corners let go one card after another, slowly, then faster.
    let t = 0.02;
    for (let i = 0; i < 44; i++) {
      burst(d, r, rand, { start: t, length: 0.02, attack: 0.0005, decay: 0.003 + rand() * 0.002, band: 2500 + rand() * 2500, q: 1.4, gain: 0.9 + rand() * 0.5 });
      t += 0.018 - i * 0.00022 + rand() * 0.004;
    }
    // The bridge: the cards falling together, a longer soft rush.
    burst(d, r, rand, { start: t + 0.03, length: 0.3, attack: 0.06, decay: 0.08, band: 1200, q: 0.5, gain: 0.9 });
    thump(d, r, { start: t + 0.2, gain: 0.25, freq: 120 });
  },
  turn(d, r) {
    bell(d, r, { freq: 880, length: 0.7, gain: 0.22 });
    bell(d, r, { start: 0.11, freq: 1318.5, length: 0.8, gain: 0.2 });
  },
  won(d, r) {
    [523.25, 659.25, 783.99, 1046.5].forEach((freq, i) => bell(d, r, { start: i * 0.11, freq, length: 0.8, gain: 0.2, partials: [[1, 1], [4, 0.18], [9.2, 0.05]] }));
  },
  lost(d, r) {
    [392, 349.23, 293.66].forEach((freq, i) => bell(d, r, { start: i * 0.16, freq, length: 0.9, gain: 0.22, partials: [[1, 1], [4, 0.12]] }));
  },
};
const LENGTHS = { play: 0.12, deal: 0.14, draw: 0.2, shuffle: 1.3, turn: 1, won: 1.3, lost: 1.3 };

/** The sound `name`, drawn the first time it is asked for. */
function buffer(ctx, name) {
  if (buffers[name]) return buffers[name];
  const rate = ctx.sampleRate;
  const out = ctx.createBuffer(1, Math.ceil(LENGTHS[name] * rate), rate);
  const data = out.getChannelData(0);
  DRAW[name](data, rate, noiseSource(0x9e3779b9 + NAMES.indexOf(name) * 7919));
  buffers[name] = normalised(out);
  return out;
}

// ----- playing them ---------------------------------------------------------------------------

/** Play `name` now if the page may make sound; true if it was started. */
function play(name) {
  const ctx = context;
  if (!ctx || ctx.state !== "running") return false;
  try {
    output.gain.value = getSettings().volume;
    const source = ctx.createBufferSource();
    source.buffer = buffer(ctx, name);
    source.connect(output);
    source.start();
    return true;
  } catch {
    return false;
  }
}

/** What was asked for and whether it was started, for the tests: window.__parlourSounds. */
function note(name, made) {
  const log = (window.__parlourSounds = window.__parlourSounds || []);
  log.push({ name, made });
  if (log.length > 50) log.shift();
}

/** Sound one of NAMES ("deal", "draw", "play", "shuffle", "turn", "won", "lost"), if the
 * Sound setting is on; while the tab is hidden, only "turn". */
export function cue(asked) {
  const name = ALIASES[asked] || asked;
  if (!getSettings().sound || !NAMES.includes(name)) return;
  if (document.visibilityState === "hidden" && name !== "turn") { note(name, false); return; }
  note(name, play(name));
}

/** A card played, at the volume just chosen (the Volume setting's change). */
export function sample() {
  unlock();
  cue("play");
}

/** For the tests (window.__parlourSoundCheck): the loudest sample the analyser hears over the
 * next `ms` milliseconds, and the context's state; with `name`, that cue sounded first, as the
 * table sounds it (cue). */
export function soundCheck(ms = 400, name = null) {
  if (name) cue(name);
  if (!analyser) return Promise.resolve({ state: context ? context.state : "none", peak: 0 });
  const data = new Float32Array(analyser.fftSize);
  let peak = 0;
  const until = performance.now() + ms;
  return new Promise((resolve) => {
    const look = () => {
      analyser.getFloatTimeDomainData(data);
      for (const v of data) peak = Math.max(peak, Math.abs(v));
      if (performance.now() < until) setTimeout(look, 10);
      else resolve({ state: context.state, peak });
    };
    look();
  });
}

window.__parlourSoundCheck = soundCheck;
/** For the tests: which cues are recordings now ({name: "recorded" | "drawn"}). */
window.__parlourSoundKinds = () => Object.fromEntries(NAMES.map((n) => [n, kinds[n] || "drawn"]));
