// Short sounds made on the spot with the Web Audio API (no sound files): a card being played,
// "your turn", a round or match won. Silent unless the Sound setting is on, and the audio
// context is only created after the person has touched the page (browsers' autoplay rule).
import { getSettings } from "./preferences.js";

let context = null;

function audio() {
  if (context) return context;
  const Ctor = window.AudioContext || window.webkitAudioContext;
  if (!Ctor) return null;
  try { context = new Ctor(); } catch { context = null; }
  return context;
}

/** Call from a user gesture (click, key): creates or wakes the audio context if sound is on. */
export function unlock() {
  if (!getSettings().sound) return;
  const ctx = audio();
  if (ctx && ctx.state === "suspended") ctx.resume().catch(() => undefined);
}

function tone(ctx, { freq, start = 0, length = 0.12, type = "sine", volume = 0.12, slideTo = null }) {
  const t0 = ctx.currentTime + start;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  if (slideTo) osc.frequency.exponentialRampToValueAtTime(slideTo, t0 + length);
  gain.gain.setValueAtTime(0.0001, t0);
  gain.gain.exponentialRampToValueAtTime(volume, t0 + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(t0);
  osc.stop(t0 + length + 0.02);
}

const SOUNDS = {
  // A soft "tick" of a card on the cloth.
  card: (ctx) => tone(ctx, { freq: 420, slideTo: 180, length: 0.07, type: "triangle", volume: 0.09 }),
  // Two rising notes.
  turn: (ctx) => { tone(ctx, { freq: 660, length: 0.1 }); tone(ctx, { freq: 880, start: 0.09, length: 0.14 }); },
  // A little major arpeggio.
  win: (ctx) => [523.25, 659.25, 783.99, 1046.5].forEach((freq, i) => tone(ctx, { freq, start: i * 0.09, length: 0.18, type: "triangle", volume: 0.1 })),
};

/** Play one of "card", "turn", "win" if sound is on and the page may make sound. */
function play(name) {
  if (!getSettings().sound || !SOUNDS[name]) return false;
  const ctx = context;
  if (!ctx || ctx.state !== "running") return false;
  try { SOUNDS[name](ctx); return true; } catch { return false; }
}

/** How many sounds were asked for and made, for the tests: window.__parlourSounds. */
function count(name, made) {
  const log = (window.__parlourSounds = window.__parlourSounds || []);
  log.push({ name, made });
  if (log.length > 50) log.shift();
}

export function cue(name) {
  if (!getSettings().sound) return;
  count(name, play(name));
}
