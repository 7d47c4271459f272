"""The OpenAPI schema as client authors' tools read it: Redocly's `recommended` lint and
openapi-spec-validator find no error, and TypeScript types made by
openapi-typescript compile with `tsc --strict`. The npm tools are pinned in tools/node
(`make install` runs `npm ci` there)."""

from __future__ import annotations

import json
import re
import subprocess

import pytest
from openapi_spec_validator import validate
from rest_framework.test import APIClient

from tests.api.generated import ROOT

TOOLS = ROOT / "tools" / "node"
BIN = TOOLS / "node_modules" / ".bin"

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(tmp_path):
    answer = APIClient().get("/api/schema/", {"format": "json"})
    assert answer.status_code == 200
    path = tmp_path / "openapi.json"
    path.write_bytes(answer.content)
    return path


def _run(command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=TOOLS,
                          **kwargs)


def test_openapi_spec_validator_finds_nothing(schema):
    validate(json.loads(schema.read_text()))  # raises on the first problem


@pytest.mark.node_tools
def test_redocly_recommended_lint_has_no_error(schema):
    completed = _run([str(BIN / "redocly"), "lint", str(schema), "--format", "summary"])
    report = completed.stdout + completed.stderr
    print(report)
    assert completed.returncode == 0, report
    assert not re.search(r"^error", report, re.MULTILINE), report


@pytest.mark.node_tools
def test_typescript_types_from_the_schema_compile_strictly(schema, tmp_path):
    types = tmp_path / "turnpost.d.ts"
    generated = _run([str(BIN / "openapi-typescript"), str(schema), "-o", str(types)])
    assert generated.returncode == 0, generated.stdout + generated.stderr
    # A client using the types: it must type-check, and so must fail on a wrong field.
    usage = tmp_path / "client.ts"
    usage.write_text(
        'import type { components, paths } from "./turnpost";\n'
        'type Legal = paths["/api/v1/games/{id}/actions"]["get"]["responses"]["200"]'
        '["content"]["application/json"];\n'
        'export function first(legal: Legal): components["schemas"]["ActionSubmitRequest"] {\n'
        '  return { action: legal[0].action, version: 0 };\n'
        '}\n'
        'export function message(error: components["schemas"]["Error"]): string {\n'
        '  return `${error.code}: ${error.message}`;\n'
        '}\n')
    compiled = _run([str(BIN / "tsc"), "--strict", "--noEmit", "--skipLibCheck", "false",
                     str(types), str(usage)])
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    usage.write_text(usage.read_text().replace("error.message", "error.text"))
    wrong = _run([str(BIN / "tsc"), "--strict", "--noEmit", str(types), str(usage)])
    assert wrong.returncode != 0 and "text" in wrong.stdout, wrong.stdout
