"""Entering a hand without surprises, at phone size (390x844) in Chromium (issue 13)."""
import pytest
from playwright.sync_api import expect

from test_tables_browser import WAIT, choose, group, open_table, saved_and_settled, totals

pytestmark = pytest.mark.browser


def test_enter_on_the_keypad_saves_the_hand(page, live_server):
    open_table(page, live_server, "troggu", ["Anna", "Ben", "Cla", "Dumeng"])
    choose(page, "Tappist or soloist", "Anna")
    expect(page.locator("input[name=points]")).to_be_focused(timeout=WAIT)  # the keypad opens by itself
    page.keyboard.type("63")
    page.keyboard.press("Enter")
    # Anna 63 ≥ 58 wins, opponents 51 ≥ 30: each of 3 opponents pays her 1 unit (docs/rules.md §5)
    expect(page.locator(".saved")).to_contain_text("Anna +3", timeout=WAIT)
    assert totals(page)["Anna"][0] == "+3"


def test_a_refused_save_shows_its_first_message_in_view(page, live_server):
    open_table(page, live_server, "french_tarot", ["Anna", "Ben", "Cla", "Dumeng"])
    choose(page, "Taker", "Anna")
    page.keyboard.type("50")  # no oudlers chosen
    page.locator("button.save").click()
    expect(page.locator(".form-errors")).to_contain_text("Oudlers of that side", timeout=WAIT)
    message = group(page, "Oudlers of that side").locator(".field-error")
    expect(message).to_be_in_viewport(timeout=WAIT)
    expect(page.locator("input[name=points]")).to_have_value("50")  # what was typed is kept


def test_the_five_player_partner_must_be_chosen(page, live_server):
    open_table(page, live_server, "french_tarot", ["Anna", "Ben", "Cla", "Dumeng", "Eva"])
    choose(page, "Taker", "Anna")
    page.keyboard.type("50")
    choose(page, "Oudlers of that side", "2")
    page.locator("button.save").click()
    expect(group(page, "Partner (called king)").locator(".field-error")).to_be_in_viewport(timeout=WAIT)
    choose(page, "Partner (called king)", "Alone")
    page.locator("button.save").click()
    # prise, 50 with 2 oudlers against 41: (25 + 9) × 1 = 34 from each of 4 defenders (docs/rules.md §6)
    expect(page.locator(".saved")).to_contain_text("Anna +136", timeout=WAIT)


def test_counting_in_the_table_shows_the_tally_and_save_counts(page, live_server):
    open_table(page, live_server, "troccas", ["Anna", "Ben", "Cla", "Zoë"])
    page.get_by_text("Count the cards instead").click()
    choose(page, "Kings", "2")
    page.fill("input[name=c_others]", "6")
    # 2 kings and 6 others: 2 groups of four, 16 − 2 × 3 = 10 (docs/rules.md §1)
    expect(page.locator("#preview .tally")).to_contain_text("Counted so far: 2 groups of 4: 16 − 6 = 10.", timeout=WAIT)
    page.locator("button.save").click()
    expect(page.locator(".hand .what").first).to_contain_text("10 points", timeout=WAIT)


def test_saved_is_said_with_a_working_undo(page, live_server):
    open_table(page, live_server, "troccas", ["Anna", "Ben", "Cla", "Zoë"])
    page.fill("input[name=points]", "40")
    page.locator("button.save").click()
    # Anna & Cla 40 points: 40 − 36 = +4 each (docs/rules.md §1)
    saved = page.locator(".saved")
    expect(saved).to_contain_text("Hand 1 saved: Anna +4, Cla +4", timeout=WAIT)
    saved.get_by_role("button", name="Undo").click()
    expect(page.locator(".hand-list > li")).to_have_count(0, timeout=WAIT)


def test_deleting_hand_2_of_5_keeps_every_dealer(page, live_server):
    open_table(page, live_server, "troccas", ["Anna", "Ben", "Cla", "Zoë"])  # Anna deals first
    for i in range(5):
        page.fill("input[name=points]", str(30 + i))
        saved_and_settled(page, lambda: page.locator("button.save").click())
        expect(page.locator(".hand-list > li")).to_have_count(i + 1, timeout=WAIT)
    dealt = page.locator(".hand-head .muted")
    # newest first: hands 5 … 1 were dealt by Anna, Zoë, Cla, Ben, Anna (the deal passes down the list)
    expect(dealt).to_have_text(["Anna dealt", "Zoë dealt", "Cla dealt", "Ben dealt", "Anna dealt"], timeout=WAIT)
    page.once("dialog", lambda d: d.accept())  # "Delete hand 2? Undo brings it back."
    page.locator("#hand-2").get_by_role("button", name="Delete").click()
    expect(page.locator(".hand-list > li[id^='hand-']")).to_have_count(4, timeout=WAIT)
    expect(dealt).to_have_text(["Anna dealt", "Zoë dealt", "Cla dealt", "Anna dealt"], timeout=WAIT)
    expect(page.locator("#hand-title")).to_contain_text("Ben deals")  # after hand 5's dealer, Anna


def test_group_by_group_in_the_table(page, live_server):
    open_table(page, live_server, "troccas", ["Anna", "Ben", "Cla", "Zoë"])
    page.get_by_text("Count the cards instead").click()
    page.locator("details.tap-cards > summary").click()
    for card in ("SW-K", "BA-K", "T5", "T6"):
        page.locator(f"label.card:has(input[value='{card}'])").click()
    page.get_by_role("button", name="Add as a group").click()
    # 5 + 5 + 1 + 1 = 12, less 3 for a group of four: 9 (docs/rules.md §1)
    expect(page.locator(".group-list li")).to_have_count(1, timeout=WAIT)
    expect(page.locator(".group-list")).to_be_in_viewport()  # the count stays open after the swap
    expect(page.locator(".group-list li strong")).to_have_text("9")
    page.screenshot(path="/tmp/table-groups.png")


def test_how_opens_the_hands_working(page, live_server):
    open_table(page, live_server, "troccas", ["Anna", "Ben", "Cla", "Zoë"])
    page.fill("input[name=points]", "40")
    # tap Save once the preview has settled the layout (a tap while it grows lands wherever it moved the button)
    expect(page.locator("#preview .sentence")).to_be_visible(timeout=WAIT)
    saved_and_settled(page, lambda: page.locator("button.save").click())
    how = page.locator("#hand-1 details.working")
    expect(how).to_be_visible(timeout=WAIT)
    how.locator("summary").click()
    # Anna & Cla 40 points: 40 − 36 = +4 each (docs/rules.md §1), fetched when opened
    expect(how).to_contain_text("Anna and Cla: 40 − 36 = +4 each", timeout=WAIT)


def test_after_a_save_the_form_is_ready_for_the_next_hand(page, live_server):
    open_table(page, live_server, "troccas", ["Anna", "Ben", "Cla", "Zoë"])
    token = page.locator("#hand-form input[name=token]").input_value()
    page.fill("input[name=points]", "40")
    saved_and_settled(page, lambda: page.locator("button.save").click())
    expect(page.locator(".saved")).to_contain_text("Hand 1 saved", timeout=WAIT)
    # the phone reset its own form (the answer didn't resend it): empty points, no preview, and no token: the phone
    # makes the next hand's when it is sent (static/page.js), not the one hand 1 was saved with
    expect(page.locator("input[name=points]")).to_have_value("")
    expect(page.locator("#preview")).to_have_text("")
    assert token and page.locator("#hand-form input[name=token]").input_value() == ""
    expect(page.locator("#hand-title")).to_contain_text("Hand 2")
    page.fill("input[name=points]", "30")  # and the next hand saves as hand 2, not as hand 1 again
    page.locator("button.save").click()
    expect(page.locator(".saved")).to_contain_text("Hand 2 saved", timeout=WAIT)
    expect(page.locator("#hands .hand-list > li")).to_have_count(2)
    assert page.locator("#hand-form input[name=token]").input_value() == ""  # hand 2's went with it


def test_the_hand_list_stays_newest_first_when_answers_cross(page, live_server):
    """A poll answered before this phone's Save but arriving after it puts an older row on top (and a copy of one
    already shown): after the swap the list is put back newest first, each hand once."""
    open_table(page, live_server, "troccas", ["Anna", "Ben", "Cla", "Zoë"])
    for points in ("40", "30"):
        page.fill("input[name=points]", points)
        saved_and_settled(page, lambda: page.locator("button.save").click())
        expect(page.locator("#hands .hand-list > li")).to_have_count(1 if points == "40" else 2, timeout=WAIT)
    page.evaluate("""() => {
      const list = document.querySelector('#hands .hand-list');
      list.prepend(document.getElementById('hand-1').cloneNode(true));  // the late answer's copy, on top
      document.body.dispatchEvent(new CustomEvent('htmx:afterSettle', {detail: {elt: document.body}, bubbles: true}));
    }""")
    assert page.eval_on_selector_all("#hands .hand-list > li", "rows => rows.map(r => r.id)") == ["hand-2", "hand-1"]


def test_a_phone_without_scripts_shows_the_cards_counts_them_and_saves(live_server, browser, browser_context_args):
    """The table page fetches the counting aid's cards with a script; without one, a button brings them."""
    context = browser.new_context(**browser_context_args, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server}/tables/new/troccas")
    for i, name in enumerate(["Anna", "Ben", "Cla", "Zoë"]):
        page.fill(f"#players-{i}", name)
    page.get_by_role("button", name="Open the table").click()
    page.locator("fieldset", has=page.locator("legend", has_text="Anna plays with")).get_by_text("Cla", exact=True).click()
    page.get_by_text("Count the cards instead").click()
    page.get_by_role("button", name="Show the cards to tap").click()
    page.locator("#count-aid").get_by_text("Anna's team").click()
    page.locator("details.tap-cards > summary").click()
    for card in ("SW-K", "CU-Q", "BA-J", "T5"):
        page.locator("label.card", has=page.locator(f"input[value='{card}']")).click()
    page.get_by_role("button", name="Count these cards").click()
    # SW-K, CU-Q, BA-J, T5: one group of four, 5 + 4 + 2 + 1 = 12 - 3 = 9 (docs/rules.md §1)
    expect(page.locator("input[name=points]")).to_have_value("9")
    page.locator("button.save").click()
    expect(page.locator("#hands .hand-list > li")).to_have_count(1)
    expect(page.locator("#hands .hand-list > li").first).to_contain_text("9 points")
    context.close()


def previews(page) -> list:
    """The preview requests this page sends, as they go."""
    sent = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" and r.url.endswith("/preview") else None)
    return sent


def test_a_hand_typed_in_asks_for_its_preview_once(page, live_server):
    """Issue 29: the preview is asked when the hand is complete, not on every field (it was 4 requests a hand)."""
    open_table(page, live_server, "troggu", ["Anna", "Ben", "Cla", "Dumeng"])
    sent = previews(page)
    choose(page, "Contract", "Normal")
    choose(page, "Tappist or soloist", "Anna")
    expect(page.locator("input[name=points]")).to_be_focused(timeout=WAIT)
    page.keyboard.type("62")
    # Anna 62 ≥ 58 wins, opponents 52 ≥ 30 single: each of the 3 opponents pays 1 unit, 10 Rappen (docs/rules.md §5)
    expect(page.locator("#preview .sentence")).to_have_text("Anna wins: each of the 3 opponents pays 10 Rappen.",
                                                            timeout=WAIT)
    page.locator("input[name=points]").blur()  # the typed number's change: the same hand, asked already
    choose(page, "Points of", "Opponents")  # a real change: asked again. Anna's side 114 − 62 = 52 < 58 loses
    expect(page.locator("#preview .sentence")).to_have_text("Anna loses: pays each of the 3 others 10 Rappen.",
                                                            timeout=WAIT)
    assert len(sent) == 2
    saved_and_settled(page, lambda: page.locator("button.save").click())
    expect(page.locator("#preview")).to_have_text("", timeout=WAIT)
    choose(page, "Tappist or soloist", "Ben")  # the next hand: nothing asked until its points are typed
    page.keyboard.type("70")
    expect(page.locator("#preview .sentence")).to_contain_text("Ben wins", timeout=WAIT)
    assert len(sent) == 3


def test_a_french_tarot_hand_asks_once_and_a_counted_pile_as_it_grows(page, live_server):
    open_table(page, live_server, "french_tarot", ["Anna", "Ben", "Cla", "Dumeng"])
    sent = previews(page)
    choose(page, "Taker", "Anna")
    choose(page, "Oudlers of that side", "2")
    page.locator("input[name=points]").press_sequentially("45")  # 45 ≥ 41 with 2 oudlers wins (RULES.md §3)
    expect(page.locator("#preview .sentence")).to_contain_text("Anna", timeout=WAIT)
    assert len(sent) == 1
    page.locator("input[name=points]").fill("")
    page.get_by_text("Count the cards instead").click()
    page.locator("details.tap-cards > summary").click()
    for card in ("T21", "T1", "SW-K"):  # each tap counts the pile so far (the server counts the cards)
        page.locator(f"label.card:has(input[value='{card}'])").click()
    # 4.5 + 4.5 + 4.5 = 13.5 (python -m scorekeeper count french_tarot T21 T1 SW-K; RULES.md §3)
    expect(page.locator("#preview .tally")).to_contain_text("13.5", timeout=WAIT)
    assert len(sent) >= 2


def test_the_cards_to_tap_come_when_the_count_is_opened(page, live_server):
    """Issue 29: the aid's cards (a few hundred elements) are not drawn with the page; opening the count draws them."""
    open_table(page, live_server, "troccas", ["Anna", "Ben", "Cla", "Zoë"])
    page.wait_for_load_state("load")
    assert page.locator("#count-aid input[name=card]").count() == 0
    expect(page.locator("#count-aid .aid-wait")).to_be_attached()
    page.get_by_text("Count the cards instead").click()
    # Troccas is played with the whole 78-card deck (CARDS.md: 78 cards for Troccas; docs/rules.md §1), every card a tile to tap
    expect(page.locator("#count-aid input[name=card]")).to_have_count(78, timeout=WAIT)


def test_a_second_pile_counted_keeps_the_first_piles_points(page, live_server):
    """Issue 41, item 4: counting Beat's pile after Anna's no longer empties the points Anna's count filled."""
    open_table(page, live_server, "scarto", ["Anna", "Beat", "Carla"])
    page.get_by_text("Count the cards instead").click()
    page.locator("details.tap-cards > summary").click()
    choose(page, "Whose cards", "Anna")
    for card in ("SW-K", "CU-Q", "T5"):
        page.locator(f"label.card:has(input[value='{card}'])").click()
    page.get_by_role("button", name="Count these cards").click()
    # SW-K CU-Q T5: one group of three, 5 + 4 + 1 − 2 = 8 (docs/rules.md §2)
    expect(page.locator("input[name=pp0]")).to_have_value("8", timeout=WAIT)
    choose(page, "Whose cards", "Beat")
    for card in ("SW-K", "CU-Q", "T5", "BA-K", "T6", "T7"):  # Anna's cards off, Beat's on
        page.locator(f"label.card:has(input[value='{card}'])").click()
    expect(page.locator("input[name=pp0]")).to_have_value("8")  # not emptied by Beat's taps
    page.get_by_role("button", name="Count these cards").click()
    # BA-K T6 T7: 5 + 1 + 1 − 2 = 5
    expect(page.locator("input[name=pp1]")).to_have_value("5", timeout=WAIT)
    expect(page.locator("input[name=pp0]")).to_have_value("8")
