"""Readable in both schemes (issue 28): on the main pages, light and dark, every piece of visible text keeps WCAG AA
contrast with what it is drawn on (4.5:1; 3:1 for large text: 24 px, or 18.66 px bold), measured in Chromium from the
computed colours. The switch in the header is remembered by the phone, and the browser's bar follows it."""
import pytest
from playwright.sync_api import expect

from test_tables_browser import WAIT, choose, open_table, save

pytestmark = pytest.mark.browser

# For each element holding text: its colour, the first opaque background behind it, its size and weight; the ratio
# is WCAG 2's (relative luminance of sRGB).
MEASURE = """() => {
  const lum = ([r, g, b]) => { const c = [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 :
    Math.pow((v + 0.055) / 1.055, 2.4); }); return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]; };
  const rgb = s => (s.match(/[\\d.]+/g) || []).map(Number);
  const background = el => { for (; el; el = el.parentElement) { const c = rgb(getComputedStyle(el).backgroundColor);
    if (c.length === 3 || c[3] > 0.5) { return c.slice(0, 3); } }
    return rgb(getComputedStyle(document.documentElement).backgroundColor).slice(0, 3); };
  const bad = [];
  for (const el of document.querySelectorAll("body *")) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length) { continue; }
    const st = getComputedStyle(el);
    if (st.visibility === "hidden" || +st.opacity === 0 || el.closest("[hidden], .visually-hidden, svg")) { continue; }
    const fg = rgb(st.color).slice(0, 3), bg = background(el);
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05), size = parseFloat(st.fontSize), bold = +st.fontWeight >= 700;
    const large = size >= 24 || (bold && size >= 18.66);
    if (ratio < (large ? 3 : 4.5)) { bad.push(`${el.tagName}.${el.className}: "${el.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)}`); }
  }
  return bad;
}"""


def pages(page, base):
    """A table with hands, a warning and its settle-up, and the home page listing it."""
    open_table(page, base, "troccas", ["Anna", "Ben", "Cla", "Zoë"], stake="0.10")
    for points in (40, 30):
        choose(page, "Anna plays with", "Cla")
        page.fill("input[name=points]", str(points))
        save(page)
    table = page.url
    return [base + "/", table, table + "/settle", base + "/rules/troccas", base + "/count/troccas"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_text_keeps_aa_contrast_in_both_schemes(page, live_server, scheme):
    urls = pages(page, live_server)
    page.emulate_media(color_scheme=scheme)
    failures = {}
    for url in urls:
        page.goto(url)
        expect(page.locator("main")).to_be_visible(timeout=WAIT)
        dark = page.evaluate("getComputedStyle(document.documentElement).backgroundColor") == "rgb(18, 20, 23)"
        assert dark == (scheme == "dark"), url  # the scheme took
        bad = page.evaluate(MEASURE)
        if bad:
            failures[url] = bad
        page.screenshot(path=f"/tmp/contrast-{scheme}-{url.rstrip('/').rsplit('/', 1)[-1] or 'home'}.png", full_page=True)
    assert not failures, failures


def test_the_switch_is_remembered_and_the_bar_follows_it(page, live_server):
    page.emulate_media(color_scheme="light")
    page.goto(live_server + "/")
    switch = page.locator("#theme")
    expect(switch).to_have_attribute("aria-pressed", "false", timeout=WAIT)
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("getComputedStyle(document.documentElement).backgroundColor") == "rgb(18, 20, 23)"
    assert page.locator("meta[name=theme-color]").first.get_attribute("content") == "#121417"
    page.goto(live_server + "/rules")  # another page: still dark, though the phone says light
    assert page.evaluate("getComputedStyle(document.documentElement).backgroundColor") == "rgb(18, 20, 23)"
    expect(page.locator("#theme")).to_have_attribute("aria-pressed", "true", timeout=WAIT)
