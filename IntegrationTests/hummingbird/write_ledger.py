"""Writers that keep a ledger, and the checks of what they wrote, shared by crash.py and
two_instances.py (Scripts/hummingbird.sh, Scripts/postgres.sh). Standard library only.

The ledger is a file of JSON lines: {"sent": KEY, ...} before a request goes out and
{"acknowledged": KEY, ...} after a 2xx answer, each written and flushed at once, so that what a
client was told survives whatever happens to the server afterwards.
"""
import http.client
import json
import threading
import time
import urllib.parse

from jsonapi_http import ATOMIC, exchange

# What a server that went away (kill -9) leaves a client with: a refused or reset connection, an
# answer cut short, a timeout. (urllib.error.URLError and ConnectionError are OSErrors.)
BROKEN = (OSError, http.client.HTTPException)


class Ledger:
    """Appends entries to the ledger at `path`, one JSON line each, flushed at once; thread-safe."""

    def __init__(self, path):
        self.file = open(path, "a")
        self.lock = threading.Lock()

    def note(self, entry):
        with self.lock:
            self.file.write(json.dumps(entry) + "\n")
            self.file.flush()


def read_ledger(path):
    """The entries of the ledger at `path`, in the order they were written."""
    with open(path) as lines:
        return [json.loads(line) for line in lines if line.strip()]


class Writers:
    """Writer threads that stop at a deadline, at the first unexpected answer, or, in a kill round,
    at the first broken connection (the server went away: every writer stops, on every server).

    Outside a kill round a broken connection is a failure like any answer other than 2xx."""

    def __init__(self, ledger, seconds, kill_round):
        self.ledger = ledger
        self.deadline = time.monotonic() + seconds
        self.kill_round = kill_round
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.sent = {}  # instance (the entry's "instance", or None) -> requests sent
        self.acknowledged = 0
        self.broken = 0
        self.problems = []

    def going(self):
        return not self.stop.is_set() and time.monotonic() < self.deadline

    def problem(self, text):
        with self.lock:
            self.problems.append(text)
        self.stop.set()

    def send(self, entry, call, acknowledgement=None):
        """Notes `entry` (with "sent": KEY) as sent, runs `call()` -> (status, body bytes), and
        after a 2xx notes {"acknowledged": KEY} with what `acknowledgement(document)` adds (ids).

        Returns (status, document or None) after a 2xx; None when the writer must stop."""
        if not self.going():
            return None
        self.ledger.note(entry)
        with self.lock:
            instance = entry.get("instance")
            self.sent[instance] = self.sent.get(instance, 0) + 1
        try:
            status, data = call()
        except BROKEN as error:
            if self.kill_round:
                with self.lock:
                    self.broken += 1
                self.stop.set()
            else:
                self.problem("%s: %s" % (entry["sent"], error))
            return None
        if not 200 <= status < 300:
            self.problem("%s answered %d: %s" % (entry["sent"], status, data[:300]))
            return None
        try:
            document = json.loads(data) if data else None
        except ValueError:
            self.problem("%s answered %d with a body that is no JSON" % (entry["sent"], status))
            return None
        mark = {"acknowledged": entry["sent"]}
        if acknowledgement is not None:
            try:
                mark.update(acknowledgement(document))
            except (KeyError, IndexError, TypeError) as error:
                self.problem("%s: unexpected answer %r (%s)" % (entry["sent"], document, error))
                return None
        self.ledger.note(mark)
        with self.lock:
            self.acknowledged += 1
        return status, document

    def run(self, clients):
        """Runs each callable of `clients` (it loops while going()) on a thread of its own."""
        threads = [threading.Thread(target=client) for client in clients]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()


def person_and_article_batch(name, body=None):
    """An Atomic Operations request: a person named `name` and an article titled `name` by that
    person (by `lid`), and, when `body` is given, an update of that article (by `lid`) to it."""
    operations = [
        {"op": "add", "data": {"type": "people", "lid": "p", "attributes": {"name": name}}},
        {"op": "add", "data": {
            "type": "articles", "lid": "a", "attributes": {"title": name},
            "relationships": {"author": {"data": {"type": "people", "lid": "p"}}}}},
    ]
    if body is not None:
        operations.append({"op": "update", "data": {
            "type": "articles", "lid": "a", "attributes": {"body": body}}})
    return {"atomic:operations": operations}


def batch_ids(document):
    """The ledger's record of an acknowledged batch: the ids its results gave."""
    results = document["atomic:results"]
    return {"person": results[0]["data"]["id"], "article": results[1]["data"]["id"]}


def send_batch(base, name, body=None, timeout=10):
    return exchange(base, "POST", "/operations", person_and_article_batch(name, body), ATOMIC,
                    timeout=timeout)


def author_of(resource):
    """The id of an article's author (None for none), from its relationships' linkage."""
    data = (resource.get("relationships") or {}).get("author", {}).get("data")
    return data["id"] if data else None


def get_document(base, path, timeout=30):
    status, data = exchange(base, "GET", path, timeout=timeout)
    if status != 200:
        raise SystemExit("GET %s%s answered %d: %s" % (base, path, status, data[:300]))
    return json.loads(data)


def find(base, collection, member, name):
    """The resources of `collection` whose `member` is exactly `name` (a filter, then equality)."""
    query = urllib.parse.urlencode({"filter[%s]" % member: name, "page[size]": "50"})
    found = get_document(base, "/%s?%s" % (collection, query))["data"]
    return [resource for resource in found if resource["attributes"][member] == name]


def every_page(base, collection, member, text):
    """Every resource of `collection` whose `member` contains `text`, following `next` links
    (taken relative to `base`, whatever host the server's BASE_URL gives them)."""
    query = urllib.parse.urlencode({"filter[%s]" % member: text, "page[size]": "50"})
    path, resources, total, seen = "/%s?%s" % (collection, query), [], None, set()
    while path not in seen:
        seen.add(path)
        document = get_document(base, path)
        resources.extend(document["data"])
        total = document.get("meta", {}).get("page", {}).get("total", total)
        following = (document.get("links") or {}).get("next")
        if not following or not document["data"]:
            break
        parts = urllib.parse.urlsplit(following)
        path = parts.path + ("?" + parts.query if parts.query else "")
    else:
        raise SystemExit("%s%s: links.next leads back to %s" % (base, collection, path))
    if total is not None and total != len(resources):
        raise SystemExit("%s%s: the pages hold %d resources, meta.page.total says %d"
                         % (base, collection, len(resources), total))
    return resources


def write_problems(name, batch, acknowledged, articles, people, body, author=None, ids=None):
    """What is wrong with what is stored of one write named `name` (an article titled `name`, or
    for a batch also a person named `name`): `articles` and `people` are the stored resources
    with that exact title and name, `body` the article's expected body, `author` a created
    article's expected author id, `ids` what the acknowledgement gave (None if unknown)."""
    problems = []
    if acknowledged and len(articles) != 1:
        problems.append("acknowledged %r: %d articles" % (name, len(articles)))
    if len(articles) > 1 or len(people) > 1:
        problems.append("%r stored more than once" % name)
    if batch and len(articles) != len(people):
        problems.append("batch %r half applied: %d article, %d person"
                        % (name, len(articles), len(people)))
    if len(articles) == 1:
        article = articles[0]
        if article["attributes"].get("body") != body:
            problems.append("%r stored with body %r, sent %r"
                            % (name, article["attributes"].get("body"), body))
        if ids and ids.get("article") not in (None, article["id"]):
            problems.append("%r acknowledged as articles/%s, stored as articles/%s"
                            % (name, ids["article"], article["id"]))
        if batch and len(people) == 1:
            if author_of(article) != people[0]["id"]:
                problems.append("batch %r: the article's author is not its person" % name)
            if ids and ids.get("person") not in (None, people[0]["id"]):
                problems.append("batch %r acknowledged people/%s, stored people/%s"
                                % (name, ids["person"], people[0]["id"]))
        if not batch and author_of(article) != author:
            problems.append("%r stored with author %r, sent %r"
                            % (name, author_of(article), author))
    return problems
