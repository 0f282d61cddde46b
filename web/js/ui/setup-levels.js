// How the computer levels compare, for the set-up screen: a fold (one tap away) that says in
// plain words how often each level beats the one below it, then what the arena measured, run by
// run, with its intervals (the ladder's figures from js/catalog.js, benchmarks/ladder.json).
import { h } from "./dom.js";

export const LEVEL_WORDS = { random: "Random moves", easy: "Easy", normal: "Normal", hard: "Hard", expert: "Expert" };
const COUNT_WORDS = ["no", "one", "two", "three", "four", "five"];

/** A level in a sentence: "Normal", or the arena's reference "a plain search (200 iterations)". */
function opponentWords(level) {
  const plain = /^plain(?:-(\d+))?$/.exec(level);
  if (plain) return `a plain search (${plain[1] || 1000} iterations)`;
  return LEVEL_WORDS[level] || level;
}

const VERDICT_WORDS = {
  stronger: (level, other) => `${level} is stronger than ${other}`,
  weaker: (level, other) => `${level} is weaker than ${other} here`,
  alike: (level, other) => `${level} plays about as well as ${other} here (the arena could not tell them apart)`,
};

/** A share as a person says it: "about 7 in 10", "almost every", "hardly any". */
function howOften(rate) {
  if (rate >= 0.95) return "almost every";
  if (rate < 0.05) return "hardly any";
  return `about ${Math.round(rate * 10)} in 10`;
}

/** "1 in 4" for a fair share of 0.25. */
function evenShare(share) {
  return `1 in ${Math.round(1 / share)}`;
}

/** One sentence for a run of `level` against the level below it: "Hard wins about 7 in 10
 * matches against Normal", at a bigger table "… against three Normal players (an even share
 * is 1 in 4)", and for levels the arena could not tell apart, that it could not. */
export function plainComparison(run, players) {
  const name = LEVEL_WORDS[run.level] || run.level;
  const unit = run.rounds === 1 ? ["round", "rounds"] : ["match", "matches"];
  const often = howOften(run.win_rate);
  let text = `${name} wins ${often} ${often === "almost every" ? unit[0] : unit[1]} against ${opponents(run.against[0], players - 1)}`;
  if (players > 2) text += ` (an even share is ${evenShare(run.fair_share)})`;
  if (run.verdict === "alike") text += `: too close to call from ${run.matches} ${unit[1]}`;
  return text + ".";
}

/** The other seats of a run: "Normal", "random moves", "three Normal players", "two players
 * making random moves". */
function opponents(level, count) {
  const many = COUNT_WORDS[count] || String(count);
  if (level === "random") return count === 1 ? "random moves" : `${many} players making random moves`;
  const name = LEVEL_WORDS[level] || level;
  return count === 1 ? name : `${many} ${name} players`;
}

/** The runs at this game and table size, without those another run of the same line-up
 * supersedes (one whose par is the level met). */
function tableRows(figures, game, players, levels) {
  return (figures || []).filter((f) => f.game === game && f.players === players && levels.includes(f.level) && !f.superseded);
}

/** The plain sentences, a level at a time: each level's longest run against the level below it. */
function plainItems(rows, levels, players) {
  const items = [];
  levels.forEach((level, i) => {
    if (i === 0) return;
    const runs = rows.filter((f) => f.level === level && f.against.length === 1 && f.against[0] === levels[i - 1]);
    if (!runs.length) return;
    const run = runs.reduce((a, b) => (b.matches > a.matches ? b : a));
    items.push(h("li", { dataset: { level, verdict: run.verdict } }, plainComparison(run, players)));
  });
  return items;
}

/** What the arena measured of the offered levels, a level at a time: its runs, each with what
 * it showed (stronger, weaker, or not told apart from the level it met), and, for a level no
 * run set against the level below it, that this step of the ladder is not yet measured. */
function measuredItems(rows, levels, players) {
  const percent = (x) => `${Math.round(x * 100)}%`;
  const points = (x) => {
    const text = Math.abs(x).toFixed(1);
    return `${x < 0 && Number(text) !== 0 ? "\u2212" : "+"}${text}`;
  };
  const items = [];
  levels.forEach((level, i) => {
    if (i === 0) return; // the lowest level has nothing below it to beat
    const name = LEVEL_WORDS[level] || level;
    const below = levels[i - 1];
    const own = rows.filter((f) => f.level === level);
    for (const f of own) {
      const others = f.against.map(opponentWords).join(" and ");
      const unit = f.rounds === 1 ? "round" : "match";
      let text = `${VERDICT_WORDS[f.verdict](name, others)}: wins ${percent(f.win_rate)} against ${others}` +
        ` (${f.matches} ${f.rounds === 1 ? "one-round matches" : "matches"}, 95% interval ${percent(f.ci[0])}\u2060\u2013\u2060${percent(f.ci[1])},` +
        ` fair share ${percent(f.fair_share)})`;
      // Only a margin over the level met speaks of it (see arena.figures: par_is_met).
      if (f.over_par && f.par_is_met) {
        text += `, and scores ${points(f.over_par.mean)} points a ${unit} more than ${opponentWords(f.par)} in the same seat of the same deal` +
          ` (95% interval ${points(f.over_par_ci[0])} to ${points(f.over_par_ci[1])})`;
      }
      items.push(h("li", { dataset: { level, verdict: f.verdict } }, text + "."));
    }
    if (!own.some((f) => f.against.includes(below))) {
      items.push(h("li", { dataset: { level, verdict: "unmeasured" } },
        `${name}: not yet measured against ${LEVEL_WORDS[below] || below} at ${players} players.`));
    }
  });
  return items;
}

/** The fold, closed: "How the levels compare"; nothing for a table size no run measured. */
export function levelsFold(figures, game, players, levels) {
  const rows = tableRows(figures, game, players, levels);
  if (!rows.length) return null;
  const plain = plainItems(rows, levels, players);
  return h("details", { class: "ladder", dataset: { testid: "levels-fold" } },
    h("summary", {}, "How the levels compare"),
    plain.length ? h("ul", { class: "level-words", dataset: { testid: "level-words" } }, plain) : null,
    h("p", { class: "field-note" }, `At ${players} players, measured in matches between them, with 95% intervals:`),
    h("ul", { class: "field-note ladder-figures", dataset: { testid: "ladder" } }, measuredItems(rows, levels, players)));
}
