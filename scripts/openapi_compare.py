"""Compare two OpenAPI documents: what the old one documents that the new one does not.

    python3 scripts/openapi_compare.py OLD.json NEW.json

Each document is reduced to facts: every path and method; every operation's id, summary, tags,
parameters, request body, example, security and answers (status -> schema or reusable answer);
every reusable answer; and, for every schema, every property path with its types, enum,
bounds, format, default, description, examples and whether it is required (``$ref``, ``allOf``,
``anyOf`` and ``oneOf`` are followed, so a shape that moved into a named schema is still the
same fact). Prints the facts only the old document has ("lost") and only the new one has
("added"), then a count of each; exit status 1 if anything was lost.
"""

from __future__ import annotations

import json
import sys
from typing import Any

Fact = tuple[str, ...]
KEYWORDS = ("enum", "minimum", "maximum", "minItems", "format", "default", "description",
            "examples", "const")


def _show(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


class Reducer:
    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.facts: set[Fact] = set()

    def resolve(self, ref: str) -> Any:
        node: Any = self.doc
        for part in ref.lstrip("#/").split("/"):
            node = node[part]
        return node

    def schema(self, node: Any, path: str, depth: int = 0) -> None:
        if not isinstance(node, dict) or depth > 40:  # no schema nests deeper; a cycle stops
            return
        if "$ref" in node:
            self.schema(self.resolve(node["$ref"]), path, depth + 1)
        for key in ("allOf", "anyOf", "oneOf"):
            for branch in node.get(key, ()):
                self.schema(branch, path, depth + 1)
        types = node.get("type")
        for t in types if isinstance(types, list) else [types] if types else []:
            self.facts.add(("schema", path, "type", t))
        for key in KEYWORDS:
            if key in node:
                self.facts.add(("schema", path, key, _show(node[key])))
        if None in node.get("enum", ()):
            self.facts.add(("schema", path, "type", "null"))
        for name, sub in node.get("properties", {}).items():
            self.schema(sub, f"{path}.{name}", depth + 1)
        for name in node.get("required", ()):
            self.facts.add(("schema", f"{path}.{name}", "required"))
        if isinstance(node.get("items"), dict):
            self.schema(node["items"], f"{path}[]", depth + 1)
        if isinstance(node.get("additionalProperties"), dict):
            self.schema(node["additionalProperties"], f"{path}{{}}", depth + 1)

    def operation(self, where: str, op: dict[str, Any]) -> None:
        self.facts.add(("operation", where))
        for key in ("operationId", "summary", "description"):
            if key in op:
                self.facts.add(("operation", where, key, op[key]))
        self.facts |= {("operation", where, "tag", t) for t in op.get("tags", ())}
        self.facts.add(("operation", where, "security", _show(op.get("security"))))
        for p in op.get("parameters", ()):
            self.facts.add(("operation", where, "parameter", p["in"], p["name"],
                            _show({k: v for k, v in p.items() if k not in ("in", "name")})))
        media = op.get("requestBody", {}).get("content", {}).get("application/json", {})
        if media:
            self.facts.add(("operation", where, "example", _show(media.get("example"))))
            self.schema(media["schema"], f"{where} body")
        for status, answer in op.get("responses", {}).items():
            self.facts.add(("operation", where, "answer", status))
            if "$ref" in answer:
                self.facts.add(("operation", where, "answer", status, answer["$ref"]))
            for mime, content in answer.get("content", {}).items():
                self.schema(content["schema"], f"{where} {status} {mime}")

    def reduce(self) -> set[Fact]:
        for path, ops in self.doc["paths"].items():
            for method, op in ops.items():
                self.operation(f"{method.upper()} {path}", op)
        components = self.doc["components"]
        for name, schema in components["schemas"].items():
            self.schema(schema, name)
        for name, answer in components["responses"].items():
            for mime, content in answer["content"].items():
                self.facts.add(("response", name, mime, _show(content.get("example"))))
                self.schema(content["schema"], f"response {name}")
        return self.facts


def main(old_path: str, new_path: str) -> int:
    with open(old_path, encoding="utf-8") as f:
        old = Reducer(json.load(f)).reduce()
    with open(new_path, encoding="utf-8") as f:
        new = Reducer(json.load(f)).reduce()
    for label, facts in (("lost", old - new), ("added", new - old)):
        for fact in sorted(facts):
            print(label, " | ".join(fact))
    print(f"facts: old {len(old)}, new {len(new)}, lost {len(old - new)}, "
          f"added {len(new - old)}")
    return 1 if old - new else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
