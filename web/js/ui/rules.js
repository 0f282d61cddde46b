// The rules page: the game's own rules fragment (web/rules/<id>.html) and the engine's
// house clarifications.
import { h, button } from "./dom.js";

/** Fetch and clean a rules fragment: a DocumentFragment, or null when there is none. */
export async function fetchRules(gameId) {
  const response = await fetch(`./rules/${encodeURIComponent(gameId)}.html`);
  if (!response.ok) return null;
  const text = await response.text();
  const template = document.createElement("template");
  template.innerHTML = text;
  // The fragments are ours, but keep them inert all the same.
  template.content.querySelectorAll("script, style, iframe, object, embed, link, meta").forEach((el) => el.remove());
  template.content.querySelectorAll("*").forEach((el) => {
    for (const attr of [...el.attributes]) {
      if (attr.name.startsWith("on") || attr.name === "style") el.removeAttribute(attr.name);
    }
  });
  return template.content;
}

export function renderRules(state, intents) {
  const spec = state.games.find((g) => g.id === state.rulesGame) || { title: state.rulesGame, clarifications: [] };
  const body = h("div", { class: "rules-text" });
  if (state.rulesContent === undefined) body.append(h("p", { class: "field-note" }, "Loading the rules\u2026"));
  else if (state.rulesContent === null) body.append(h("p", {}, `The full rules of ${spec.title} are not written up yet.`));
  else body.append(state.rulesContent.cloneNode(true));
  const clarifications = spec.clarifications || [];
  return h("section", { class: "screen rules-screen", dataset: { testid: "rules-page" }, "aria-labelledby": "rules-title" },
    h("header", { class: "screen-bar" },
      button("\u2190 Back", { class: "quiet", dataset: { testid: "back", focus: "back" }, onclick: intents.closeRules }),
      h("h1", { id: "rules-title" }, `How to play ${spec.title}`)),
    h("p", { class: "rules-learn" }, button(`Learn to play ${spec.title} with a coach`, {
      class: "primary", dataset: { testid: "learn", learnGame: spec.id, focus: "learn" }, onclick: () => intents.learn(spec.id) })),
    h("article", { class: "rules-article" },
      body,
      clarifications.length ? h("section", { class: "clarifications", dataset: { testid: "clarifications" } },
        h("h2", {}, "House clarifications"),
        h("p", { class: "field-note" }, "Where the original rules leave a question open, Parlour plays it this way."),
        h("ul", {}, clarifications.map((c) => h("li", {}, c)))) : null,
      fairDeals(),
      playingTogether(),
      cardCredits(),
      byKeyboard(),
      h("p", {}, button("Back", { class: "primary", onclick: intents.closeRules }))),
  );
}

/** Where the card faces come from. */
function cardCredits() {
  return h("section", { class: "card-credits", dataset: { testid: "card-credits" } },
    h("h2", {}, "The cards"),
    h("p", {}, "The court figures and the jokers are Adrian Kennard’s card designs, given to the public domain, "
      + "as packaged by Letele Motebang in @letele/playing-cards (",
    h("a", { href: "./licenses/playing-cards.txt" }, "CC0 1.0 licence"), "). Parlour draws the pips, indices and backs itself."),
    h("p", {}, "The card sounds (a deal, a draw, a card played, a shuffle) are recordings from Kenney’s “Casino Audio” pack, given to the "
      + "public domain (", h("a", { href: "./licenses/casino-audio.txt" }, "CC0 1.0 licence"), "); they are downloaded only once Sound is on in "
      + "the settings (about 60 kB), and until they arrive Parlour makes the same sounds itself from shaped noise. The chimes for your turn "
      + "and for a round won or lost are Parlour’s own, made in the page. No sound plays unless Sound is on."));
}

/** What "Check this deal" proves, and what it does not, the same for every game. */
function fairDeals() {
  return h("section", { class: "fair-help", dataset: { testid: "fair-help" } },
    h("h2", {}, "Fair deals you can check"),
    h("p", {}, "Every card of a match, dealt or drawn, comes from one number, the seed. Before the first move the table shows the deal’s "
      + "fingerprint (in the match’s details and at the top of the log): a SHA-256 hash of the game, the number of players, the options, "
      + "the seed and a random salt. The salt keeps anyone from finding the seed by trying every one against the fingerprint."),
    h("p", {}, "When the match is over, the seed and the salt are shown, and “Check this deal” (on the match-over screen, and on the replay "
      + "of a finished match file) works the fingerprint out again and replays every move. It says so if the fingerprint matches the one shown "
      + "at the start and every move was legal, or it names what does not match: a seed, an option or a move changed, a move that was not allowed."),
    h("p", {}, "What this proves: the cards were fixed before anyone played, not arranged while you played, and nobody broke a rule. "
      + "What it does not: the page on your device holds the seed from the start, so it cannot stop that device, or someone reading its memory "
      + "or its saved match, from knowing the cards. The computer players never do: they see only what their seat may see."),
    h("p", {}, "At a shared table the seed is made by every device. Before any card is dealt, each device sends only the hash of a random value "
      + "of its own; once every hash is in, the friends’ devices send their values to the host, and the seed is the hash of all the values. "
      + "The host’s value, the seed and the salt stay on the host’s device until the match is over. Then each friend’s page checks, "
      + "with the hashes it kept from the deal, that every value is the one promised, that the seed is the one they make and that the "
      + "fingerprint shown at the deal is that seed’s, and says so on its match-over screen, or says what does not match. At the end the "
      + "host’s device also sends the friends the record of every move; “Check this deal” on a friend’s page then loads the game engine "
      + "there (only then) and replays it: every move legal, the record from that seed, and the cards that friend was shown at the start "
      + "the ones the replay deals their seat."),
    h("p", {}, "What that proves: no device, the host’s included, could choose the deal or know it before every value was in, and a host "
      + "that dealt from another seed, or revealed a value other than the one it promised, is caught on the friends’ devices. "
      + "What it does not: the host’s device knows the seed from the deal on, so it (or whoever reads its memory) could know every hand "
      + "while the match is played; no device can be kept from seeing cards that way. A host that showed the fair seed’s fingerprint while "
      + "dealing other cards is caught by a friend’s replay, which deals that friend’s seat again; another seat’s cards are checked only by "
      + "the replay of the record the host sent, so each friend checks their own hand. A host "
      + "who dislikes the seed could refuse to start and deal again. And a page that joined a match after its deal cannot check that one."));
}

/** The table with the keyboard alone (js/features/keyboard.js), the same for every game. */
function byKeyboard() {
  return h("section", { class: "keyboard-help", dataset: { testid: "keyboard-help" } },
    h("h2", {}, "Playing with the keyboard"),
    h("p", {}, "On the table, Tab goes to your hand, then to the places a card can go, then to the buttons that play your choice, "
      + "then to the list of moves beside the table. Your hand is one stop: the arrow keys move along it, Home and End go to its ends, "
      + "Enter or Space picks a card and Escape puts your choice down."),
    h("p", {}, "Press R to hear the table read out: whose turn it is, the scores, and what happened since your last move."));
}

/** What a shared table means, the same for every game. */
function playingTogether() {
  return h("section", { class: "together-help", dataset: { testid: "together-help" } },
    h("h2", {}, "Playing with friends on their own devices"),
    h("p", {}, "Set a seat to \u201cA friend on their own device\u201d and each friend gets an invitation link; they answer with a reply link or code. "
      + "The devices talk to each other directly, with no server in between: in the same room over the same network, "
      + "or anywhere once the host chooses so, when the page asks the STUN server named in Settings for the way."),
    h("p", {}, "A friend in the same room need not be sent anything: the invite screen shows each seat\u2019s link as a QR code, "
      + "which their phone\u2019s camera opens. Their reply has a QR code too, for a host whose table is on a phone or tablet. "
      + "(The codes are drawn with qrcode-generator by Kazuhiko Arase, ",
    h("a", { href: "./licenses/qrcode-generator.txt" }, "MIT licence"), ".)"),
    h("p", {}, "The inviting device holds the deal, as a dealer at a real table does: it shuffles, runs the computer players and checks every move. "
      + "Each friend's device receives only what their own seat may see, never another player's hidden cards."),
    h("p", {}, "Undo at a shared table takes back only your own last move, and only until the next player has acted. "
      + "\u201cSuggest a move\u201d on a friend's device is thought out by the inviting device for that friend's seat alone, "
      + "from what that seat may see, as the computer players are."));
}
