"""Run every example in docs/api*.md against the app: an http block, then the exact json answer."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

DOCS = sorted((Path(__file__).resolve().parent.parent / "docs").glob("api*.md"))
EXAMPLE = re.compile(r"```http\n(.*?)\n```\n```json\n(.*?)\n```", re.S)


def examples():
    for path in DOCS:
        for n, match in enumerate(EXAMPLE.finditer(path.read_text()), 1):
            yield pytest.param(match.group(1), match.group(2), id=f"{path.name}#{n}")


def test_docs_have_examples():
    assert DOCS and any(True for _ in examples())


@pytest.mark.parametrize("request_text,response_text", list(examples()))
def test_example(client, request_text, response_text):
    first, _, body = request_text.partition("\n")
    method, path = first.split(" ", 1)
    status = 200
    status_line = re.match(r"// (\d{3})\n", response_text)
    if status_line:
        status, response_text = int(status_line.group(1)), response_text[status_line.end():]
    if method == "GET":
        answer = client.get(path)
    else:
        answer = client.open(path, method=method, data=body.encode(), content_type="application/json")
    assert answer.status_code == status
    assert answer.get_json() == json.loads(response_text)
