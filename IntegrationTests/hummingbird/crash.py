#!/usr/bin/env python3
"""Acknowledged writes survive `kill -9` of Examples/HummingbirdServer, for Scripts/hummingbird.sh.

    crash.py write BASE_URL LEDGER [CLIENTS]   write until the server goes away
    crash.py check BASE_URL LEDGER             after a restart: check every entry of LEDGER

`write`: CLIENTS threads (default 4) each, over and over, create an article, or send one Atomic
Operations batch that adds a person and an article by that person (`lid`s). Before each request
a line "sent" goes to LEDGER, after a 2xx a line "acknowledged", both flushed at once. The
writers stop when the server stops answering (the script that started it kills it with -9) or
after 60 s; the exit status is 0 once at least one write was acknowledged and no answer was
other than 2xx or a broken connection.

`check` (against the restarted server, same database): every acknowledged write is there with
what was sent, and no batch is half there (a sent batch that was not acknowledged is either
wholly there or not at all). Exits 1 on any failure. Standard library only.
"""
import json
import sys
import threading
import time
import urllib.error
import urllib.parse
import uuid

from jsonapi_http import ATOMIC, MEDIA, exchange

MODE, BASE, LEDGER = sys.argv[1], sys.argv[2].rstrip("/"), sys.argv[3]
CLIENTS = int(sys.argv[4]) if len(sys.argv) > 4 else 4


def request(method, path, document=None, media=MEDIA):
    return exchange(BASE, method, path, document, media, timeout=10)


def write():
    stamp = "crash-" + uuid.uuid4().hex[:8]
    ledger = open(LEDGER, "a")
    lock = threading.Lock()
    counts = {"acknowledged": 0, "unexpected": []}
    deadline = time.monotonic() + 60

    def note(entry):
        with lock:
            ledger.write(json.dumps(entry) + "\n")
            ledger.flush()

    def client(number):
        sequence = 0
        while time.monotonic() < deadline:
            sequence += 1
            name = "%s c%d #%d;" % (stamp, number, sequence)  # no name inside another
            batch = sequence % 2 == 0
            note({"sent": name, "batch": batch})
            try:
                if batch:
                    status, _ = request("POST", "/operations", {"atomic:operations": [
                        {"op": "add", "data": {"type": "people", "lid": "p",
                                               "attributes": {"name": name}}},
                        {"op": "add", "data": {
                            "type": "articles", "attributes": {"title": name},
                            "relationships": {"author": {"data": {"type": "people",
                                                                  "lid": "p"}}}}}]}, ATOMIC)
                else:
                    status, _ = request("POST", "/articles", {"data": {
                        "type": "articles", "attributes": {"title": name, "body": "kept"}}})
            except (urllib.error.URLError, ConnectionError, OSError):
                return  # the server is gone
            if 200 <= status < 300:
                note({"acknowledged": name})
                with lock:
                    counts["acknowledged"] += 1
            else:
                with lock:
                    counts["unexpected"].append("%s answered %d" % (name, status))
                return

    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print("crash writers: %d writes acknowledged before the server went away"
          % counts["acknowledged"])
    for line in counts["unexpected"]:
        print("  unexpected: " + line)
    return 0 if counts["acknowledged"] > 0 and not counts["unexpected"] else 1


def find(collection, member, name):
    query = urllib.parse.urlencode({"filter[%s]" % member: name, "page[size]": "50"})
    status, data = request("GET", "/%s?%s" % (collection, query))
    if status != 200:
        raise SystemExit("GET /%s?%s answered %d" % (collection, query, status))
    found = json.loads(data)["data"]
    return [resource for resource in found if resource["attributes"][member] == name]


def check():
    sent, acknowledged = {}, set()
    for line in open(LEDGER):
        entry = json.loads(line)
        if "sent" in entry:
            sent[entry["sent"]] = entry["batch"]
        else:
            acknowledged.add(entry["acknowledged"])
    problems = []
    for name, batch in sent.items():
        articles = find("articles", "title", name)
        people = find("people", "name", name) if batch else []
        if name in acknowledged and len(articles) != 1:
            problems.append("acknowledged %r: %d articles" % (name, len(articles)))
        if len(articles) > 1 or len(people) > 1:
            problems.append("%r stored more than once" % name)
        if batch and len(articles) != len(people):
            problems.append("batch %r half applied: %d article, %d person"
                            % (name, len(articles), len(people)))
        if batch and articles and people:
            author = articles[0].get("relationships", {}).get("author", {}).get("data") or {}
            if author.get("id") != people[0]["id"]:
                problems.append("batch %r: the article's author is not its person" % name)
        if not batch and articles and articles[0]["attributes"].get("body") != "kept":
            problems.append("%r stored with another body" % name)
    print("crash check: %d writes sent, %d acknowledged, %d problems"
          % (len(sent), len(acknowledged), len(problems)))
    for problem in problems[:20]:
        print("  " + problem)
    return 1 if problems or not acknowledged else 0


sys.exit(write() if MODE == "write" else check())
