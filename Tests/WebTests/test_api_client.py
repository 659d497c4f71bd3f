"""Web/js/api.js (generated from the endpoint declarations) against the server's own OpenAPI document: every
endpoint it calls exists with that method, and every query parameter it may send is one the server reads
(by its name or one of its `x-aliases`)."""
import json
import re

from conftest import ROOT, http

ENTRY = re.compile(r'^\s*(\w+): \(params(?:, body)?\) => (call|address)\(e\("(\w+)", "([^"]+)", \[([^\]]*)\], "(\w+)", (true|false)\)')


def declared():
    text = (ROOT / "Web" / "js" / "api.js").read_text()
    group = None
    for line in text.splitlines():
        found = re.match(r"export const (\w+) = \{", line)
        if found:
            group = found.group(1)
            continue
        entry = ENTRY.match(line)
        if entry:
            name, kind, method, path, query, access, media = entry.groups()
            yield {"group": group, "name": name, "kind": kind, "method": method, "path": path,
                   "query": re.findall(r'"(\w+)"', query), "access": access, "media": media == "true"}


def parameter_names(document, operation):
    names = set()
    for parameter in operation.get("parameters", []):
        if "$ref" in parameter:
            parameter = document["components"]["parameters"][parameter["$ref"].split("/")[-1]]
        if parameter.get("in") == "query":
            names.add(parameter["name"])
            names.update(parameter.get("x-aliases", []))
    return names


def test_every_call_of_the_web_client_is_an_endpoint_of_the_server(server):
    status, _, body = http("GET", server.url + "/v1/openapi.json")
    assert status == 200
    document = json.loads(body)
    entries = list(declared())
    assert len(entries) >= 40
    problems = []
    for entry in entries:
        operation = document["paths"].get(entry["path"], {}).get(entry["method"].lower())
        label = f'{entry["group"]}.{entry["name"]} {entry["method"]} {entry["path"]}'
        if operation is None:
            problems.append(f"{label}: not in the server's document")
            continue
        if entry["media"] != (entry["kind"] == "address"):
            problems.append(f"{label}: media endpoints are addresses, others calls")
        unknown = set(entry["query"]) - parameter_names(document, operation)
        if unknown and operation.get("parameters"):
            problems.append(f"{label}: the server reads no {sorted(unknown)}")
        # chatToken: the event stream, opened by the chat token (an EventSource address, never a call).
        if entry["access"] not in {"anyone", "optionalSignIn", "signedIn", "admin", "adminOrFirstRun", "chatToken"}:
            problems.append(f"{label}: unknown access {entry['access']}")
    assert not problems, "\n".join(problems)
