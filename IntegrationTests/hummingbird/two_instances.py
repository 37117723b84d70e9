#!/usr/bin/env python3
"""Two instances of Examples/HummingbirdServer on one database, for Scripts/postgres.sh.

    two_instances.py write URL_A URL_B LEDGER SECONDS [--kill-round]
    two_instances.py check URL_A URL_B LEDGER [--psql "PSQL ARGUMENTS"]

`write` first makes, through the instances, 5 people and 6 shared articles of its own (a stamp
of the run in every name and title), then runs 8 writers for SECONDS, 4 on each instance:

    A: creates articles               B: creates articles
    A: PATCHes `title` of the shared  B: PATCHes `body` of the shared articles
       articles
    A: PATCHes `author` of shared     B: PATCHes /articles/ID/relationships/author of shared
       articles 0-2 (PATCH /articles/ID)  articles 3-5
    A: Atomic Operations              B: the same: a person and an article by it (`lid`s),
                                         then an update of that article (by `lid`), in one request

Each member of each shared article has one writer, so its stored value must be the last value
that writer was told was stored: a store that wrote whole rows (read, change one member, write
every column) would put back what the other instance had just changed (a lost update). Each
PATCH answer is checked at once too: it must show, of the other members, a value no older than
the last one acknowledged before the PATCH was sent. Every request is noted in LEDGER before it
is sent and after a 2xx (write_ledger.py). Exits 1 on any answer other than 2xx, on any broken
connection (unless --kill-round: then a broken connection stops every writer, as in crash.py),
on a stale answer, or when nothing was acknowledged.

`check`, once the writers have stopped (the ledger may hold several runs): reads every person and
article of each run through both instances (they must agree) and, with --psql, straight from the
database (`psql ARGUMENTS -At -c ...`; they must agree too), then: every acknowledged create is
there once, exactly as sent; every member of every shared article holds the last acknowledged
value its writer sent (or, after a kill, the one it sent after that, unanswered); every
acknowledged batch is wholly there, and no batch is half there; nothing else carries the stamp.
Prints `two instances: N writes sent (A: x, B: y), M acknowledged, L lost updates, P problems`
(L: members of shared articles not as last acknowledged, through any reading)
and exits 1 on any failure. Standard library only (and the psql client with --psql).
"""
import json
import shlex
import subprocess
import sys
import threading
import time
import uuid

from jsonapi_http import MEDIA, exchange
from write_ledger import (
    Ledger, Writers, author_of, batch_ids, every_page, get_document, read_ledger, send_batch,
    write_problems)

SHARED = 6  # shared articles; the author writer of A takes the first half, B's the rest
PEOPLE = 5
MEMBERS = ("title", "body", "author")


def request(base, method, path, document=None):
    return lambda: exchange(base, method, path, document, MEDIA, timeout=10)


def article_document(title, body, author):
    return {"data": {"type": "articles", "attributes": {"title": title, "body": body},
                     "relationships": {"author": {"data": {"type": "people", "id": author}}}}}


def setup(a, b, stamp):
    """The run's people (through B) and shared articles (through A), as a ledger entry."""
    people = []
    for number in range(PEOPLE):
        status, data = exchange(b, "POST", "/people", {"data": {
            "type": "people", "attributes": {"name": "%s person %d;" % (stamp, number)}}})
        if status != 201:
            raise SystemExit("setup: POST /people answered %d: %s" % (status, data[:300]))
        people.append(json.loads(data)["data"]["id"])
    shared = []
    for number in range(SHARED):
        values = {"title": "%s shared %d;" % (stamp, number), "body": "%s shared %d body;"
                  % (stamp, number), "author": people[number % PEOPLE]}
        status, data = exchange(a, "POST", "/articles", article_document(
            values["title"], values["body"], values["author"]))
        if status != 201:
            raise SystemExit("setup: POST /articles answered %d: %s" % (status, data[:300]))
        values["id"] = json.loads(data)["data"]["id"]
        shared.append(values)
    return {"run": stamp, "people": people, "shared": shared}


def write(a, b, ledger_path, seconds, kill_round):
    stamp = "two-" + uuid.uuid4().hex[:8]
    ledger = Ledger(ledger_path)
    run = setup(a, b, stamp)
    ledger.note(run)
    people, shared = run["people"], run["shared"]
    writers = Writers(ledger, seconds, kill_round)
    bases = {"A": a, "B": b}

    # What each writer of a shared member has sent, in order (the setup's value first), and the
    # index of the last one acknowledged: what any later answer must show at least.
    lock = threading.Lock()
    history = {(s["id"], member): [s[member]] for s in shared for member in MEMBERS}
    acknowledged = {key: 0 for key in history}
    stale = []

    def check_answer(key, article, floors, document):
        """A PATCH answer (the whole article) against what was acknowledged before it was sent."""
        resource = document["data"]
        shown = {"title": resource["attributes"].get("title"),
                 "body": resource["attributes"].get("body"), "author": author_of(resource)}
        with lock:
            for member, floor in floors.items():
                allowed = history[(article, member)][floor:]
                if shown[member] not in allowed:
                    stale.append("%s: articles/%s answered %s %r, but %r had been acknowledged "
                                  "before it was sent" % (key, article, member, shown[member],
                                                          allowed[0]))

    def creator(instance):
        base, sequence = bases[instance], 0
        while writers.going():
            sequence += 1
            key = "%s %s-create #%d;" % (stamp, instance, sequence)
            body, author = "created by %s #%d" % (instance, sequence), people[sequence % PEOPLE]
            entry = {"sent": key, "run": stamp, "instance": instance, "kind": "create",
                     "title": key, "body": body, "author": author}
            answer = writers.send(entry, request(base, "POST", "/articles",
                                                 article_document(key, body, author)),
                                  lambda document: {"article": document["data"]["id"]})
            if answer is None:
                return

    def patcher(instance, member, articles, endpoint="resource"):
        base, sequence = bases[instance], 0
        while writers.going():
            sequence += 1
            article = articles[sequence % len(articles)]["id"]
            key = "%s %s-%s #%d;" % (stamp, instance, member, sequence)
            # An author other than the one before (the writer's previous value for the article).
            value = key if member != "author" else \
                people[(sequence // len(articles)) % PEOPLE]
            with lock:
                history[(article, member)].append(value)
                index = len(history[(article, member)]) - 1
                floors = {other: acknowledged[(article, other)]
                          for other in MEMBERS if other != member}
            if endpoint == "relationship":
                call = request(base, "PATCH", "/articles/%s/relationships/author" % article,
                               {"data": {"type": "people", "id": value}})
            elif member == "author":
                call = request(base, "PATCH", "/articles/" + article, {"data": {
                    "type": "articles", "id": article,
                    "relationships": {"author": {"data": {"type": "people", "id": value}}}}})
            else:
                call = request(base, "PATCH", "/articles/" + article, {"data": {
                    "type": "articles", "id": article, "attributes": {member: value}}})
            entry = {"sent": key, "run": stamp, "instance": instance, "kind": "patch",
                     "article": article, "member": member, "value": value}
            answer = writers.send(entry, call)
            if answer is None:
                return
            with lock:
                acknowledged[(article, member)] = index
            status, document = answer
            if document is not None:
                if (author_of(document["data"]) if member == "author"
                        else document["data"]["attributes"].get(member)) != value:
                    writers.problem("%s: the answer shows %s other than sent" % (key, member))
                    return
                check_answer(key, article, floors, document)

    def batcher(instance):
        base, sequence = bases[instance], 0
        while writers.going():
            sequence += 1
            key = "%s %s-batch #%d;" % (stamp, instance, sequence)
            entry = {"sent": key, "run": stamp, "instance": instance, "kind": "batch",
                     "name": key, "body": "batched " + key}
            answer = writers.send(entry, lambda: send_batch(base, key, "batched " + key),
                                  batch_ids)
            if answer is None:
                return

    half = SHARED // 2
    started = time.monotonic()
    writers.run([
        lambda: creator("A"), lambda: patcher("A", "title", shared),
        lambda: patcher("A", "author", shared[:half]), lambda: batcher("A"),
        lambda: creator("B"), lambda: patcher("B", "body", shared),
        lambda: patcher("B", "author", shared[half:], "relationship"), lambda: batcher("B"),
    ])
    elapsed = time.monotonic() - started
    sent = writers.sent
    print("two instances writers: %d writes sent in %.1f s (A: %d, B: %d), %d acknowledged, "
          "%d broken connections, %d stale answers, %d unexpected answers"
          % (sum(sent.values()), elapsed, sent.get("A", 0), sent.get("B", 0),
             writers.acknowledged, writers.broken, len(stale), len(writers.problems)))
    for line in (writers.problems + stale)[:20]:
        print("  " + line)
    return 0 if writers.acknowledged and not writers.problems and not stale else 1


def stored(resources, kind):
    """id -> what is checked of each resource, from the API's resources."""
    if kind == "people":
        return {r["id"]: (r["attributes"]["name"],) for r in resources}
    return {r["id"]: (r["attributes"]["title"], r["attributes"].get("body"), author_of(r))
            for r in resources}


def psql(arguments, sql):
    command = ["psql", *shlex.split(arguments), "-X", "-q", "-At", "-F", "\x1f", "-R", "\x1e",
               "-v", "ON_ERROR_STOP=1", "-c", sql]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        raise SystemExit("psql failed (%s): %s" % (sql, result.stderr.strip()))
    text = result.stdout.rstrip("\n")
    return [row.split("\x1f") for row in text.split("\x1e")] if text else []


def from_database(arguments, stamp):
    """The run's articles and people straight from the database, as stored() gives them."""
    literal = "'%s'" % stamp  # a stamp is letters, digits and a dash
    articles = {row[0]: (row[1], None if row[2] == "t" else row[3], row[4] or None)
                for row in psql(arguments, "SELECT id, title, body IS NULL, coalesce(body, ''), "
                                "coalesce(author_id::text, '') FROM articles "
                                "WHERE strpos(title, %s) > 0 ORDER BY id" % literal)}
    people = {row[0]: (row[1],) for row in psql(
        arguments, "SELECT id, name FROM people WHERE strpos(name, %s) > 0 ORDER BY id" % literal)}
    return articles, people


def differences(first, second, what):
    lines = []
    for key in sorted(set(first) | set(second), key=lambda k: (len(k), k)):
        if first.get(key) != second.get(key):
            lines.append("%s %s: %r against %r" % (what, key, first.get(key), second.get(key)))
    return lines


def check(a, b, ledger_path, psql_arguments):
    entries = read_ledger(ledger_path)
    runs = [entry for entry in entries if "shared" in entry]
    sent = [entry for entry in entries if "sent" in entry]
    acked = {entry["acknowledged"]: entry for entry in entries if "acknowledged" in entry}
    problems, lost, lost_members = [], [], set()
    for run in runs:
        stamp = run["run"]
        mine = [entry for entry in sent if entry["run"] == stamp]
        # What the two instances serve of the run, and what the database holds: all the same.
        views = {}
        for name, base in (("A", a), ("B", b)):
            views[name] = (stored(every_page(base, "articles", "title", stamp), "articles"),
                           stored(every_page(base, "people", "name", stamp), "people"))
        for index, kind in enumerate(("articles", "people")):
            problems += ["A and B differ on " + line for line in
                         differences(views["A"][index], views["B"][index], kind)]
        articles, people = views["A"]
        if psql_arguments is not None:
            database = from_database(psql_arguments, stamp)
            for index, kind in enumerate(("articles", "people")):
                problems += ["the API and the database differ on " + line for line in
                             differences(views["A"][index], database[index], kind)]
        # Shared articles: each member the last value acknowledged to its one writer (or one
        # sent after it, unanswered, when the writers were cut short).
        values = {(s["id"], member): [s[member]] for s in run["shared"] for member in MEMBERS}
        last = {key: 0 for key in values}
        for entry in mine:
            if entry["kind"] == "patch":
                key = (entry["article"], entry["member"])
                values[key].append(entry["value"])
                if entry["sent"] in acked:
                    last[key] = len(values[key]) - 1
        for s in run["shared"]:
            readings = {"A list": articles.get(s["id"])}
            for name, base in (("A", a), ("B", b)):
                resource = get_document(base, "/articles/" + s["id"])["data"]
                readings[name] = stored([resource], "articles")[s["id"]]
            if psql_arguments is not None:
                readings["database"] = database[0].get(s["id"])
            for reading, held in readings.items():
                if held is None:
                    problems.append("shared articles/%s missing (%s)" % (s["id"], reading))
                    continue
                for position, member in enumerate(MEMBERS):
                    allowed = values[(s["id"], member)][last[(s["id"], member)]:]
                    if held[position] not in allowed:
                        lost_members.add((s["id"], member))
                        lost.append("articles/%s %s is %r (%s), its writer was last told %r"
                                    % (s["id"], member, held[position], reading, allowed[0]))
        # Creates and batches: by exact title and name.
        by_title, by_name = {}, {}
        for article, value in articles.items():
            by_title.setdefault(value[0], []).append(
                {"id": article, "attributes": {"title": value[0], "body": value[1]},
                 "relationships": {"author": {"data": value[2] and {"id": value[2]}}}})
        for person, value in people.items():
            by_name.setdefault(value[0], []).append({"id": person})
        explained = {s["id"] for s in run["shared"]}
        explained_people = set(run["people"])
        for entry in mine:
            if entry["kind"] == "create":
                found = by_title.get(entry["title"], [])
                problems += write_problems(entry["sent"], False, entry["sent"] in acked, found,
                                           [], entry["body"], entry["author"],
                                           acked.get(entry["sent"]))
                explained.update(resource["id"] for resource in found)
            elif entry["kind"] == "batch":
                found = by_title.get(entry["name"], [])
                found_people = by_name.get(entry["name"], [])
                problems += write_problems(entry["sent"], True, entry["sent"] in acked, found,
                                           found_people, entry["body"],
                                           ids=acked.get(entry["sent"]))
                explained.update(resource["id"] for resource in found)
                explained_people.update(resource["id"] for resource in found_people)
        problems += ["articles/%s %r was never sent" % (article, articles[article][0])
                     for article in set(articles) - explained]
        problems += ["people/%s %r was never sent" % (person, people[person][0])
                     for person in set(people) - explained_people]
    counted = {"A": 0, "B": 0}
    for entry in sent:
        counted[entry["instance"]] += 1
    if not runs or not acked:
        problems.append("the ledger holds no run, or nothing acknowledged")
    print("two instances: %d writes sent (A: %d, B: %d), %d acknowledged, %d lost updates, "
          "%d problems" % (len(sent), counted["A"], counted["B"], len(acked),
                           len(lost_members), len(problems)))
    for line in (lost + problems)[:20]:
        print("  " + line)
    return 1 if lost or problems else 0


def main(arguments):
    usage = __doc__.split("\n\n")[1]
    if len(arguments) < 4 or arguments[0] not in ("write", "check"):
        raise SystemExit("usage:\n" + usage)
    mode, a, b, ledger = arguments[0], arguments[1].rstrip("/"), arguments[2].rstrip("/"), \
        arguments[3]
    if mode == "write":
        if len(arguments) not in (5, 6) or arguments[5:] not in ([], ["--kill-round"]):
            raise SystemExit("usage:\n" + usage)
        return write(a, b, ledger, float(arguments[4]), arguments[5:] == ["--kill-round"])
    if len(arguments) == 4:
        return check(a, b, ledger, None)
    if len(arguments) == 6 and arguments[4] == "--psql":
        return check(a, b, ledger, arguments[5])
    raise SystemExit("usage:\n" + usage)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
