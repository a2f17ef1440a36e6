"""Editing offline (issue 24, item 3), in Chromium at 390x844: a hand is edited offline from what this phone knows now
(the table page it has, and its own waiting changes), never from an old copy of its edit page; while changes wait,
the totals and the next dealer say so; a refused edit says the server's reason in the list itself."""
import pytest
from playwright.sync_api import expect

from test_offline_browser import WAIT, kept_table, phones, points_on_server, save_offline, troccas_hand, until  # noqa: F401

pytestmark = pytest.mark.browser
SHOTS = "/tmp"


def edit_offline(page, hand):
    """Tap Edit on a hand of the table page: offline, its form opens on this page, filled from what the page knows."""
    page.locator(f"#hand-{hand}").get_by_role("link", name="Edit").click()
    expect(page.locator("#hand-form h2")).to_have_text(f"Edit hand {hand}", timeout=WAIT)


def save_changes(page, waiting):
    # the preview tried and said so before the tap: its line appearing above Save can't move Save under the finger
    expect(page.locator("#preview")).to_contain_text("No result offline", timeout=WAIT)
    page.get_by_role("button", name="Save changes").click()
    expect(page.locator("#waiting li")).to_have_count(waiting, timeout=WAIT)


def test_a_hand_never_opened_is_edited_offline_from_the_table_page(kept_table):  # noqa: F811
    anna, table = kept_table(40, (30, "Ben"))  # the table page is kept; no edit page was ever opened
    anna.context.set_offline(True)
    anna.reload()  # the table page from the phone
    expect(anna.locator("#net")).to_contain_text("Offline", timeout=WAIT)
    edit_offline(anna, 1)
    expect(anna.locator("input[name=points]")).to_have_value("40")
    expect(anna.locator("#hand-form input[type=radio][value='Cla']:checked")).to_have_count(1)
    anna.screenshot(path=f"{SHOTS}/offline-edit-form.png")
    anna.fill("input[name=points]", "45")
    save_changes(anna, 1)
    expect(anna.locator("#waiting li")).to_contain_text("Edit hand 1")
    expect(anna.locator("#waiting li")).to_contain_text("45")
    # the form is the next hand's again, as it was
    expect(anna.locator("#hand-form h2")).to_contain_text("Hand 3")
    expect(anna.get_by_role("button", name="Save hand")).to_be_visible()
    expect(anna.locator("input[name=points]")).to_have_value("")
    # the waiting edit's own Edit brings it back into the form; Cancel leaves it waiting as it was
    anna.locator("#waiting li").get_by_role("button", name="Edit").click()
    expect(anna.locator("#hand-form h2")).to_have_text("Edit hand 1", timeout=WAIT)
    expect(anna.locator("input[name=points]")).to_have_value("45")
    anna.get_by_role("button", name="Cancel").click()
    expect(anna.locator("#waiting li")).to_contain_text("Waiting to send", timeout=WAIT)
    expect(anna.locator("#hand-form h2")).to_contain_text("Hand 3")
    anna.context.set_offline(False)
    expect(anna.locator("#waiting li")).to_have_count(0, timeout=WAIT)
    assert points_on_server(anna, table) == [45, 30]


def test_a_hand_opened_before_a_later_correction_is_edited_from_the_correction(phones, kept_table):  # noqa: F811
    anna, table = kept_table(24)
    ben = phones()
    anna.goto(table + "/hands/1")  # opened once, when it said 24
    expect(anna.locator("input[name=points]")).to_have_value("24", timeout=WAIT)
    anna.goto(table)
    ben.goto(table + "/hands/1")  # another phone corrects it to 40
    ben.fill("input[name=points]", "40")
    ben.get_by_role("button", name="Save changes").click()
    expect(ben.locator("#said")).to_contain_text("Hand 1 changed", timeout=WAIT)
    expect(anna.locator("#hand-1 .what")).to_contain_text("40", timeout=WAIT)  # anna's board follows
    anna.context.set_offline(True)
    edit_offline(anna, 1)
    expect(anna.locator("input[name=points]")).to_have_value("40")  # not the 24 of the copy opened before
    anna.fill("input[name=points]", "45")
    save_changes(anna, 1)
    # opened again, the hand starts from this phone's own waiting change, which Save replaces in its place
    edit_offline(anna, 1)
    expect(anna.locator("input[name=points]")).to_have_value("45")
    expect(anna.locator("#waiting li")).to_contain_text("Being edited in the form above.")
    anna.fill("input[name=points]", "46")
    save_changes(anna, 1)
    expect(anna.locator("#waiting li")).to_contain_text("46")
    # the edit page's address, opened offline (a bookmark, Back): the same, from the table page the phone has now
    anna.goto(table + "/hands/1")
    expect(anna.locator("#hand-form h2")).to_have_text("Edit hand 1", timeout=WAIT)
    expect(anna.locator("input[name=points]")).to_have_value("46")
    anna.get_by_role("button", name="Cancel").click()
    expect(anna.locator("#hand-form h2")).to_contain_text("Hand 2")
    expect(anna.locator("#waiting li")).to_contain_text("Waiting to send")
    anna.context.set_offline(False)
    expect(anna.locator("#waiting li")).to_have_count(0, timeout=WAIT)
    assert points_on_server(anna, table) == [46]


def test_an_offline_edit_refused_later_says_why_in_the_list(phones, kept_table):  # noqa: F811
    anna, table = kept_table(40)
    ben = phones()
    anna.context.set_offline(True)
    edit_offline(anna, 1)  # never opened
    anna.fill("input[name=points]", "45")
    save_changes(anna, 1)
    ben.goto(table + "/hands/1")  # meanwhile another phone corrects it
    ben.fill("input[name=points]", "33")
    ben.get_by_role("button", name="Save changes").click()
    expect(ben.locator("#said")).to_contain_text("Hand 1 changed", timeout=WAIT)
    anna.context.set_offline(False)
    refused = anna.locator("#waiting li").first
    # the server's own sentence in the list, before any "Fix it": changed meanwhile, and what it is now
    expect(refused).to_contain_text("Refused: This hand was changed meanwhile (now:", timeout=WAIT)
    expect(refused).to_contain_text("33")
    expect(refused).not_to_contain_text("status")
    anna.locator("#waiting").screenshot(path=f"{SHOTS}/offline-edit-refused.png")
    assert points_on_server(anna, table) == [33]


def test_while_hands_wait_the_next_dealer_counts_them_and_the_totals_say_they_do_not(kept_table):  # noqa: F811
    anna, table = kept_table(40)  # Anna, Ben, Cla, Zoë; Anna deals first
    expect(anna.locator("#hand-title")).to_contain_text("Hand 2 Ben deals")
    anna.context.set_offline(True)
    troccas_hand(anna, 30)
    save_offline(anna)
    troccas_hand(anna, 50)
    save_offline(anna)
    # two hands wait: the next is hand 4, Zoë's deal, and the board says its totals are without them
    expect(anna.locator("#hand-title")).to_contain_text("Hand 4", timeout=WAIT)
    expect(anna.locator("#hand-title")).to_contain_text("Zoë deals")
    expect(anna.locator("#totals tr.dealer")).to_contain_text("Zoë")
    note = anna.locator("#totals .waiting-note")
    expect(note).to_have_text("These totals are without the 2 changes waiting to send: they count once sent.")
    anna.locator("#totals").screenshot(path=f"{SHOTS}/offline-waiting-totals.png")
    anna.screenshot(path=f"{SHOTS}/offline-waiting-top.png")
    # a delete waiting may move the deal (the last hand's dealer deals again): the dealer is not guessed
    anna.once("dialog", lambda d: d.accept())
    anna.locator("#hand-1").get_by_role("button", name="Delete").click()
    expect(anna.locator("#hand-title")).to_contain_text("who deals is known once the waiting changes are sent",
                                                        timeout=WAIT)
    expect(anna.locator("#totals tr.dealer")).to_have_count(0)
    expect(note).to_have_text("These totals are without the 3 changes waiting to send: they count once sent.")
    anna.context.set_offline(False)
    expect(anna.locator("#waiting li")).to_have_count(0, timeout=WAIT)
    expect(anna.locator("#hands .hand-list > li")).to_have_count(2, timeout=WAIT)
    expect(note).to_be_hidden()
    # hands 2 and 3 were dealt by Ben and Cla: the deal goes on to Zoë
    expect(anna.locator("#hand-title")).to_contain_text("Hand 3 Zoë deals", timeout=WAIT)
    expect(anna.locator("#totals tr.dealer")).to_contain_text("Zoë")
    assert points_on_server(anna, table) == [30, 50]


def test_the_page_kept_follows_a_correction_seen_so_the_edit_pages_address_opens_it_offline(phones, kept_table):  # noqa: F811
    anna, table = kept_table(24)
    ben = phones()
    anna.goto(table + "/hands/1")  # opened once, when it said 24
    expect(anna.locator("input[name=points]")).to_have_value("24", timeout=WAIT)
    anna.goto(table)
    ben.goto(table + "/hands/1")
    ben.fill("input[name=points]", "40")
    ben.get_by_role("button", name="Save changes").click()
    expect(ben.locator("#said")).to_contain_text("Hand 1 changed", timeout=WAIT)
    expect(anna.locator("#hand-1 .what")).to_contain_text("40", timeout=WAIT)  # anna's board follows,
    until(anna, """async (u) => { const r = await (await caches.open('sk-pages')).match(u);
        return !!r && (await r.text()).includes('Anna &amp; Cla: 40 points'); }""", table)  # and so does her copy
    anna.context.set_offline(True)
    anna.goto(table + "/hands/1")  # a bookmark, Back: offline, the page as the phone last saw it
    expect(anna.locator("#hand-form h2")).to_have_text("Edit hand 1", timeout=WAIT)
    expect(anna.locator("input[name=points]")).to_have_value("40")
    expect(anna).to_have_url(table)
    # a hand the page's form can't hold (played with another setup) says so, and the form stays the next hand's
    anna.get_by_role("button", name="Cancel").click()
    anna.evaluate("""() => { const a = document.querySelector('#hand-1 a[data-edit-form]'), d = JSON.parse(a.dataset.editForm);
        d.setup = 'another'; a.dataset.editForm = JSON.stringify(d); }""")
    anna.locator("#hand-1").get_by_role("link", name="Edit").click()
    expect(anna.locator("#net")).to_contain_text("This phone cannot edit hand 1 without the network", timeout=WAIT)
    expect(anna.locator("#hand-form h2")).to_contain_text("Hand 2")
    expect(anna.locator("#waiting li")).to_have_count(0)
