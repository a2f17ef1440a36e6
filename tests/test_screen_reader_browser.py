"""What a screen reader says for the counting controls (issue 28): every button, card, count field and choice on the
counting pages and in a table's counting aid has a name read aloud, and never a bare symbol ("−", "+", "✕"). The
names are Chromium's own, from its accessibility tree (the DevTools protocol), as a screen reader gets them."""
import pytest
from playwright.sync_api import expect

from test_tables_browser import WAIT, open_table

pytestmark = pytest.mark.browser

CONTROLS = {"button", "checkbox", "radio", "spinbutton", "textbox", "combobox", "slider", "switch"}
SYMBOLS = set("−+✕×←→◐-")


def unnamed(page) -> list[tuple]:
    """The controls of the page as Chromium's accessibility tree has them whose name says nothing."""
    cdp = page.context.new_cdp_session(page)
    nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    cdp.detach()
    bad = []
    for n in nodes:
        role = n.get("role", {}).get("value")
        if role not in CONTROLS or n.get("ignored"):
            continue
        name = (n.get("name") or {}).get("value", "").strip()
        if not name or all(ch in SYMBOLS or ch.isspace() for ch in name):
            bad.append((role, name))
    return bad


@pytest.mark.parametrize("path", ["/count/troggu", "/count/troccas/classes", "/count/scarto/groups",
                                  "/count/french_tarot", "/count/sicilian_tarocchi/classes"])
def test_every_counting_control_has_a_name_a_screen_reader_reads(page, live_server, path):
    page.goto(live_server + path)
    expect(page.locator("main")).to_be_visible(timeout=WAIT)
    controls = page.locator("main button, main input:not([type=hidden]), main select")
    assert controls.count() > 5  # the page has its controls (cards, steppers, groups)
    if path.endswith("/groups"):  # a group made: its Change and Remove buttons
        page.locator("input[name=card]").first.check(force=True)
        page.locator("button[name=op][value=add]").click()
        expect(page.locator("button[name=op][value='remove:0']")).to_be_attached(timeout=WAIT)
        # each group's buttons say which group (the visible word "Change" is in the name, as WCAG 2.5.3 asks)
        expect(page.get_by_role("button", name="Change group 1", exact=True)).to_be_visible()
        expect(page.get_by_role("button", name="Remove group 1", exact=True)).to_be_visible()
    assert unnamed(page) == []


def test_the_tables_counting_aid_reads_out_every_card_and_button(page, live_server):
    open_table(page, live_server, "troccas", ["Anna", "Ben", "Cla", "Zoë"])
    page.locator("#count-aid summary, details.count-aid > summary").first.click()
    expect(page.locator("#count-aid input[name=card]").first).to_be_attached(timeout=WAIT)
    assert unnamed(page) == []
