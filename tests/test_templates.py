"""The templates' own whitespace (web/templating.py Lines): each run holding a line break is sent as that line break,
which a browser shows as the run it replaces; what a template is given to write is never touched."""
import re
from pathlib import Path

from scorekeeper.paths import resource

TEMPLATES = Path(resource("templates"))


def test_the_templates_indentation_is_not_sent_and_their_values_are_kept_as_given(app):
    with app.test_request_context():
        template = app.jinja_env.from_string("<ul>\n    <li>{{ a }}</li>  \n\n    <li>b  c</li>\n</ul>")
        assert template.render(a="x\n    y") == "<ul>\n<li>x\n    y</li>\n<li>b  c</li>\n</ul>"


def test_no_template_holds_text_whose_whitespace_a_browser_keeps():
    """Lines may only change whitespace a browser collapses: no template writes text inside a <pre> or a <textarea>
    (only a value given to it), nor an attribute value over two lines of its own text."""
    checked = 0
    for path in TEMPLATES.rglob("*.html"):
        text = re.sub(r"\{#.*?#\}", "", path.read_text(encoding="utf-8"), flags=re.S)  # comments aren't sent
        text = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", "\ue000", text, flags=re.S)  # what a template is given, or decides
        for m in re.finditer(r"<(pre|textarea)\b[^>]*>(.*?)</\1>", text, re.S):
            assert m.group(2).strip("\ue000") == "", (path, m.group(0))
        for m in re.finditer(r"""=\s*("[^"<>]*"|'[^'<>]*')""", text):
            assert "\n" not in m.group(1), (path, m.group(0))
        checked += 1
    assert checked > 90  # every template was read
