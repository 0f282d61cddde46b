"""A look at any screen for what a phone or a laptop must not show: the page or a box in it
wider than the window (a sideways scroll), text under 12 px, words cut off (an ellipsis, a
clamped or hidden line), a control under 44x44 CSS px on a phone; each offender named by a
short selector. The table screen's text and width are held to the same as every other
screen's: its score strip and General Mhing's opponents' sequences wrap rather than scroll
(a card is neither a text nor a control: its face is a picture, and a fanned card shows its
corner by design, measured by e2e/test_fit.py). Every other control of the table screen is
measured for touch on a phone: the play area's (the turn's buttons, a seat's target, a
sequence's chip, a stack's button), its bar, its status line (the coach's line), its side
panel (the moves, the hint, the analysis and the log) and its dialogs.
And the window sizes the browser tests emulate on one page (DevTools' device metrics), so that
the engine starts once for a module that walks screens (``Walk``: what each screen showed
wrongly, by screen and size).
"""

from __future__ import annotations

import base64
import os
from pathlib import Path

SIZES = {
    "390x844": {"width": 390, "height": 844, "mobile": True},
    "360x740": {"width": 360, "height": 740, "mobile": True},
    "1280x800": {"width": 1280, "height": 800, "mobile": False},
}


SHOTS_VARIABLE = "PARLOUR_SCREEN_SHOTS"
SHOTS = Path(os.environ[SHOTS_VARIABLE]) if os.environ.get(SHOTS_VARIABLE) else None
"""Where ``PARLOUR_SCREEN_SHOTS=dir`` asks a screenshot of each screen looked at to go."""


def set_window(page, size: str, scale: int | None = None) -> None:
    """Give the page the window of ``size``: a phone's (mobile, touch) or a laptop's, at
    ``scale`` device pixels to the CSS pixel (by default as said below)."""
    spec = SIZES[size]
    if not hasattr(page, "walk_cdp"):
        page.walk_cdp = page.context.new_cdp_session(page)
    # The input first, then the size: the table is refitted when the window changes size
    # (web/js/ui/fit.js), and it must be measured under the new window's input rules (touch's
    # larger controls on a phone, none of them on a laptop), not the old one's.
    page.walk_cdp.send(
        "Emulation.setTouchEmulationEnabled", {"enabled": spec["mobile"], "maxTouchPoints": 5}
    )
    page.walk_cdp.send(
        "Emulation.setDeviceMetricsOverride",
        {
            "width": spec["width"],
            "height": spec["height"],
            # A phone's two device pixels to the CSS pixel only where screenshots are kept
            # (e2e/test_screens.py's PARLOUR_SCREEN_SHOTS): what is measured is in CSS pixels,
            # and painting four times the pixels of every frame costs the run its time.
            "deviceScaleFactor": scale
            if scale is not None
            else (2 if spec["mobile"] and os.environ.get(SHOTS_VARIABLE) else 1),
            "mobile": spec["mobile"],
        },
    )
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => r(window.scrollTo(0, 0))))")


def clear_window(page) -> None:
    cdp = getattr(page, "walk_cdp", None)
    if cdp is not None:
        cdp.send("Emulation.clearDeviceMetricsOverride")
        cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": False})
        cdp.detach()
        del page.walk_cdp


# Cards are drawn to the table's sizes (a fanned card shows only its corner, by design), and
# their faces are pictures: neither is a control or a text of the screens around the table.
OFFENDERS = """(phone) => {
  const W = document.documentElement.clientWidth;
  const name = (el) => {
    const classes = [...el.classList].slice(0, 2).join('.');
    const own = el.dataset.testid ? `[data-testid=${el.dataset.testid}]`
      : el.id ? `#${el.id}` : classes ? `.${classes}` : '';
    const holder = el.parentElement && el.parentElement.closest('[data-testid]');
    const where = holder ? `[data-testid=${holder.dataset.testid}] ` : '';
    return `${where}${el.tagName.toLowerCase()}${own}`;
  };
  // Words for a screen reader only: a known class, or a box of a pixel (clipped to nothing).
  const spoken = (el) => {
    const r = el.getBoundingClientRect();
    return r.width <= 1 && r.height <= 1;
  };
  const shown = (el) => el.checkVisibility({ visibilityProperty: true })
    && !el.closest('.visually-hidden, .prog-sr, .ru-sr, .skip-link, [data-card]') && !spoken(el);
  const text = (el) => `"${(el.textContent || el.value || '').trim().slice(0, 24)}"`;
  const words = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  const out = { wide: [], text: [], controls: [], clipped: [] };
  if (document.documentElement.scrollWidth > W + 1) {
    out.wide.push(`the page is ${document.documentElement.scrollWidth} px wide`);
    // What pokes out: the outermost boxes past the window's right edge.
    for (const el of document.body.querySelectorAll('*')) {
      const right = el.getBoundingClientRect().right;
      const parent = el.parentElement.getBoundingClientRect().right;
      if (right > W + 1 && parent <= W + 1 && el.checkVisibility()) {
        out.wide.push(`${name(el)} reaches x=${Math.round(right)}`);
      }
    }
  }
  for (const el of document.body.querySelectorAll('*')) {
    if (!shown(el)) continue;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    if (['auto', 'scroll'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1
        && box.width > 0) {
      out.wide.push(`${name(el)} scrolls sideways (${el.scrollWidth} in ${el.clientWidth} px)`);
    }
    if (box.width > 0 && box.right > W + 1 && style.position !== 'fixed') {
      let clip = el.parentElement, clipped = false;
      for (; clip && clip !== document.body; clip = clip.parentElement) {
        if (getComputedStyle(clip).overflowX !== 'visible') { clipped = true; break; }
      }
      if (!clipped) out.wide.push(`${name(el)} reaches x=${Math.round(box.right)}`);
    }
    if (words(el) && box.width > 0) {
      const size = parseFloat(style.fontSize);
      const px = size.toFixed(1);
      if (size < 11.95) out.text.push(`${name(el)} ${text(el)} ${px} px`);
      const cut = (style.textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1)
        || (style.webkitLineClamp !== 'none' && el.scrollHeight > el.clientHeight + 2)
        || (style.overflowY === 'hidden' && el.scrollHeight > el.clientHeight + 2);
      // The status line's message and the coach's line keep their lines; a tap opens each whole.
      if (cut && !['message', 'coach-line-text'].includes(el.dataset.testid)) {
        out.clipped.push(`${name(el)} ${text(el)}`);
      }
    }
    if (phone && el.matches('button, select, textarea, a[href], summary, [role=button], input')
        && box.width > 0 && el.type !== 'hidden') {
      let target = box;
      if (el.matches('input[type=checkbox], input[type=radio]')) {
        const label = el.labels && el.labels[0];
        const lb = label ? label.getBoundingClientRect() : box;
        target = { width: Math.max(box.right, lb.right) - Math.min(box.left, lb.left),
          height: Math.max(box.bottom, lb.bottom) - Math.min(box.top, lb.top) };
      }
      if (target.width < 43.5 || target.height < 43.5) {
        const dims = `${Math.round(target.width)}x${Math.round(target.height)}`;
        out.controls.push(`${name(el)} ${text(el)} ${dims}`);
      }
    }
  }
  for (const key of Object.keys(out)) out[key] = [...new Set(out[key])];
  return out;
}"""


def offenders(page, size: str) -> dict[str, list[str]]:
    """What the screen as it is shows wrongly at ``size`` (set already): the lists that are
    not empty, by kind ("wide", "text", "controls", "clipped")."""
    found = page.evaluate(OFFENDERS, SIZES[size]["mobile"])
    return {kind: items for kind, items in found.items() if items}


# The status line (whose turn, a refusal, a hint) inside the window once the page is
# scrolled to its foot, where the moves are.
STATUS_IN_VIEW = """() => new Promise((resolve) => {
  window.scrollTo(0, document.documentElement.scrollHeight);
  requestAnimationFrame(() => {
    const line = document.querySelector('[data-testid=table] .status-line');
    const box = line && line.getBoundingClientRect();
    const inView = Boolean(box) && box.top >= -1 && box.bottom <= innerHeight + 1;
    window.scrollTo(0, 0);
    const where = box ? `the status line is at ${Math.round(box.top)}..${Math.round(box.bottom)}`
      : 'no status line';
    resolve(inView ? null : where);
  });
})"""


def status_out_of_view(page) -> str | None:
    """None when the table's status line stays in the window with the page scrolled to its
    foot; else where it is."""
    return page.evaluate(STATUS_IN_VIEW)


class Walk:
    """What each screen showed wrongly, by screen and size."""

    def __init__(self, page) -> None:
        self.page = page
        self.found: dict[str, dict] = {}

    def look(self, screen: str, table: bool = False, page=None) -> None:
        """Look at ``screen`` as it is on ``page`` (the walk's own unless given) at every
        size; ``table``: also whether the status line stays in view."""
        page = page or self.page
        for size in SIZES:
            set_window(page, size)
            got = offenders(page, size)
            if table:
                away = status_out_of_view(page)
                if away:
                    got["status"] = [away]
            if got:
                self.found[f"{screen} at {size}"] = got
            if SHOTS:
                SHOTS.mkdir(parents=True, exist_ok=True)
                shot = page.walk_cdp.send("Page.captureScreenshot", {"format": "png"})
                name = f"{screen.replace(' ', '-')}-{size}.png"
                (SHOTS / name).write_bytes(base64.b64decode(shot["data"]))
        set_window(page, "1280x800")

    def report(self) -> str:
        lines = []
        for screen, kinds in self.found.items():
            lines.append(screen)
            for kind, items in kinds.items():
                lines += [f"  {kind}: {item}" for item in items]
        return "\n".join(lines)
