"""What the screen says is what was recorded (issue 24): a refused Save's messages don't outlive the hand they were
about, and tapped cards and the points shown never disagree. Chromium at phone size."""
import pytest
from playwright.sync_api import expect

from test_tables_browser import WAIT, choose, open_table, saved_and_settled

pytestmark = pytest.mark.browser

LANGUAGES = ("en", "de", "fr", "it", "rm")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_hand_refused_then_saved_leaves_no_message_on_the_next_form(page, live_server, lang):
    open_table(page, live_server, "troggu", ["Anna", "Ben", "Cla", "Dumeng"])
    page.goto(page.url + f"?lang={lang}")
    expect(page.locator("html")).to_have_attribute("lang", lang, timeout=WAIT)
    page.locator("#hand-form fieldset.people label.choice").first.click()  # the first player declares
    page.fill("input[name=points]", "130")  # over 114, all of Troggu's card points (docs/rules.md §5): refused
    page.locator("button.save").click()
    expect(page.locator("#hand-form .form-errors")).to_be_visible(timeout=WAIT)
    expect(page.locator("#hand-form .field-error")).to_be_visible()
    expect(page.locator("input[name=points]")).to_have_value("130")  # kept, to be corrected
    page.fill("input[name=points]", "60")
    saved_and_settled(page, lambda: page.locator("button.save").click())
    expect(page.locator("#said .saved")).to_be_visible(timeout=WAIT)
    expect(page.locator("#hands .hand-list > li")).to_have_count(1)
    # the next hand's blank form says nothing about the last one
    expect(page.locator("#hand-form .form-errors, #hand-form .field-error, #hand-form .engine-error")).to_have_count(0)
    expect(page.locator("#hand-form .has-error")).to_have_count(0)
    expect(page.locator("input[name=points]")).to_have_value("")


def tap(page, code):
    page.locator(f"label.card:has(input[value='{code}'])").click()


def test_cards_tapped_after_a_refused_save_are_counted_again(page, live_server):
    open_table(page, live_server, "french_tarot", ["Anna", "Ben", "Cla", "Dumeng"])
    page.get_by_text("Count the cards instead").click()
    page.locator("details.tap-cards > summary").click()
    for code in ("T21", "T1", "SW-K"):
        tap(page, code)
    # no taker chosen: refused, and Save counted the pile into the points on the way (count_aid.before_save):
    # T21 and T1 4.5 each, a king 4.5 (docs/rules.md §6): 13.5
    page.locator("button.save").click()
    expect(page.locator("#hand-form .form-errors")).to_be_visible(timeout=WAIT)
    expect(page.locator("input[name=points]")).to_have_value("13.5")
    tap(page, "CU-K")  # one more king: the old count is not this pile's any more
    expect(page.locator("input[name=points]")).not_to_have_value("13.5", timeout=WAIT)
    # the preview counts the pile as it is: 4 cards, 18 points (python -m scorekeeper count french_tarot T21 T1 SW-K CU-K)
    expect(page.locator("#preview .tally")).to_contain_text("18", timeout=WAIT)
    choose(page, "Taker", "Anna")
    saved_and_settled(page, lambda: page.locator("button.save").click())
    expect(page.locator(".hand .what").first).to_contain_text("18", timeout=WAIT)


def test_points_typed_over_a_count_are_the_players_and_stay(page, live_server):
    open_table(page, live_server, "french_tarot", ["Anna", "Ben", "Cla", "Dumeng"])
    page.get_by_text("Count the cards instead").click()
    page.locator("details.tap-cards > summary").click()
    for code in ("T21", "T1", "SW-K"):
        tap(page, code)
    page.locator("button.save").click()  # refused (no taker), the count filled 13.5
    expect(page.locator("input[name=points]")).to_have_value("13.5", timeout=WAIT)
    page.fill("input[name=points]", "51")  # the player knows better: typed points win over the cards
    tap(page, "CU-K")
    expect(page.locator("input[name=points]")).to_have_value("51")
