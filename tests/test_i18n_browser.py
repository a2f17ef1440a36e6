"""German at phone size (390x844): longer words must not push the page sideways."""
import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
SHOTS = "/tmp"


def no_sideways_scroll(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"page is {width}px wide"


def test_german_counting_page_fits_the_phone(page, live_server):
    page.goto(f"{live_server}/count/troggu?lang=de")
    page.locator("label", has_text="Munt").first.click()
    page.locator("label", has_text="Bättler").first.click()
    expect(page.locator("#result")).to_contain_text("2 Karten zusammengezählt: 10 Punkte")  # Munt 5 + Bättler 5
    no_sideways_scroll(page)
    page.screenshot(path=f"{SHOTS}/i18n-de-count.png", full_page=True)
    page.goto(f"{live_server}/count/troggu/classes")  # the cookie keeps German
    expect(page.locator("html")).to_have_attribute("lang", "de")
    no_sideways_scroll(page)
    page.screenshot(path=f"{SHOTS}/i18n-de-classes.png", full_page=True)


def test_german_table_page_fits_the_phone(page, live_server):
    page.goto(f"{live_server}/tables/new/troggu?lang=de")
    for i, name in enumerate(["Anna", "Beat", "Carla", "Dario", "Elsa"]):
        if not page.locator(f"#players-{i}").is_visible():
            page.get_by_text("Mehr Spieler").click()
        page.fill(f"#players-{i}", name)
    page.get_by_role("button", name="Tisch eröffnen").click()
    expect(page.locator("#hand-form")).to_be_visible()
    no_sideways_scroll(page)
    page.screenshot(path=f"{SHOTS}/i18n-de-table.png", full_page=True)
    table = page.url.split("#")[0]
    for sub in ("settle", "share"):
        page.goto(f"{table}/{sub}")
        expect(page.locator("html")).to_have_attribute("lang", "de")
        no_sideways_scroll(page)
        page.screenshot(path=f"{SHOTS}/i18n-de-table-{sub}.png", full_page=True)


@pytest.mark.parametrize("path", ["/count/troccas/groups", "/count/french_tarot", "/rules/troggu",
                                  "/rules/french_tarot", "/tables/new/french_tarot", "/"])
def test_other_german_pages_fit_the_phone(page, live_server, path):
    page.goto(f"{live_server}{path}?lang=de")
    no_sideways_scroll(page)
    page.screenshot(path=f"{SHOTS}/i18n-de{path.replace('/', '-')}.png", full_page=True)


def test_german_french_tarot_hand_form_fits_the_phone(page, live_server):
    page.goto(f"{live_server}/tables/new/french_tarot?lang=de")
    for i, name in enumerate(["Anna", "Beat", "Carla", "Dario", "Elsa"]):
        if not page.locator(f"#players-{i}").is_visible():
            page.get_by_text("Mehr Spieler").click()
        page.fill(f"#players-{i}", name)
    page.get_by_role("button", name="Tisch eröffnen").click()
    expect(page.locator("#hand-form")).to_be_visible()
    no_sideways_scroll(page)
    page.screenshot(path=f"{SHOTS}/i18n-de-table-french.png", full_page=True)
