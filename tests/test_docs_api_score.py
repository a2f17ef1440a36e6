"""Run every example in docs/api-score.md: the request must give exactly the documented response."""
import json
import re
from pathlib import Path

import pytest

DOC = Path(__file__).parent.parent / "docs" / "api-score.md"
EXAMPLE = re.compile(r"```http\n(\w+) (\S+)\n(.*?)\n```\n```json\n(.*?)\n```", re.S)


def examples():
    found = EXAMPLE.findall(DOC.read_text(encoding="utf-8"))
    assert found, "docs/api-score.md has no examples"
    return found


@pytest.mark.parametrize("method, path, request_body, expected", examples())
def test_documented_example(client, method, path, request_body, expected):
    status = 200
    if expected.startswith("// "):
        first, expected = expected.split("\n", 1)
        status = int(first[3:])
    r = client.open(path, method=method, json=json.loads(request_body))
    assert r.status_code == status
    assert r.get_json() == json.loads(expected)
