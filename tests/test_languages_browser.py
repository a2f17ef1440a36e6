"""Every language fits the phone (issue 8 item 6): the main pages at 390x844 in Chromium, in each language.

For each language one phone opens a table of every game with the longest name a table takes (40
characters), a right-to-left name and an accented one; saves a hand; enters the next one part way (a
count made, a field typed, a folded section opened); and visits the game's counting and rules pages,
the settle-up and share pages, and the home page listing the phone's tables. On every page it checks,
in the page itself, that nothing pushes the page sideways and that no visible text is cut off. Every
page is checked before any assertion, so one failure lists every misfit of that language.

The steps name fields and values, never visible words: the Italian and Romansh catalogues are filled
while this test runs, and a label's translation must not decide what is tapped.
"""
import pytest
from playwright.sync_api import expect

from scorekeeper import LANGUAGES
from test_tables_browser import WAIT, save

pytestmark = pytest.mark.browser
SHOTS = "/tmp/shots"  # screenshots to look at by eye, outside the repository
SHOT_LANGUAGES = ("fr", "it")  # the languages whose key pages are kept as screenshots
MAX_SAID = 6  # misfits reported per page

LONG = "Maximiliana Wolfeschlegelsteinhausenberg"  # the longest name a table takes, with a 28-letter word
RTL = "מרים"  # Miriam, in Hebrew: written right to left inside a left-to-right page
ACCENT = "Zoë"
NAMES = [LONG, RTL, ACCENT, "Anna"]
SEATS = {"troggu": 4, "troccas": 4, "french_tarot": 4, "scarto": 3, "mitigati": 3, "swiss_tarot_1659": 3,
         "triomphe_forcee": 4}  # every game; each table as full as the new-table form shows it (Troccas: exactly 4)

# One hand saved at each table, so that its scoreboard, hand list and settle-up hold the long names.
# Steps: ("tap", field, value) taps a big button; ("type", field, text) types into a field.
SAVED = {
    "troggu": [("tap", "declarer", LONG), ("type", "points", "62")],
    "troccas": [("tap", "partner", ACCENT), ("type", "points", "40")],
    "french_tarot": [("tap", "taker", LONG), ("tap", "contract", "garde"), ("type", "points", "50"),
                     ("tap", "oudlers", "2")],
    "scarto": [("type", "pp0", "30"), ("type", "pp1", "20")],  # the third is worked out from 78
    "mitigati": [("type", "pp0", "50"), ("type", "pp1", "40"), ("type", "pp2", "39")],
    "swiss_tarot_1659": [("type", "pp0", "26"), ("type", "pp1", "30"), ("type", "pp2", "22")],
    "triomphe_forcee": [("tap", "dc0", "FOOL"), ("tap", "trick0", RTL), ("tap", "trick1", RTL),
                        ("tap", "trick2", ACCENT), ("tap", "trick3", RTL), ("tap", "trick4", LONG)],
}

# The next hand, being entered, as a phone shows it before Save. More steps: ("untap", field, value) lifts
# a ticked button; ("open", css) unfolds a <details>; ("count", target, field) empties `field`, counts 2
# kings and 17 other cards "by class" for `target` and waits until the server has put the count in `field`;
# ("tapcards", n) unfolds "Tap cards" and taps the deck's first n cards. Every field the preview depends on
# is set, whatever the form kept from the hand before. Then the preview's working shows the number given
# (the same in every language): the page is measured once the whole entry has been taken in.
ENTERING = {
    "troggu": ([("tap", "declarer", RTL), ("count", "opponents", "points")],
               "87"),  # 19 cards counted: 27 for the opponents, 114 − 27 = 87 for מרים
    "troccas": ([("count", "other", "points")], "59"),  # the other team counted 13: 72 − 13 = 59
    "french_tarot": ([("tap", "taker", RTL), ("tap", "contract", "garde_contre"), ("type", "points", "45"),
                      ("tap", "oudlers", "1"), ("open", "details.bonuses")],  # the poignée of each player, by name
                     "186"),  # 51 needed, 45 made: (25 + 6) × 6
    "scarto": ([("type", "pp0", "40"), ("type", "pp2", ""), ("count", "pp1", "pp1"), ("tapcards", 4)],
               "\u221211"),  # מרים counted 15: 15 − 26 = −11
    "mitigati": ([("type", "pp0", "45"), ("type", "pp1", "40"), ("type", "pp2", ""),
                  ("open", "details.bonuses")],  # the honours of each player, by name
                 "+2"),  # 45 − 43
    "swiss_tarot_1659": ([("type", "pp1", "30"), ("type", "pp2", ""), ("count", "pp0", "pp0")],
                         "+7"),  # Zoë has 78 − 15 − 30 = 33: 33 − 26
    "triomphe_forcee": ([("untap", "dc0", "FOOL"), ("tap", "dc1", "T1"), ("tap", "trick0", LONG),
                         ("tap", "trick1", RTL), ("tap", "trick2", RTL), ("tap", "trick3", ACCENT),
                         ("tap", "trick4", LONG)],
                        "+3"),  # מרים: 1 for Le Bateleur, the rest of the pot (3) for the most tricks first, less the ante
}

# Measured in the page: what a phone's reader would see pushed sideways or cut off.
# The phone's width comes from the test: Chromium's mobile emulation widens window.innerWidth to a page
# that overflows (as a phone zooms out), so innerWidth would hide the very overflow looked for.
MISFITS_JS = """phone => {
  const found = [];  // [element, what is wrong]
  const name = el => {
    const cls = typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
    const text = (el.innerText ?? el.textContent ?? '').replace(/\\s+/g, ' ').trim() || el.value || el.getAttribute('aria-label') || '';
    return `<${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${cls}> "${text.slice(0, 70)}"`;
  };
  const past = r => r.width > 0 && (r.right > phone + 1 || r.left < -1);
  const walk = (el, inScroller) => {
    if (!el.checkVisibility()) return;  // display: none, or inside a folded <details>: not on the screen
    const style = getComputedStyle(el);
    // Hidden on purpose (the visually-hidden labels, the form's default button): clipped to nothing.
    if (style.clip !== 'auto' || style.clipPath !== 'none') return;
    const shown = el.checkVisibility({visibilityProperty: true, opacityProperty: true});
    const field = ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);  // a field scrolls its own text
    if (shown && !field && (['hidden', 'clip'].includes(style.overflowX) || style.textOverflow === 'ellipsis')
        && el.scrollWidth > el.clientWidth + 1) {
      found.push([el, `cuts its text: ${el.scrollWidth}px of it in ${el.clientWidth}px`]);
    }
    const box = el.getBoundingClientRect();
    if (shown && !inScroller && past(box)) {
      found.push([el, `reaches from ${Math.round(box.left)} to ${Math.round(box.right)}px on a ${phone}px phone`]);
    }
    // Text that spills out of its own box past the screen's edge is cut off too (the body hides overflow).
    for (const node of el.childNodes) {
      if (shown && !inScroller && node.nodeType === Node.TEXT_NODE && node.data.trim()) {
        const range = document.createRange();
        range.selectNodeContents(node);
        if ([...range.getClientRects()].some(past)) found.push([el, `has text running past the ${phone}px screen`]);
      }
    }
    // A box made to scroll sideways (the evening-in-numbers table) shows the rest on a swipe: what is
    // inside it may reach past the screen, the box itself may not.
    const scroller = el !== document.body && ['auto', 'scroll'].includes(style.overflowX);
    for (const child of el.children) walk(child, inScroller || scroller);
  };
  const width = document.documentElement.scrollWidth;
  const out = width > phone ? [`the page is ${width}px wide on a ${phone}px phone: it scrolls sideways`] : [];
  walk(document.body, false);
  // Name the innermost misfits (the button, not the <main> around it): they say what is too wide.
  // One line per element, its first fault: the box past the edge says enough about the text in it.
  const els = found.map(([el]) => el);
  const said = new Set();
  for (const [el, what] of found) {
    if (!said.has(el) && !els.some(other => other !== el && el.contains(other))) out.push(`${name(el)} ${what}`);
    said.add(el);
  }
  return out;
}"""


def misfits(page):
    """Return what on this page scrolls sideways or is cut off, one line per innermost offender."""
    return page.evaluate(MISFITS_JS, page.viewport_size["width"])


def field(page, name, value):
    """The big button (a label around a hidden radio or checkbox) of `name`'s `value`."""
    return page.locator(f"label.choice:has(input[name='{name}'][value='{value}'])")


def unfold(page, css):
    """Open the <details> `css` (a tap on its summary) unless it is open already."""
    details = page.locator(css).first
    if details.get_attribute("open") is None:
        details.locator(":scope > summary").click()
    expect(details).to_have_attribute("open", "", timeout=WAIT)


def enter(page, steps):
    """Carry out a hand's steps (SAVED, ENTERING) on the table page's hand form."""
    form = page.locator("#hand-form")
    for step in steps:
        kind, *args = step
        if kind in ("tap", "untap"):  # a button already as the step wants it is not tapped again
            box = form.locator(f"input[name='{args[0]}'][value='{args[1]}']")
            if box.is_checked() != (kind == "tap"):
                field(form, *args).click()
            expect(box).to_be_checked(checked=kind == "tap")
        elif kind == "type":
            form.locator(f"input[name='{args[0]}']").fill(args[1])
        elif kind == "open":
            unfold(page, args[0])
        elif kind == "count":
            target, filled = args
            form.locator(f"input[name='{filled}']").fill("")  # so that the count is what fills it
            unfold(page, "details.count")
            field(form, "count_of", target).click()
            field(form, "c_kings", "2").click()
            form.locator("input[name=c_others]").fill("17")
            form.locator("button[name=action][value=count]").click()
            # the server counts and sends the form back with the points in place
            expect(page.locator(f"#hand-form input[name='{filled}']")).not_to_have_value("", timeout=WAIT)
        elif kind == "tapcards":
            unfold(page, "#hand-form details.tap-cards")
            cards = page.locator("#hand-form details.tap-cards label.card")
            for i in range(args[0]):
                cards.nth(i).click()
                expect(cards.nth(i).locator("input")).to_be_checked()
        else:
            raise ValueError(step)


def fill_new_table(page, base, lang, game):
    """Fill the new-table form of `game` with the names that stress the layout, every folded part open."""
    page.goto(f"{base}/tables/new/{game}?lang={lang}")
    for i, player in enumerate(NAMES[:SEATS[game]]):
        if not page.locator(f"#players-{i}").is_visible():
            unfold(page, "details.more-players")
        page.fill(f"#players-{i}", player)
    if page.locator("details.house-rules").count():
        unfold(page, "details.house-rules")  # each house rule's meaning: the longest sentences of the form


def open_table(page):
    """Tap "Open the table" on the filled form; return the new table's address."""
    page.locator("form.table-new button.big").click()
    expect(page.locator("#hand-form")).to_be_visible(timeout=WAIT)
    return page.url.split("#")[0].split("?")[0]


def shoot(page, lang, name):
    """Keep a screenshot of this page in the languages looked at by eye."""
    if lang in SHOT_LANGUAGES:
        page.screenshot(path=f"{SHOTS}/{lang}-{name}.png", full_page=True)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_fits_the_phone(page, live_server, lang):
    assert len(LONG) == 40  # the most a table takes (the new-table form's maxlength)
    found = {}  # page -> its misfits

    def check(where):
        """Record `where`'s misfits, after making sure the page is in the language under test."""
        expect(page.locator("html")).to_have_attribute("lang", lang)  # ?lang= once; the cookie keeps it
        found[where] = misfits(page)

    page.goto(f"{live_server}/tables/new?lang={lang}")  # the game chooser
    check("choose a game")
    tables = {}
    for game in SEATS:
        fill_new_table(page, live_server, lang, game)
        check(f"new {game} table, filled in")
        tables[game] = open_table(page)
        enter(page, SAVED[game])
        save(page)  # waits for the preview's sentence, taps Save, waits for the hand in the list
        steps, shown = ENTERING[game]
        enter(page, steps)
        expect(page.locator("#preview .sentence")).to_be_visible(timeout=WAIT)
        expect(page.locator("#preview")).to_contain_text(shown, timeout=WAIT)  # the whole entry taken in
        check(f"{game} table, a hand being entered")
        if game in ("french_tarot", "scarto"):
            shoot(page, lang, f"table-{game}")

        page.goto(f"{tables[game]}/settle")
        check(f"{game} settle-up")
        if game == "french_tarot":
            shoot(page, lang, "settle-french_tarot")

        page.goto(f"{live_server}/count/{game}")
        cards = page.locator("#pile label.card")  # Triomphe Forcée counts tricks: its page has no deck
        if cards.count():
            result = page.locator("#result")
            before = result.inner_text()
            cards.nth(0).click()
            cards.nth(5).click()
            expect(cards.nth(5).locator("input")).to_be_checked()
            expect(result).not_to_have_text(before, timeout=WAIT)  # the server counted the two cards
        check(f"count {game}")
        if game in ("french_tarot", "scarto"):
            shoot(page, lang, f"count-{game}")

        page.goto(f"{live_server}/rules/{game}")
        check(f"rules of {game}")

    page.goto(f"{tables['french_tarot']}/share")
    expect(page.locator("img.qr").first).to_be_visible()
    check("share")

    page.goto(f"{live_server}/")
    expect(page.locator("#my-tables > li")).to_have_count(len(SEATS), timeout=WAIT)  # this phone's tables, listed
    check("home, with this phone's 7 tables")

    # Each page's first few misfits: the rest of a too-wide table's cells add nothing.
    report = []
    for where, ms in found.items():
        report += [f"{where}: {m}" for m in ms[:MAX_SAID]]
        report += [f"{where}: … and {len(ms) - MAX_SAID} more"] if len(ms) > MAX_SAID else []
    total = sum(len(ms) for ms in found.values())
    assert not total, f"{total} misfits in {lang!r} at 390x844:\n" + "\n".join(report)
