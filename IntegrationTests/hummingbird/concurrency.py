#!/usr/bin/env python3
"""Concurrent writers against Examples/HummingbirdServer, for Scripts/hummingbird.sh.

    concurrency.py BASE_URL [CLIENTS [SECONDS]]

CLIENTS threads (default 8) each create an article, update it, and read a page of articles with
their authors, over and over for SECONDS (default 10). Then the checks: no answer was a 5xx or
otherwise unexpected; every article a client created is there exactly once (a filter on the
run's stamp finds them all, and the collection's total grew by as many) with the content of its
last update. Exits 1 on any failure. Standard library only.
"""
import json
import sys
import threading
import time
import urllib.parse
import uuid

from jsonapi_http import MEDIA, exchange

BASE = sys.argv[1].rstrip("/")
CLIENTS = int(sys.argv[2]) if len(sys.argv) > 2 else 8
SECONDS = float(sys.argv[3]) if len(sys.argv) > 3 else 10.0
STAMP = "run-" + uuid.uuid4().hex[:8]


def request(method, path, document=None):
    status, data = exchange(BASE, method, path, document)
    return status, (json.loads(data) if data else None)


def total(path):
    status, document = request("GET", path)
    if status != 200:
        raise SystemExit("GET %s answered %d" % (path, status))
    return document["meta"]["page"]["total"]


problems = []
created = {}  # id -> (title, body) after the client's last update
lock = threading.Lock()


def client(number, deadline):
    sequence = 0
    while time.monotonic() < deadline:
        sequence += 1
        title = "%s c%d #%d" % (STAMP, number, sequence)
        status, document = request("POST", "/articles", {"data": {
            "type": "articles", "attributes": {"title": title, "body": "draft"},
            "relationships": {"author": {"data": {"type": "people", "id": str(number % 5 + 1)}}},
        }})
        if status != 201:
            with lock:
                problems.append("POST /articles answered %d: %s" % (status, document))
            continue
        article = document["data"]["id"]
        body = "final %d/%d" % (number, sequence)
        status, document = request("PATCH", "/articles/" + article, {"data": {
            "type": "articles", "id": article, "attributes": {"body": body}}})
        with lock:
            if status != 200 or document["data"]["attributes"]["body"] != body:
                problems.append("PATCH /articles/%s answered %d: %s" % (article, status, document))
            if article in created:
                problems.append("id %s given twice" % article)
            created[article] = (title, body)
        status, document = request("GET", "/articles?include=author&page%5Bsize%5D=20")
        if status != 200:
            with lock:
                problems.append("GET /articles answered %d" % status)


before = total("/articles")
deadline = time.monotonic() + SECONDS
threads = [threading.Thread(target=client, args=(n, deadline)) for n in range(CLIENTS)]
started = time.monotonic()
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
elapsed = time.monotonic() - started

after = total("/articles")
filter_path = "/articles?filter%5Btitle%5D=" + urllib.parse.quote(STAMP)
if after != before + len(created):
    problems.append("total %d after, %d before, %d created" % (after, before, len(created)))
if total(filter_path) != len(created):
    problems.append("the filter finds %d of %d created" % (total(filter_path), len(created)))
for article, (title, body) in sorted(created.items(), key=lambda item: int(item[0])):
    status, document = request("GET", "/articles/%s?include=author" % article)
    if status != 200:
        problems.append("GET /articles/%s answered %d" % (article, status))
        continue
    attributes = document["data"]["attributes"]
    if (attributes["title"], attributes["body"]) != (title, body):
        problems.append("articles/%s holds %r, expected %r" % (article, attributes, (title, body)))
    if len(document.get("included", [])) != 1:
        problems.append("articles/%s lost its author" % article)

print("concurrency: %d clients for %.1f s created and updated %d articles (%.0f writes/s); "
      "%d problems" % (CLIENTS, elapsed, len(created), 2 * len(created) / elapsed, len(problems)))
for problem in problems[:20]:
    print("  PROBLEM: %s" % problem)
sys.exit(1 if problems else 0)
