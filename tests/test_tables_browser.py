"""Whole evenings at phone size (390x844) in Chromium: open a table, enter hands, fix one, settle up."""
import re

import pytest
from playwright.sync_api import expect
from tests.conftest import in_use

pytestmark = pytest.mark.browser
SHOTS = "/tmp"
WAIT = 20_000  # ms: a shared, busy CI machine can take seconds per page; behaviour is checked, never time


def open_table(page, base, game, players, stake=None, dealer=None, currency="CHF"):
    """Open a table through the form. `currency`: chosen, not left to the reader's region (the tests' browser says
    en-US, so a game played in the euro's countries would default to EUR: web/l10n.py home_currency)."""
    page.goto(f"{base}/tables/new/{game}")
    for i, name in enumerate(players):
        if not page.locator(f"#players-{i}").is_visible():
            page.get_by_text("More players").click()
        page.fill(f"#players-{i}", name)
    if stake:
        page.fill("input[name=stake]", stake)
    if dealer:
        choose(page, "Who deals first", dealer)
    if currency:
        page.locator(f"label:has(input[name=currency][value={currency}])").click()
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#hand-form")).to_be_visible(timeout=WAIT)
    in_use(page)  # its scripts all run: a tap now is a player's


def group(page, legend):
    return page.locator("fieldset", has=page.locator("legend", has_text=legend)).first


def choose(page, legend, text):
    group(page, legend).get_by_text(text, exact=True).click()


def save(page):
    """Tap Save and wait for one more hand on the page, settled (saved_and_settled)."""
    expect(page.locator("#preview .sentence")).to_be_visible(timeout=WAIT)  # read the result, then tap
    saved_and_settled(page, lambda: page.locator("button.save").click())
    expect(page.locator(".hand-form h2")).to_be_visible(timeout=WAIT)


def saved_and_settled(page, tap):
    """Do `tap` (a Save) and wait until the page holds one more hand and is still: static/board.js scrolls to the
    line saying the hand once the answer has settled, and only then counts the hands (#table's data-hands). A tap
    made before that could land on whatever the scroll moves under it, as a finger can't, 20 ms after the answer.
    (A poll doesn't count them: hands saved on other phones meanwhile make it more than one up.)"""
    hands = int(page.locator("#table").get_attribute("data-hands"))
    tap()
    expect(page.locator("#table")).not_to_have_attribute("data-hands", str(hands), timeout=WAIT)
    assert int(page.locator("#table").get_attribute("data-hands")) > hands


def totals(page):
    """Return {player: (units, money)} read from the scoreboard."""
    out = {}
    for row in page.locator("#totals tbody tr").all():
        name = row.locator("th").inner_text().replace("deals", "").strip()
        cells = row.locator("td").all_inner_texts()
        out[name] = (cells[0], cells[1].replace("\xa0", " "))  # Babel keeps CHF and its amount together
    return out


def troggu_normal(page, declarer, points, contract="Normal"):
    choose(page, "Contract", contract)
    choose(page, "Tappist or soloist", declarer)
    page.fill("input[name=points]", str(points))


def test_a_troggu_evening_of_five_players(page, live_server):
    players = ["Anna", "Ben", "Cla", "Dumeng", "Zoë"]
    open_table(page, live_server, "troggu", players)
    # Hand 1: Anna normal, 62 points: 62 >= 58 wins, opponents 52 >= 30 single: each opponent pays 10 Rappen (docs/rules.md §5)
    troggu_normal(page, "Anna", 62)
    expect(page.locator("#preview .sentence")).to_have_text("Anna wins: each of the 4 opponents pays 10 Rappen.", timeout=WAIT)
    page.screenshot(path=f"{SHOTS}/tables-troggu-hand.png", full_page=True)
    save(page)
    # Hand 2: Ben normal, 50 points: loses single (edited to 25 later)
    troggu_normal(page, "Ben", 50)
    save(page)
    # Hand 3: Cla solo, 70 points: solo doubles the base: each opponent pays 2 units
    troggu_normal(page, "Cla", 70, "Solo")
    save(page)
    # Hand 4: misère; Anna has the most points (30) and pays each other player 1 unit
    choose(page, "Contract", "Misère")
    for i, pts in enumerate([30, 25, 20, 15, 10]):
        page.fill(f"input[name=mp{i}]", str(pts))
    expect(page.locator("#preview .sentence")).to_have_text("Anna loses: pays each of the 4 others 10 Rappen.", timeout=WAIT)
    save(page)
    # Hand 5: Dumeng normal, 58 points: exactly 58 wins
    troggu_normal(page, "Dumeng", 58)
    save(page)
    # Hand 6: Zoë normal; the opponents counted 94, so Zoë's side has 114 - 94 = 20 < 30: double, 2 units each
    troggu_normal(page, "Zoë", 94)
    choose(page, "Points of", "Opponents")
    expect(page.locator("#preview .sentence")).to_have_text("Zoë loses: pays each of the 4 others 20 Rappen.", timeout=WAIT)
    save(page)
    # Edit hand 2: Ben had 25 points, not 50: under 30 doubles, Ben pays each 2 units
    page.locator("#hand-2").get_by_role("link", name="Edit").click()
    expect(page.locator("input[name=points]")).to_have_value("50")
    page.fill("input[name=points]", "25")
    page.locator("button.save").click()
    page.wait_for_url(re.compile(r"/t/[^/#]+(#hand-2)?$"), timeout=WAIT)
    # Units: Anna 4+2-2-4-1+2 = 1, Ben -1-8-2+1-1+2 = -9, Cla -1+2+8+1-1+2 = 11,
    #        Dumeng -1+2-2+1+4+2 = 6, Zoë -1+2-2+1-1-8 = -9; money at 10 Rappen a unit.
    assert totals(page) == {"Anna": ("+1", "+CHF 0.10"), "Ben": ("−9", "−CHF 0.90"), "Cla": ("+11", "+CHF 1.10"),
                            "Dumeng": ("+6", "+CHF 0.60"), "Zoë": ("−9", "−CHF 0.90")}
    assert page.locator(".hand-list > li").count() == 6
    # Seven hands dealt from Anna down the list: hand 7 is dealt by the 2nd player, Ben
    expect(page.locator(".hand-form h2 small")).to_have_text("Ben deals")
    page.screenshot(path=f"{SHOTS}/tables-troggu-board.png", full_page=True)
    page.get_by_role("link", name="Settle up").click()
    # Creditors Anna 10, Cla 110, Dumeng 60; debtors Ben 90, Zoë 90; no subgroup settles alone: 5 - 1 = 4 transfers
    expect(page.locator(".transfers li")).to_have_count(4, timeout=WAIT)  # wait for the settle page itself
    transfers = page.locator(".transfers li > span").all_inner_texts()  # each line, without its Paid button
    assert "Ben pays Cla 90 Rappen" in transfers
    page.screenshot(path=f"{SHOTS}/tables-troggu-settle.png", full_page=True)
    # the home page lists this phone's table
    page.goto(live_server + "/")
    expect(page.locator("#my-tables a")).to_contain_text("Troggu: Anna, Ben, Cla, Dumeng, Zoë")
    # opening the next table offers this phone's names
    page.goto(live_server + "/tables/new/troccas")
    assert page.eval_on_selector_all("#known-names option", "os => os.map(o => o.value)") == players


def test_a_french_tarot_table_with_a_poignee_and_a_petit_au_bout(page, live_server):
    open_table(page, live_server, "french_tarot", ["Anna", "Ben", "Cla", "Dumeng"], stake="0.01")
    choose(page, "Taker", "Anna")
    choose(page, "Contract", "Garde")
    page.fill("input[name=points]", "50")
    choose(page, "Oudlers of that side", "2")
    choose(page, "Petit au bout", "Attack")
    page.get_by_text("Poignée, chelem").click()
    choose(page, "Poignée shown by Ben", "Single")
    # 2 oudlers need 41; made by 9: 25 + 9 = 34, petit au bout +10 = 44, garde x2 = 88, poignée +20 = 108 (docs/rules.md §6)
    expect(page.locator("#preview .sentence")).to_have_text("Anna wins: each of the 3 opponents pays CHF\xa01.08.", timeout=WAIT)
    save(page)
    # Ben prise with 40 points and 1 oudler: needs 51, down 11: 25 + 11 = 36 per defender
    choose(page, "Taker", "Ben")
    choose(page, "Contract", "Prise")
    page.fill("input[name=points]", "40")
    choose(page, "Oudlers of that side", "1")
    save(page)
    assert totals(page) == {"Anna": ("+360", "+CHF 3.60"), "Ben": ("−216", "−CHF 2.16"),
                            "Cla": ("−72", "−CHF 0.72"), "Dumeng": ("−72", "−CHF 0.72")}
    page.screenshot(path=f"{SHOTS}/tables-tarot-board.png", full_page=True)
    page.get_by_role("link", name="Settle up").click()
    # Rounded to 5 Rappen: floors 360, -220, -75, -75 leave 10 Rappen: Ben (4 left over) and Cla (3) round up
    rows = page.locator(".balances tbody tr").all_inner_texts()
    assert [r.split("\t")[2] for r in rows] == ["+3.60", "−2.15", "−0.70", "−0.75"]
    assert len(page.locator(".transfers li").all()) == 3


def test_a_troccas_game_of_four_deals(page, live_server):
    open_table(page, live_server, "troccas", ["Anna", "Ben", "Cla", "Zoë"], stake="0.10")
    for points in (40, 30, 36, 45):  # Anna's team: +4, -6, 0, +9 = +7 (points - 36, docs/rules.md §1)
        choose(page, "Anna plays with", "Cla")
        page.fill("input[name=points]", str(points))
        save(page)
    expect(page.locator(".deal-games li")).to_contain_text("Game 1: 4 deals – won by Anna & Cla")
    # Game 2, deal 1: count the other team's cards instead of typing points.
    # 2 kings, 1 queen, 17 others = 20 cards: 5 + 5 + 4 + 17 = 31 - 3 x 5 groups = 16 (docs/rules.md §1);
    # so Anna's team has 72 - 16 = 56: +20 each
    page.get_by_text("Count the cards instead").click()
    choose(page, "Whose cards", "The other team")
    choose(page, "Kings", "2")  # one tap each: the small classes are segmented buttons
    choose(page, "Queens", "1")
    page.fill("input[name=c_others]", "17")
    page.get_by_role("button", name="Count these cards", exact=True).click()
    expect(page.locator("input[name=points]")).to_have_value("16", timeout=WAIT)
    expect(page.locator("#preview .sentence")).to_have_text("Anna and Cla get CHF\xa02.00 each; Ben and Zoë pay CHF\xa02.00 each.",
                                                            timeout=WAIT)
    save(page)
    expect(page.locator(".deal-games li").nth(1)).to_contain_text("Game 2: deal 1 of 4")
    assert totals(page)["Anna"] == ("+27", "+CHF 2.70")  # 7 + 20
    assert totals(page)["Zoë"] == ("−27", "−CHF 2.70")
    # Anna & Cla and Ben & Zoë played together all evening: their lines lie on each other, so each is drawn
    # thinner than the one before it (app.css) and the one below still shows along both edges
    widths = page.locator("#chart path").evaluate_all("ps => ps.map(p => parseFloat(getComputedStyle(p).strokeWidth))")
    assert len(widths) == 4 and all(a > b for a, b in zip(widths, widths[1:])), widths
    page.screenshot(path=f"{SHOTS}/tables-troccas.png", full_page=True)


@pytest.mark.parametrize("game, points, expected", [
    ("scarto", [30, 20, None], {"Anna": "+4", "Ben": "−6", "Cla": "+2"}),            # 28 derived: 78 - 50; pts - 26
    ("swiss_tarot_1659", [26, 30, 22], {"Anna": "0", "Ben": "+4", "Cla": "−4"}),     # pts - 26 (docs/rules.md §4)
])
def test_one_hand_of_each_three_player_game(page, live_server, game, points, expected):
    open_table(page, live_server, game, ["Anna", "Ben", "Cla"])
    for i, p in enumerate(points):
        if p is not None:
            page.fill(f"input[name=pp{i}]", str(p))
    save(page)
    assert {p: u for p, (u, _m) in totals(page).items()} == expected


def test_one_hand_of_mitigati_with_a_declaration(page, live_server):
    open_table(page, live_server, "mitigati", ["Anna", "Ben", "Cla"])
    for i, p in enumerate([50, 40, 39]):
        page.fill(f"input[name=pp{i}]", str(p))
    page.get_by_text("Declarations").click()
    anna = group(page, "Honours shown by Anna")
    for king in ("Re Spade", "Re Bastoni", "Re Coppe", "Re Denari"):  # named as Mitigati's players do, never codes
        anna.get_by_text(king, exact=True).click()
    save(page)
    # 50 - 43 = +7, plus four kings 20 from each other player (docs/rules.md §3.1): Anna 47, Ben -3 - 20, Cla -4 - 20
    assert {p: u for p, (u, _m) in totals(page).items()} == {"Anna": "+47", "Ben": "−23", "Cla": "−24"}


def test_one_hand_of_triomphe_forcee(page, live_server):
    open_table(page, live_server, "triomphe_forcee", ["Anna", "Ben", "Cla", "Dumeng"], stake="0.50")
    group(page, "Declared").locator("fieldset", has=page.locator("legend", has_text="Anna")).get_by_text("Le Fou").click()
    for t, winner in enumerate(["Ben", "Ben", "Cla", "Ben", "Anna"]):
        choose(page, f"Trick {t + 1}", winner)
    save(page)
    # Pot 4 antes; Anna's Fool takes 1; Ben's 3 tricks take the other 3: Anna 1-1, Ben 3-1, Cla -1, Dumeng -1 (docs/rules.md §7)
    assert totals(page) == {"Anna": ("0", "0"), "Ben": ("+2", "+CHF 1.00"), "Cla": ("−1", "−CHF 0.50"),
                            "Dumeng": ("−1", "−CHF 0.50")}
    page.screenshot(path=f"{SHOTS}/tables-triomphe.png", full_page=True)


def test_no_horizontal_scroll_and_big_targets_on_the_table_page(page, live_server):
    open_table(page, live_server, "troggu", ["Anna", "Ben", "Cla", "Dumeng", "Zoë", "Gion", "Ürs"])
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for box in [b.bounding_box() for b in page.locator(".choice span, button, .button").all() if b.is_visible()]:
        assert box["height"] >= 44


def test_settle_up_keeps_long_names_whole_on_a_phone(page, live_server):
    """Settle-up in francs at 1 Rappen a point rounds to 5 Rappen, so it shows four columns (exact, in coins, the
    rounding): Italian names of 12 and 13 letters still fit a 390 px phone whole, not broken inside the word."""
    names = ["Massimiliano", "Gianfrancesco", "Bartolomeo"]
    open_table(page, live_server, "scarto", names, stake="0.01")
    for a, c in ((30, 28), (10, 40), (26, 26)):  # two players' points; Save counts the third's from the deck
        inputs = page.locator("#hand-form input[inputmode]")
        inputs.nth(0).fill(str(a))
        inputs.nth(1).fill(str(c))
        save(page)
    page.goto(page.url.split("?")[0] + "/settle?lang=it")
    expect(page.locator(".balances thead th.rounding")).to_be_visible(timeout=WAIT)  # the rounding column is there
    lines = page.evaluate("""() => [...document.querySelectorAll('.balances th[scope=row]')].map(th => {
        const range = document.createRange(); range.selectNodeContents(th);
        return [th.innerText, new Set([...range.getClientRects()].map(r => Math.round(r.top))).size]; })""")
    assert lines == [[n, 1] for n in names]  # each name on one line
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_every_link_and_button_of_a_tables_pages_is_big_enough_to_tap(page, live_server):
    """44 px targets everywhere (the brief), the side pages' text links too ("← Back to the table" was 21 px)."""
    open_table(page, live_server, "troggu", ["Anna", "Ben", "Cla", "Dumeng"])
    troggu_normal(page, "Anna", 63)
    save(page)
    table = page.url.split("?")[0].split("#")[0]
    for path in [table, table + "/settle", table + "/share", table + "/setup", table + "/history", table + "/hands/1",
                 live_server + "/", live_server + "/tables/new/troggu"]:
        page.goto(path)
        small = page.evaluate("""() => [...document.querySelectorAll('main a, main button, main summary, main select')]
            .filter(e => e.offsetParent !== null && !e.closest('[aria-hidden=true]'))
            .map(e => [e.textContent.trim().slice(0, 40), e.getBoundingClientRect()])
            .filter(([, r]) => r.width < 44 || r.height < 44)
            .map(([t, r]) => `${t} ${Math.round(r.width)}x${Math.round(r.height)}`)""")
        assert small == [], (path, small)
