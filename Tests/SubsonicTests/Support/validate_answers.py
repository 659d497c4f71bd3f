#!/usr/bin/env python3
"""Validates the Subsonic answers a Swift test saved: XML against the schema, JSON by checks derived from it.

Usage: validate_answers.py SCHEMA.xsd FOLDER
Every FOLDER/*.xml must be valid for the schema (Subsonic 1.16.1 + the OpenSubsonic additions). Every
FOLDER/*.json is walked along the same schema, the way OpenSubsonic maps XML to JSON:
- one object `subsonic-response`; attributes and child elements are keys of one object, element text is
  `value`; no key the schema does not know (no `xmlns`);
- a child element the schema lets repeat is an array (also of one), any other is an object (or a plain value
  for a simple-typed element); OpenSubsonic's single objects inside Child/AlbumID3's repeatable choice
  (replayGain, releaseDate, originalReleaseDate) are objects;
- attribute values have their JSON type (xs:int/long numbers, xs:boolean true/false, xs:double numbers,
  the rest strings) and a value the attribute's XML type accepts; required attributes are present;
- lists OpenSubsonic's JSON schemas require are present even when empty (album.song, artist.album,
  nowPlaying.entry, and playlists/genres/bookmarks, which clients read without a default);
- error codes are the documented ones.
Prints one line per problem and exits 1 when there is any.
"""
import glob
import json
import os
import sys

import xmlschema

XS = "{http://www.w3.org/2001/XMLSchema}"
INTEGERS = {"int", "long", "integer", "short", "byte", "nonNegativeInteger", "positiveInteger",
            "unsignedInt", "unsignedLong", "unsignedShort", "nonPositiveInteger", "negativeInteger"}
SINGLE_OBJECTS = {"replayGain", "releaseDate", "originalReleaseDate"}
REQUIRED_LISTS = {"AlbumWithSongsID3": ["song"], "ArtistWithAlbumsID3": ["album"], "NowPlaying": ["entry"],
                  "Playlists": ["playlist"], "Genres": ["genre"], "Bookmarks": ["bookmark"],
                  "PlaylistWithSongs": ["entry"]}
ERROR_CODES = {0, 10, 20, 30, 40, 41, 42, 43, 44, 50, 60, 70}


def builtin(simple_type):
    """The XML Schema built-in type a simple type derives from (its local name)."""
    t = simple_type
    while t is not None:
        if t.name and t.name.startswith(XS):
            return t.name[len(XS):]
        t = getattr(t, "base_type", None) or (getattr(t, "member_types", None) or [None])[0]
    return "string"


def repeatable(element):
    if element.max_occurs is None or element.max_occurs > 1:
        return True
    group = element.parent
    while group is not None and hasattr(group, "model"):
        if group.max_occurs is None or group.max_occurs > 1:
            return True
        group = group.parent
    return False


class JSONChecker:
    def __init__(self, schema):
        self.schema = schema
        self.problems = []

    def fail(self, path, message):
        self.problems.append(f"{path}: {message}")

    def scalar(self, value, simple_type, path):
        kind = builtin(simple_type)
        if kind in INTEGERS:
            ok, text = isinstance(value, int) and not isinstance(value, bool), str(value)
        elif kind == "boolean":
            ok, text = isinstance(value, bool), "true" if value else "false"
        elif kind in ("double", "float", "decimal"):
            ok, text = isinstance(value, (int, float)) and not isinstance(value, bool), repr(value)
        else:
            ok, text = isinstance(value, str), value if isinstance(value, str) else ""
        if not ok:
            self.fail(path, f"{json.dumps(value)} is not a JSON {kind}")
        elif not simple_type.is_valid(text):
            self.fail(path, f"{json.dumps(value)} is not a valid {simple_type.name or kind}")

    def object(self, value, complex_type, path):
        if not isinstance(value, dict):
            self.fail(path, f"should be an object, not {type(value).__name__}")
            return
        attributes = dict(complex_type.attributes.items())
        elements = {}
        if not complex_type.has_simple_content() and complex_type.content is not None:
            elements = {e.local_name: e for e in complex_type.content.iter_elements()}
        text_allowed = complex_type.has_simple_content() or complex_type.mixed
        for key, item in value.items():
            where = f"{path}.{key}"
            if key in elements:
                self.child(item, elements[key], where)
            elif key in attributes and attributes[key].type is not None:
                self.scalar(item, attributes[key].type, where)
            elif key == "value" and text_allowed:
                if not isinstance(item, str):
                    self.fail(where, "element text should be a string")
            else:
                self.fail(where, "is not an attribute or element of " + str(complex_type.local_name))
        for name, attribute in attributes.items():
            if attribute.use == "required" and name not in value:
                self.fail(path, f"lacks the required attribute {name}")
        for name in REQUIRED_LISTS.get(complex_type.local_name, []):
            if name not in value:
                self.fail(path, f"lacks the list {name} (send [] when empty)")
        if complex_type.local_name == "Error" and value.get("code") not in ERROR_CODES:
            self.fail(path, f"error code {value.get('code')} is not one of {sorted(ERROR_CODES)}")

    def child(self, value, element, path):
        if repeatable(element) and element.local_name not in SINGLE_OBJECTS:
            if not isinstance(value, list):
                self.fail(path, "may repeat, so it should be an array")
                return
            for index, item in enumerate(value):
                self.item(item, element, f"{path}[{index}]")
        else:
            if isinstance(value, list):
                self.fail(path, "occurs once, so it should not be an array")
                return
            self.item(value, element, path)

    def item(self, value, element, path):
        if element.type.is_simple():
            self.scalar(value, element.type, path)
        else:
            self.object(value, element.type, path)

    def document(self, document):
        if not isinstance(document, dict) or list(document.keys()) != ["subsonic-response"]:
            self.fail("$", "should be one object with the single key subsonic-response")
            return
        self.object(document["subsonic-response"], self.schema.elements["subsonic-response"].type,
                    "subsonic-response")


def main():
    schema = xmlschema.XMLSchema(sys.argv[1])
    folder = sys.argv[2]
    problems = []
    files = sorted(glob.glob(os.path.join(folder, "*.xml")) + glob.glob(os.path.join(folder, "*.json")))
    for path in files:
        name = os.path.basename(path)
        if path.endswith(".xml"):
            with open(path, "rb") as handle:
                head = handle.read(64)
            if not head.startswith(b'<?xml version="1.0" encoding="UTF-8"?>'):
                problems.append(f"{name}: no XML declaration")
            for error in schema.iter_errors(path):
                problems.append(f"{name}: {str(error.reason).splitlines()[0]} at {error.path}")
                break
        else:
            try:
                with open(path, encoding="utf-8") as handle:
                    document = json.load(handle)
            except ValueError as error:
                problems.append(f"{name}: not JSON ({error})")
                continue
            checker = JSONChecker(schema)
            checker.document(document)
            problems += [f"{name}: {problem}" for problem in checker.problems[:5]]
    for problem in problems:
        print("FAIL " + problem)
    print(f"checked {len(files)} answers, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
