#!/usr/bin/env python3
"""Acknowledged writes survive `kill -9` of Examples/HummingbirdServer, for Scripts/hummingbird.sh
and Scripts/postgres.sh.

    crash.py write BASE_URL LEDGER [CLIENTS]   write until the server goes away
    crash.py check BASE_URL LEDGER             after a restart: check every entry of LEDGER

BASE_URL may be several, separated by commas (instances of the blog on one database): the
writers are spread over them in turn, and `check` reads through each in turn.

`write`: CLIENTS threads (default 4) each, over and over, create an article, or send one Atomic
Operations batch that adds a person and an article by that person (`lid`s). Before each request
a line "sent" goes to LEDGER, after a 2xx a line "acknowledged", both flushed at once. The
writers stop when a server stops answering (the script that started it kills it with -9) or
after 60 s; the exit status is 0 once at least one write was acknowledged and no answer was
other than 2xx or a broken connection.

`check` (against the restarted server, same database): every acknowledged write is there with
what was sent, and no batch is half there (a sent batch that was not acknowledged is either
wholly there or not at all). Exits 1 on any failure. Standard library only.
"""
import sys
import uuid

from jsonapi_http import MEDIA, exchange
from write_ledger import (
    Ledger, Writers, batch_ids, find, read_ledger, send_batch, write_problems)

MODE, LEDGER = sys.argv[1], sys.argv[3]
BASES = [base.rstrip("/") for base in sys.argv[2].split(",")]
CLIENTS = int(sys.argv[4]) if len(sys.argv) > 4 else 4


def write():
    stamp = "crash-" + uuid.uuid4().hex[:8]
    writers = Writers(Ledger(LEDGER), seconds=60, kill_round=True)

    def client(number):
        base = BASES[number % len(BASES)]
        sequence = 0
        while writers.going():
            sequence += 1
            name = "%s c%d #%d;" % (stamp, number, sequence)  # no name inside another
            batch = sequence % 2 == 0
            entry = {"sent": name, "batch": batch}
            if batch:
                answer = writers.send(entry, lambda: send_batch(base, name), batch_ids)
            else:
                answer = writers.send(entry, lambda: exchange(base, "POST", "/articles", {"data": {
                    "type": "articles", "attributes": {"title": name, "body": "kept"}}}, MEDIA,
                    timeout=10), lambda document: {"article": document["data"]["id"]})
            if answer is None:
                return

    writers.run([lambda number=number: client(number) for number in range(CLIENTS)])
    print("crash writers: %d writes acknowledged before the server went away"
          % writers.acknowledged)
    for line in writers.problems:
        print("  unexpected: " + line)
    return 0 if writers.acknowledged > 0 and not writers.problems else 1


def check():
    sent, acknowledged = {}, {}
    for entry in read_ledger(LEDGER):
        if "sent" in entry:
            sent[entry["sent"]] = entry["batch"]
        else:
            acknowledged[entry["acknowledged"]] = entry
    problems = []
    for number, (name, batch) in enumerate(sent.items()):
        base = BASES[number % len(BASES)]
        articles = find(base, "articles", "title", name)
        people = find(base, "people", "name", name) if batch else []
        problems += write_problems(name, batch, name in acknowledged, articles, people,
                                   body=None if batch else "kept",
                                   ids=acknowledged.get(name))
    print("crash check: %d writes sent, %d acknowledged, %d problems"
          % (len(sent), len(acknowledged), len(problems)))
    for problem in problems[:20]:
        print("  " + problem)
    return 1 if problems or not acknowledged else 0


sys.exit(write() if MODE == "write" else check())
