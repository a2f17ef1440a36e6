"""Issue 39: an evening of Königrufen in German at phone size (390x844): a Rufer, a Dreier with a silent Trull, a
Piccolo with a kontra, a Trischaken, and a five-player hand after a fifth player joins; the totals (the sheet's
Schriftpunkte), the money and the settle-up checked against figures worked out by hand (docs/rules.md §11)."""
import pytest
from playwright.sync_api import expect

from test_tables_browser import WAIT, in_use, saved_and_settled

pytestmark = pytest.mark.browser


def tap(page, name, value):
    box = page.locator(f"label:has(input[name={name}][value='{value}'])").first
    folded = page.locator(f"details:has(input[name={name}])")  # premiums and kontras: folded away
    if folded.count() and not folded.first.evaluate("d => d.open"):
        folded.first.locator(":scope > summary").click()
    box.click()


def save(page):
    expect(page.locator("#preview .sentence")).to_be_visible(timeout=WAIT)  # read the result, then tap
    saved_and_settled(page, lambda: page.locator("button.save").click())


def sheet(page):
    """{player: (Schriftpunkte, money)} from the scoreboard, the dealer's mark left out."""
    out = {}
    for row in page.locator("#totals tbody tr").all():
        name = row.locator("th").evaluate("th => th.firstChild.textContent.trim()")
        cells = row.locator("td").all_inner_texts()
        out[name] = (cells[0], cells[1].replace("\xa0", " "))
    return out


def test_an_evening_of_koenigrufen_in_german(page, live_server):
    page.goto(f"{live_server}/tables/new/koenigrufen?lang=de")
    expect(page.locator("text=Zu dritt? Trag den Strohmann als Vierten ein")).to_be_visible(timeout=WAIT)
    for i, name in enumerate(["Anna", "Bernd", "Clara", "Dieter"]):
        page.fill(f"#players-{i}", name)
    page.fill("input[name=stake]", "0,10")  # 10 cents a point, the cups' rate (§11.4), typed the German way
    page.locator("label:has(input[name=currency][value=EUR])").click()
    page.locator("form.table-new button.big").last.click()
    expect(page.locator("#hand-form")).to_be_visible(timeout=WAIT)
    in_use(page)
    table = page.url
    # 1. Rufer, Anna with Clara (the called king), won: 1 each, 2 against 2 (§11.1, §11.4)
    tap(page, "contract", "rufer")
    tap(page, "declarer", "Anna")
    tap(page, "partner", "Clara")
    tap(page, "outcome", "won")
    save(page)
    # 2. Dreier, Bernd alone, won, with a silent Trull: 4 + 1 = 5 from each opponent, Bernd 3 × 5 = +15
    tap(page, "contract", "dreier")
    tap(page, "declarer", "Bernd")
    tap(page, "outcome", "won")
    kontra = page.locator("fieldset.kontra:has(input[name=pk_trull])")
    tap(page, "pr_trull", "da")
    expect(kontra).to_be_visible()  # an announced premium may be kontra'd (§11.3) ...
    tap(page, "pr_trull", "d")
    expect(kontra).to_be_hidden()  # ... a silent one not: its kontra isn't asked
    page.locator("details:has(input[name=pr_trull])").first.screenshot(path="/tmp/koenigrufen-premiums.png")
    save(page)
    # 3. Piccolo, Clara, made, and Dieter gave a kontra: the sheet 2 from each (Clara +6), the money × 2 from Dieter
    #    alone (§11.3: in negative games each opponent kontras alone): Anna −20 c, Bernd −20 c, Dieter −40 c, Clara +80 c
    tap(page, "contract", "piccolo")
    tap(page, "declarer", "Clara")
    tap(page, "outcome", "won")
    tap(page, "game_kontra", "2")
    tap(page, "kontra_by", "Dieter")
    expect(page.locator("#preview")).to_contain_text("Kontra", timeout=WAIT)
    save(page)
    # 4. Trischaken, Dieter the Vorhand: Anna 20/0, Bernd 15/1, Clara 25/2, Dieter 9/0 (60 + 46 + 77 + 27 = 210 thirds);
    #    Clara has the most, under 35/2 and not the Vorhand: she pays 1 to each (§11.5)
    tap(page, "contract", "trischaken")
    tap(page, "declarer", "Dieter")
    for i, (points, blatt) in enumerate([(20, 0), (15, 1), (25, 2), (9, 0)]):
        page.fill(f"input[name=tp{i}]", str(points))
        if blatt:
            tap(page, f"tb{i}", str(blatt))
    save(page)
    # Eva joins: five at the table, the dealer sits each hand out (§11 Players)
    page.goto(table + "/setup")
    page.fill("input[name=join]", "Eva")
    page.locator("button.big").click()
    expect(page.locator("#hand-form")).to_be_visible(timeout=WAIT)
    in_use(page)
    # 5. Eva deals and sits out; Anna's Dreier lost: 4 to each of the three who played against her, Anna −12, Eva 0
    tap(page, "contract", "dreier")
    tap(page, "declarer", "Anna")
    tap(page, "dealer", "Eva")
    tap(page, "outcome", "lost")
    save(page)
    expect(page.locator(".hand-list > li[id^='hand-']")).to_have_count(5, timeout=WAIT)
    # The sheet: Anna +1 −5 −2 +1 −12 = −17; Bernd −1 +15 −2 +1 +4 = +17; Clara +1 −5 +6 −3 +4 = +3;
    # Dieter −1 −5 −2 +1 +4 = −3; Eva 0 (sum 0). The money, in cents at 10 a point, hand 3 with Dieter's kontra:
    # Anna 10 − 50 − 20 + 10 − 120 = −170; Bernd −10 + 150 − 20 + 10 + 40 = +170; Clara 10 − 50 + 80 − 30 + 40 = +50;
    # Dieter −10 − 50 − 40 + 10 + 40 = −50; Eva 0
    assert sheet(page) == {"Anna": ("−17", "−1,70 €"), "Bernd": ("+17", "+1,70 €"), "Clara": ("+3", "+0,50 €"),
                           "Dieter": ("−3", "−0,50 €"), "Eva": ("0", "0")}, sheet(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path="/tmp/koenigrufen-table.png", full_page=True)
    # Settle up: Anna pays Bernd 1,70 €, Dieter pays Clara 50 cents
    page.goto(table + "/settle")
    lines = [t.replace("\xa0", " ").replace("\u2068", "").replace("\u2069", "")
             for t in page.locator(".transfers li").all_inner_texts()]
    assert any("Anna zahlt Bernd 1,70 €" in t for t in lines), lines
    assert any("Dieter zahlt Clara 50 Cent" in t for t in lines), lines  # under a euro: in cents (l10n.money)
    assert len([t for t in lines if "zahlt" in t]) == 2
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path="/tmp/koenigrufen-settle.png", full_page=True)
