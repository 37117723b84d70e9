#!/usr/bin/env python3
"""A JSON:API server that bends the spec the way real servers do (issue 36), for
IntegrationSuite's "bent server" checks. Python standard library only; 127.0.0.1 only.

    python3 server.py PORT

23 articles (ids 1-23, title "Article NN", author person (id % 3) + 1) and 3 people.

- GET /numbered?page[number]=N&page[size]=S   pages by number (size 10 by default, 10 at most),
  no pagination links, no meta.
- GET /offset?page[offset]=O&page[limit]=L     pages by offset (limit 10 by default and at most),
  no links, `meta.count` = 23.
- GET /ignoring?...                           the first 10 articles whatever the query says.
- GET /page-counted?page[number]=N&page[size]=S  25 articles (ids 1-25) by number (size 5 by
  default, 10 at most), no links, and a `meta` that counts the page, not the collection:
  `{"count": 5, "totalPages": 1}` on every full page of 5 (issue 48).
- GET /articles/N/relationships/author        linkage with an integer id: {"id": 2, ...}.
- GET /articles/N?include=author              the article, linkage with an integer id, the
  author included with a string id.
- POST /operations                            applies `add` operations (ids from 100) and
  answers 200 with `"meta": null` in each result and `"jsonapi": null` at the top.
- POST /unreadable                            "creates" article 99: answers 201
  with a Location and a resource without the attributes the client's model requires.
- GET /requests                               the request targets received so far, as JSON.
"""

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

MEDIA_TYPE = "application/vnd.api+json"
ARTICLES = list(range(1, 24))
MAX_SIZE = 10
lock = threading.Lock()
received = []
next_id = [100]


def article(number, integer_author=False):
    author = (number % 3) + 1
    return {
        "type": "articles",
        "id": str(number),
        "attributes": {"title": "Article %02d" % number},
        "relationships": {
            "author": {"data": {"type": "people", "id": author if integer_author else str(author)}}
        },
    }


def person(number):
    return {"type": "people", "id": str(number), "attributes": {"name": "Person %d" % number}}


def whole(value, default):
    try:
        number = int(value)
    except (TypeError, ValueError):
        return default
    return number if number >= 0 else default


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # quiet: the suite prints what matters
        pass

    def answer(self, status, document, headers=None):
        body = b"" if document is None else json.dumps(document).encode()
        self.send_response(status)
        if body:
            self.send_header("Content-Type", MEDIA_TYPE)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def page(self, start, size):
        size = min(max(size, 1), MAX_SIZE)
        return [article(n) for n in ARTICLES[start : start + size]]

    def do_GET(self):
        target = urlsplit(self.path)
        with lock:
            received.append(self.path)
        query = {name: values[0] for name, values in parse_qs(target.query).items()}
        path = target.path
        if path == "/numbered":
            size = whole(query.get("page[size]"), MAX_SIZE)
            number = max(whole(query.get("page[number]"), 1), 1)
            start = (number - 1) * min(max(size, 1), MAX_SIZE)
            return self.answer(200, {"data": self.page(start, size)})
        if path == "/offset":
            limit = whole(query.get("page[limit]"), MAX_SIZE)
            offset = whole(query.get("page[offset]"), 0)
            return self.answer(200, {"data": self.page(offset, limit), "meta": {"count": 23}})
        if path == "/page-counted":
            size = min(max(whole(query.get("page[size]"), 5), 1), MAX_SIZE)
            number = max(whole(query.get("page[number]"), 1), 1)
            start = (number - 1) * size
            data = [article(n) for n in range(1, 26)][start : start + size]
            return self.answer(200, {"data": data, "meta": {"count": len(data), "totalPages": 1}})
        if path == "/ignoring":
            return self.answer(200, {"data": self.page(0, MAX_SIZE)})
        if path == "/requests":
            with lock:
                return self.answer(200, {"meta": {"targets": list(received)}})
        parts = path.strip("/").split("/")
        if len(parts) >= 2 and parts[0] == "articles" and parts[1].isdigit():
            number = int(parts[1])
            if number not in ARTICLES:
                return self.answer(404, {"errors": [{"status": "404", "title": "Not Found"}]})
            if parts[2:] == ["relationships", "author"]:
                return self.answer(200, {"data": {"id": (number % 3) + 1, "type": "people"}})
            if parts[2:] == []:
                document = {"data": article(number, integer_author=True)}
                if query.get("include") == "author":
                    document["included"] = [person((number % 3) + 1)]
                return self.answer(200, document)
        return self.answer(404, {"errors": [{"status": "404", "title": "Not Found"}]})

    def do_POST(self):
        target = urlsplit(self.path)
        with lock:
            received.append(self.path)
        length = whole(self.headers.get("Content-Length"), 0)
        if length > 1 << 20:
            return self.answer(413, {"errors": [{"status": "413"}]})
        try:
            request = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            return self.answer(400, {"errors": [{"status": "400", "title": "Invalid JSON"}]})
        if target.path == "/operations":
            results = []
            for operation in request.get("atomic:operations", []):
                data = operation.get("data")
                if operation.get("op") != "add" or not isinstance(data, dict):
                    results.append({"meta": None})
                    continue
                with lock:
                    next_id[0] += 1
                    created = dict(data, id=str(next_id[0]))
                created.pop("lid", None)
                results.append({"data": created, "meta": None})
            return self.answer(200, {"atomic:results": results, "jsonapi": None, "meta": None})
        if target.path == "/unreadable":
            created = {"type": "articles", "id": "99", "attributes": {"headline": "renamed"}}
            return self.answer(201, {"data": created}, {"Location": "/articles/99"})
        return self.answer(404, {"errors": [{"status": "404", "title": "Not Found"}]})


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8766
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
