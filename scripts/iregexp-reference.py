#!/usr/bin/env python3
"""The reference side of IRegexpReferenceTests: two implementations Sluice did not write.

Reads JSON lines {"pattern": P, "texts": [T, ...]} on stdin and writes, for each, a JSON line
{"valid": V, "match": [M, ...], "search": [S, ...]}:
- V is iregexp-check's verdict on P (jg-rp/rust-iregexp: RFC 9485's grammar, by the author of
  the JSONPath compliance suite's I-Regexp tests);
- M and S are whether mrab's `regex` module, running P as RFC 9485 section 5.4 maps I-Regexp to
  PCRE-like engines ('.' outside brackets as [^\\n\\r]; '^' and '$' as the ends of the text),
  matches the whole of T and some part of T. Both are null when P does not compile there; one
  answer is null when the regex module, a backtracking engine, gives up on it after two seconds
  (generated patterns such as `(\p{L}*.*)*!` take it exponential time).
"""
import json
import sys

import iregexp_check
import regex


def translate(pattern):
    """RFC 9485 section 5.4's mapping, with '^' and '$' made to assert the ends of the text only
    (Python's '$' would also match before a final line feed)."""
    out = []
    index = 0
    in_brackets = False
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            if pattern[index + 1 : index + 2] in ("p", "P"):
                end = pattern.index("}", index)
                out.append(pattern[index : end + 1])
                index = end + 1
                continue
            out.append(pattern[index : index + 2])
            index += 2
            continue
        if in_brackets:
            if char == "]":
                in_brackets = False
            out.append(char)
        elif char == "[":
            in_brackets = True
            out.append(char)
            if pattern[index + 1 : index + 2] == "^":
                out.append("^")
                index += 1
        elif char == ".":
            out.append("[^\\n\\r]")
        elif char == "^":
            out.append("\\A")
        elif char == "$":
            out.append("\\Z")
        else:
            out.append(char)
        index += 1
    return "".join(out)


def answer(method, text):
    try:
        return method(text, timeout=2.0) is not None
    except TimeoutError:
        return None


def main():
    for line in sys.stdin:
        case = json.loads(line)
        pattern = case["pattern"]
        result = {"valid": iregexp_check.check(pattern), "match": None, "search": None}
        try:
            compiled = regex.compile(translate(pattern), regex.VERSION0)
        except (regex.error, ValueError):
            compiled = None
        if compiled is not None:
            result["match"] = [answer(compiled.fullmatch, text) for text in case["texts"]]
            result["search"] = [answer(compiled.search, text) for text in case["texts"]]
        sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
