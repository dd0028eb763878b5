#!/usr/bin/env python3
"""Writes the worked test vectors of docs/key-spec.md.

Each vector's canonical form is written here by hand from the rules in docs/key-spec.md; its key is
computed with PyPI's `xxhash` (an implementation independent of Tonearm's), so the Swift test that
reads the vectors back checks both Tonearm's canonicalisation and its hashing against the spec.

Usage: python3 scripts/key-vectors.py > /tmp/vectors.md, then paste between the VECTORS markers
(or run with --write to replace them in docs/key-spec.md).
"""
import json
import sys
import xxhash

DEFAULT = "method,url,query,body"
JSON = [["Content-Type", "application/json"]]

# (title, request, match attributes, extra config lines, expected canonical lines as `label value`)
VECTORS = [
    ("Plain GET", {"method": "GET", "url": "https://example.com/"}, DEFAULT, [],
     ["method GET", "url https://example.com/", "query ", "body:raw "]),
    ("Method and scheme/host case; empty path is /", {"method": "get", "url": "HTTPS://Example.COM"}, DEFAULT, [],
     ["method GET", "url https://example.com/", "query ", "body:raw "]),
    ("Default ports dropped", {"method": "GET", "url": "https://example.com:443/a"}, "method,url", [],
     ["method GET", "url https://example.com/a"]),
    ("Non-default port kept, http default dropped", {"method": "GET", "url": "http://example.com:8080/a"}, "url", [],
     ["url http://example.com:8080/a"]),
    ("http default port 80 dropped", {"method": "GET", "url": "http://example.com:80/a"}, "url", [],
     ["url http://example.com/a"]),
    ("Percent-encoding normalised in the path", {"method": "GET", "url": "https://example.com/%7euser/a%2fb/%41"}, "url", [],
     ["url https://example.com/~user/a%2Fb/A"]),
    ("Dot segments removed", {"method": "GET", "url": "https://example.com/a/b/../c/./d"}, "url", [],
     ["url https://example.com/a/c/d"]),
    ("Userinfo and fragment are never part of the key", {"method": "GET", "url": "https://user:secret@example.com/p#section"}, "url", [],
     ["url https://example.com/p"]),
    ("IPv6 host, default port dropped", {"method": "GET", "url": "http://[::1]:80/"}, "url", [],
     ["url http://[::1]/"]),
    ("Origin-form target (no scheme or host)", {"method": "GET", "url": "/users?id=1"}, DEFAULT, [],
     ["method GET", "url /users", "query id=1", "body:raw "]),
    ("Query sorted by name then value; duplicates kept", {"method": "GET", "url": "https://example.com/s?b=2&a=1&a=0"}, "query", [],
     ["query a=0&a=1&b=2"]),
    ("+ and %20 are the same space", {"method": "GET", "url": "https://example.com/s?q=a+b"}, "query", [],
     ["query q=a%20b"]),
    ("A name without = equals a name with an empty value", {"method": "GET", "url": "https://example.com/s?flag&x="}, "query", [],
     ["query flag=&x="]),
    ("No query and an empty query are the same", {"method": "GET", "url": "https://example.com/s?"}, "url,query", [],
     ["url https://example.com/s", "query "]),
    ("Query bytes decoded, then re-encoded canonically", {"method": "GET", "url": "https://example.com/s?v=b%3dc&name=caf%c3%a9&t=%7e"}, "query", [],
     ["query name=caf%C3%A9&t=~&v=b%3Dc"]),
    ("Non-ASCII query text is percent-encoded", {"method": "GET", "url": "https://example.com/s?q=café"}, "query", [],
     ["query q=caf%C3%A9"]),
    ("Ignored query parameter", {"method": "GET", "url": "https://example.com/s?timestamp=1732240000&id=7&_=99"}, "query",
     ["ignore-query: timestamp", "ignore-query: _"],
     ["query id=7"]),
    ("JSON body in RFC 8785 form", {"method": "POST", "url": "https://example.com/j", "headers": JSON, "body": '{ "b": 1, "a": [1.0, 2e0, "x"] }'}, "body", [],
     ['body:json {"a":[1,2,"x"],"b":1}']),
    ("JSON numbers in ECMAScript form", {"method": "POST", "url": "https://example.com/j", "headers": JSON, "body": '{"n":[1e21,0.00001,1e-7,-0,4.50,1E30]}'}, "body", [],
     ['body:json {"n":[1e+21,0.00001,1e-7,0,4.5,1e+30]}']),
    ("JSON members sorted by UTF-16 code units", {"method": "POST", "url": "https://example.com/j", "headers": JSON, "body": '{"\\ufb33":3,"\\ud83d\\ude02":2,"\\u20ac":1}'}, "body", [],
     ['body:json {"\u20ac":1,"\U0001F602":2,"\ufb33":3}']),
    ("JSON strings: minimal escaping, no Unicode normalisation", {"method": "POST", "url": "https://example.com/j", "headers": JSON, "body": '{"A\\u030a":"\\u00c5\\/\\u001f"}'}, "body", [],
     ['body:json {"A\u030a":"\u00c5/\\u001f"}']),
    ("Integers beyond 2^53 kept verbatim", {"method": "POST", "url": "https://example.com/j", "headers": JSON, "body": '{"id":12345678901234567890,"n":9007199254740993}'}, "body", [],
     ['body:json {"id":12345678901234567890,"n":9007199254740993}']),
    ("Ignored JSON fields by pointer", {"method": "POST", "url": "https://example.com/j", "headers": JSON, "body": '{"x":true,"meta":{"requestId":"5f1c","v":1}}'}, "body",
     ["ignore-json: /meta/requestId"],
     ['body:json {"meta":{"v":1},"x":true}']),
    ("Structured +json media type with parameters", {"method": "PUT", "url": "https://example.com/j", "headers": [["content-type", "application/vnd.api+json; charset=utf-8"]], "body": '{"b":[],"a":{}}'}, "method,body", [],
     ["method PUT", 'body:json {"a":{},"b":[]}']),
    ("Invalid JSON falls back to raw bytes", {"method": "POST", "url": "https://example.com/j", "headers": JSON, "body": '{"a":'}, "body", [],
     ['body:raw {"a":']),
    ("Empty body under a JSON content type is an empty raw body", {"method": "POST", "url": "https://example.com/j", "headers": JSON, "body": ""}, "body", [],
     ["body:raw "]),
    ("Form body sorted like a query", {"method": "POST", "url": "https://example.com/f", "headers": [["Content-Type", "application/x-www-form-urlencoded"]], "body": "b=2&a=hello+world"}, "body", [],
     ["body:form a=hello%20world&b=2"]),
    ("Other content types: raw bytes", {"method": "POST", "url": "https://example.com/t", "headers": [["Content-Type", "text/plain"]], "body": "Hello"}, "body", [],
     ["body:raw Hello"]),
    ("Chosen headers: names lowercased, values trimmed, in name order", {"method": "GET", "url": "https://example.com/h", "headers": [["X-Api-Version", " 2 "], ["ACCEPT", "  application/json "], ["User-Agent", "ignored"]]}, "method,header:accept,header:X-Api-Version", [],
     ["method GET", "header:accept application/json", "header:x-api-version 2"]),
    ("Path only, for hosts that change between runs", {"method": "GET", "url": "http://localhost:61234/v1/x/?y=1"}, "method,path", [],
     ["method GET", "path /v1/x/"]),
    ("Spaces and controls around the target are dropped", {"method": "GET", "url": "\t https://example.com/s?x=\u0000"}, "url,query", [],
     ["url https://example.com/s", "query x="]),
    ("Spaces and controls before a fragment are dropped too; inside, encoded", {"method": "GET", "url": "https://example.com/s?y=\u0001z&x= #top"}, "query", [],
     ["query x=&y=%01z"]),
    ("A target starting with // is a path, not an authority", {"method": "GET", "url": "//a/b?x=1"}, "url,query", [],
     ["url //a/b", "query x=1"]),
    ("Escapes in the host: unreserved decoded, then lowercased", {"method": "GET", "url": "https://Ex%41mple.com/"}, "url", [],
     ["url https://example.com/"]),
    ("Other escapes in the host are kept, hex uppercased", {"method": "GET", "url": "https://b%c3%bccher.example/"}, "url", [],
     ["url https://b%C3%BCcher.example/"]),
    ("Escaped port digits are digits", {"method": "GET", "url": "http://h.example:%38%30/x"}, "url", [],
     ["url http://h.example/x"]),
    ("[ and ] in a path are encoded", {"method": "GET", "url": "https://example.com/a[1]/%5b2%5d"}, "url", [],
     ["url https://example.com/a%5B1%5D/%5B2%5D"]),
    ("A +json suffix needs a type and a name", {"method": "POST", "url": "https://example.com/j", "headers": [["Content-Type", "foo+json"]], "body": '{"b":1,"a":2}'}, "body", [],
     ['body:raw {"b":1,"a":2}']),
    ("A bare +json is not JSON either", {"method": "POST", "url": "https://example.com/j", "headers": [["Content-Type", "+json"]], "body": '{"b":1,"a":2}'}, "body", [],
     ['body:raw {"b":1,"a":2}']),
]


def with_lengths(lines):
    """Writes each hand-written `label value` line as `label SP length SP value`."""
    result = []
    for line in lines:
        label, value = line.split(" ", 1)
        result.append(f"{label} {len(value.encode('utf-8'))} {value}")
    return result


def render():
    out = []
    for number, (title, request, match, extra, lines) in enumerate(VECTORS, start=1):
        lines = with_lengths(lines)
        canonical = "".join(line + "\n" for line in lines).encode("utf-8")
        key = xxhash.xxh3_64_hexdigest(canonical)
        out.append(f"### {number}. {title}\n")
        out.append("```tonearm-vector")
        out.append("request: " + json.dumps(request, ensure_ascii=False))
        out.append("match: " + match)
        out.extend(extra)
        out.append("canonical:")
        out.extend(lines)
        out.append("key: " + key)
        out.append("```\n")
    return "\n".join(out)


if __name__ == "__main__":
    text = render()
    if "--write" in sys.argv:
        path = "docs/key-spec.md"
        doc = open(path, encoding="utf-8").read()
        start, end = "<!-- VECTORS:BEGIN -->", "<!-- VECTORS:END -->"
        head, rest = doc.split(start, 1)
        _, tail = rest.split(end, 1)
        open(path, "w", encoding="utf-8").write(head + start + "\n" + text + "\n" + end + tail)
    else:
        print(text)
