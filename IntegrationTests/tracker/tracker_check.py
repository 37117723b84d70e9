#!/usr/bin/env python3
"""The pinned rules of Examples/TrackerServer (issue 46 item 7), checked over HTTP from outside,
for Scripts/tracker.sh. Standard library only; it knows the rules and the seed, not the code.

    tracker_check.py run BASE_URL DATABASE_PATH STATE     on a freshly seeded server
    tracker_check.py restarted BASE_URL DATABASE_PATH STATE   after a restart on the same file

`run` tries every rule, with every user it should stop, and writes what it changed to STATE;
`restarted` checks that the data is still there and that the seed was not written again.
DATABASE_PATH is read (never written) with sqlite3 only to see that a cascade deleted rows,
which no user can tell over HTTP from rows hidden from them.

Each rule prints PASS or FAIL with why; the exit status is 1 when any failed. Every response
body is also scanned, for the user who asked, for any resource they may not see: an identifier
object (`type` and `id`) or a `/users/N`, `/projects/N`, `/tasks/N` anywhere in its text.
"""
import json
import re
import sqlite3
import sys
import urllib.error
import urllib.request

MEDIA = "application/vnd.api+json"
ATOMIC = MEDIA + ';ext="https://jsonapi.org/ext/atomic"'
TOKENS = {"ann": "tok-ann", "bob": "tok-bob", "cat": "tok-cat"}
IDS = {"ann": "1", "bob": "2", "cat": "3"}
NOBODY = "999999"

MODE, BASE, DATABASE, STATE = sys.argv[1], sys.argv[2].rstrip("/"), sys.argv[3], sys.argv[4]

# What each user may see, from the rules and the seed; resources the run creates are added.
SEEN = {
    "ann": {("users", "1"), ("users", "2"), ("projects", "1"), ("projects", "3"),
            ("tasks", "1"), ("tasks", "3"), ("tasks", "4")},
    "bob": {("users", "1"), ("users", "2"), ("projects", "2"), ("projects", "3"),
            ("tasks", "2"), ("tasks", "3"), ("tasks", "4")},
    "cat": {("users", "3"), ("projects", "4"), ("tasks", "5")},
}
# Every resource the rules hide from someone: the seed, and what the run creates.
KNOWN = set().union(*SEEN.values())

failures = []
passes = 0
leaks = []


def check(condition, what):
    global passes
    if condition:
        passes += 1
        print("PASS " + what)
    else:
        failures.append(what)
        print("FAIL " + what)
    return condition


class Reply:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body
        self.text = body.decode("utf-8", "replace")
        try:
            self.json = json.loads(self.text) if self.text else None
        except ValueError:
            self.json = None

    def data(self):
        return (self.json or {}).get("data") if isinstance(self.json, dict) else None

    def ids(self):
        data = self.data()
        if isinstance(data, list):
            return [r.get("id") for r in data]
        return [data.get("id")] if isinstance(data, dict) else []

    def pointer(self):
        try:
            return self.json["errors"][0]["source"]["pointer"]
        except (KeyError, IndexError, TypeError):
            return None

    def attribute(self, name):
        data = self.data()
        return data.get("attributes", {}).get(name) if isinstance(data, dict) else None

    def linkage(self, name):
        data = self.data()
        try:
            return data["relationships"][name]["data"]
        except (KeyError, TypeError):
            return None


def named(reply):
    """Every resource the body names: identifier objects, and /type/N in its text."""
    found = set()
    stack = [reply.json]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if isinstance(value.get("type"), str) and isinstance(value.get("id"), str):
                found.add((value["type"], value["id"]))
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    for type_, id_ in re.findall(r"(users|projects|tasks)/(\d+)", reply.text):
        found.add((type_, id_))
    return found


def send(user, method, path, body=None, atomic=False, token=None, scan=True, sent_id=None):
    """`method path` as `user` (None: no Authorization; token: that token instead)."""
    media = ATOMIC if atomic else MEDIA
    headers = {"Accept": media}
    if token is not None:
        headers["Authorization"] = "Bearer " + token
    elif user is not None:
        headers["Authorization"] = "Bearer " + TOKENS[user]
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = media
    request = urllib.request.Request(BASE + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            reply = Reply(response.status, dict(response.headers), response.read())
    except urllib.error.HTTPError as error:
        reply = Reply(error.code, dict(error.headers), error.read())
    if user is not None and scan:
        # An id the request itself sent may come back in an error about it (never-existing ids
        # say the same): it is not a leak.
        hidden = {n for n in named(reply) if n in KNOWN and n not in SEEN[user]
                  and n[1] != sent_id}
        if hidden:
            leaks.append("%s %s %s as %s named %s" % (method, path, reply.status, user,
                                                        sorted(hidden)))
    return reply


def ref(type_, id_):
    return {"type": type_, "id": id_}


def task_body(title, project, assignee=None, **attributes):
    relationships = {"project": {"data": ref("projects", project)}}
    if assignee:
        relationships["assignee"] = {"data": ref("users", assignee)}
    values = {"title": title, "done": False, "priority": 2}
    values.update(attributes)
    return {"data": {"type": "tasks", "attributes": values, "relationships": relationships}}


def same_as_nobody(user, path, hidden_id, method="GET", body_of=None):
    """The hidden id's answer is 404 and the never-existing id's, the id aside."""
    hidden = send(user, method, path % hidden_id, body_of(hidden_id) if body_of else None,
                  sent_id=hidden_id)
    nobody = send(user, method, path % NOBODY, body_of(NOBODY) if body_of else None,
                  sent_id=NOBODY)
    return (hidden.status == 404 and nobody.status == 404
            and hidden.text == nobody.text.replace(NOBODY, hidden_id)), hidden


# ---------------------------------------------------------------------------------------------

def authentication():
    paths = ["/users", "/users/1", "/projects", "/projects/1", "/projects/1/tasks",
             "/projects/1/relationships/members", "/tasks", "/tasks/1?include=project",
             "/users/1/relationships/ownedProjects"]
    for label, token in [("no token", None), ("an unknown token", "tok-nobody")]:
        refused = []
        for path in paths:
            reply = send(None, "GET", path, token=token)
            challenge = reply.headers.get("WWW-Authenticate", "")
            ok = (reply.status == 401 and challenge.lower().startswith("bearer")
                  and reply.json and reply.json.get("errors", [{}])[0].get("status") == "401"
                  and "data" not in reply.json)
            if not ok:
                refused.append("%s -> %s" % (path, reply.status))
        check(not refused, "401 with WWW-Authenticate and an error document for %s on every "
              "resource path %s" % (label, refused or ""))
        writes = [
            send(None, "POST", "/projects", {"data": {"type": "projects",
                                                      "attributes": {"name": "x"}}}, token=token),
            send(None, "DELETE", "/tasks/1", token=token),
            send(None, "POST", "/operations", {"atomic:operations": [
                {"op": "remove", "ref": ref("projects", "1")}]}, atomic=True, token=token),
        ]
        check(all(w.status == 401 for w in writes),
              "401 for writes and /operations with %s: %s" % (label, [w.status for w in writes]))
    check(send("ann", "GET", "/tasks/1").status == 200, "the refused writes changed nothing")


def visibility():
    for user in TOKENS:
        for type_ in ["users", "projects", "tasks"]:
            reply = send(user, "GET", "/" + type_)
            expected = sorted(i for t, i in SEEN[user] if t == type_)
            total = ((reply.json or {}).get("meta") or {}).get("page", {}).get("total")
            check(reply.status == 200 and sorted(reply.ids()) == expected,
                  "%s lists %s %s (got %s)" % (user, type_, expected, sorted(reply.ids())))
            check(total == len(expected), "%s: meta.page.total of %s is %s (got %s)"
                  % (user, type_, len(expected), total))
    paths = [
        "/users?include=ownedProjects,assigned", "/users/1?include=ownedProjects.tasks",
        "/users/2?include=ownedProjects,assigned", "/users/2/ownedProjects",
        "/users/2/assigned", "/users/2/relationships/ownedProjects",
        "/users/2/relationships/assigned", "/users/1/relationships/ownedProjects",
        "/users/3/relationships/assigned", "/projects?include=owner,members,tasks.assignee",
        "/projects/3?include=tasks", "/projects/3/tasks", "/projects/3/members",
        "/projects/3/owner", "/projects/3/relationships/tasks",
        "/projects/4/relationships/members", "/tasks?include=project.owner,assignee.ownedProjects",
        "/tasks?include=project.members,assignee.assigned", "/tasks/4?include=assignee.assigned",
        "/tasks/5/assignee", "/tasks/3/relationships/project",
    ]
    for user in TOKENS:
        for path in paths:
            send(user, "GET", path)
    owned = send("ann", "GET", "/users/2/relationships/ownedProjects")
    check(owned.status == 200 and owned.ids() == ["3"],
          "ann sees bob's ownedProjects linkage as [3] only (got %s)" % owned.ids())
    assigned = send("ann", "GET", "/users/2/assigned")
    check(assigned.ids() == ["4"], "ann sees bob's assigned as [4] only (got %s)"
          % assigned.ids())
    members = send("bob", "GET", "/projects/3/members")
    check(members.ids() == ["1"], "bob sees project 3's members [1] (got %s)" % members.ids())


def not_found():
    hidden = [("ann", "projects", "2"), ("ann", "tasks", "2"), ("ann", "tasks", "5"),
              ("ann", "users", "3"), ("bob", "projects", "1"), ("bob", "tasks", "1"),
              ("bob", "users", "3"), ("cat", "projects", "3"), ("cat", "tasks", "4"),
              ("cat", "users", "1"), ("cat", "users", "2")]
    related = {"users": "ownedProjects", "projects": "tasks", "tasks": "project"}
    for user, type_, id_ in hidden:
        for suffix in ["", "/" + related[type_], "/relationships/" + related[type_]]:
            same, reply = same_as_nobody(user, "/%s/%%s%s" % (type_, suffix), id_)
            check(same, "%s: GET /%s/%s%s is 404, as an id nobody has (got %s)"
                  % (user, type_, id_, suffix, reply.status))
        same, reply = same_as_nobody(
            user, "/%s/%%s" % type_, id_, method="PATCH",
            body_of=lambda i, t=type_: {"data": {"type": t, "id": i, "attributes": {}}})
        check(same, "%s: PATCH /%s/%s is 404, as an id nobody has (got %s)"
              % (user, type_, id_, reply.status))
        if type_ != "users":
            same, reply = same_as_nobody(user, "/%s/%%s" % type_, id_, method="DELETE")
            check(same, "%s: DELETE /%s/%s is 404, as an id nobody has (got %s)"
                  % (user, type_, id_, reply.status))


def filters_and_sorting():
    cases = [
        ("ann", "/projects?filter%5Bname%5D=bob", []),
        ("bob", "/projects?filter%5Bname%5D=bob", ["2"]),
        ("ann", "/projects?filter%5Bname%5D=s", ["1", "3"]),
        ("ann", "/users?filter%5Bname%5D=a", ["1"]),
        ("cat", "/users?filter%5Bname%5D=a", ["3"]),
        ("ann", "/tasks?filter%5Bproject%5D=2,3", ["3", "4"]),
        ("cat", "/tasks?filter%5Bproject%5D=1,2,3,4", ["5"]),
        ("bob", "/tasks?filter%5Bdone%5D=false", ["2", "3", "4"]),
        ("bob", "/tasks?filter%5Bdone%5D=true", []),
    ]
    for user, path, expected in cases:
        reply = send(user, "GET", path)
        check(reply.status == 200 and sorted(reply.ids()) == expected,
              "%s: %s finds %s (got %s %s)" % (user, path, expected, reply.status,
                                                sorted(reply.ids())))
    ordered = [
        ("ann", "/tasks?sort=-priority,title", ["1", "4", "3"]),
        ("ann", "/tasks?sort=title", ["1", "4", "3"]),
        ("bob", "/projects?sort=-name", ["3", "2"]),
        ("ann", "/users?sort=name", ["1", "2"]),
    ]
    for user, path, expected in ordered:
        reply = send(user, "GET", path)
        check(reply.ids() == expected, "%s: %s orders %s (got %s)"
              % (user, path, expected, reply.ids()))
    due = send("bob", "GET", "/tasks?sort=-due")
    check(due.status == 200 and due.ids()[:1] == ["4"],
          "bob: sort=-due puts the one dated task first (got %s)" % due.ids())
    for path in ["/users?filter%5Bemail%5D=bob", "/users?sort=email", "/users?sort=-email"]:
        reply = send("ann", "GET", path)
        check(reply.status == 400 and "bob@example.com" not in reply.text,
              "ann: %s is 400 (got %s)" % (path, reply.status))


def email():
    listed = send("ann", "GET", "/users")
    emails = {r.get("id"): r.get("attributes", {}).get("email")
              for r in (listed.data() or [])}
    check(emails == {"1": "ann@example.com", "2": None},
          "ann is served her own email and not bob's (got %s)" % emails)
    for user, path in [("bob", "/projects/3?include=members,owner"),
                       ("ann", "/tasks?include=assignee"), ("bob", "/users/1"),
                       ("ann", "/projects?include=owner")]:
        reply = send(user, "GET", path)
        others = [e for u, e in [("ann", "ann@example.com"), ("bob", "bob@example.com"),
                                 ("cat", "cat@example.com")] if u != user and e in reply.text]
        check(reply.status == 200 and not others,
              "%s: %s serves no one else's email (got %s)" % (user, path, others))


def overdue():
    tasks = send("bob", "GET", "/tasks")
    values = {r.get("id"): r.get("attributes", {}).get("overdue") for r in (tasks.data() or [])}
    check(values == {"2": False, "3": False, "4": True},
          "overdue is computed: only task 4 (due 2020, not done) (got %s)" % values)
    due = send("bob", "GET", "/tasks/4").attribute("due")
    check(due == "2020-01-01T00:00:00Z", "due is ISO 8601 (got %s)" % due)


def description():
    reply = send(None, "GET", "/openapi.json")
    document = reply.json or {}
    schemes = document.get("components", {}).get("securitySchemes", {})
    bearer = [name for name, s in schemes.items()
              if s.get("type") == "http" and s.get("scheme", "").lower() == "bearer"]
    check(reply.status == 200 and bool(bearer),
          "/openapi.json names a bearer scheme in components.securitySchemes (got %s)" % schemes)
    missing = []
    operations = 0
    for path, item in document.get("paths", {}).items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            operations += 1
            names = [n for requirement in operation.get("security", []) for n in requirement]
            if not set(names) & set(bearer):
                missing.append("%s %s security" % (method, path))
            for status in ["401", "403", "404"]:
                if status not in operation.get("responses", {}):
                    missing.append("%s %s %s" % (method, path, status))
    check(operations > 0 and not missing,
          "every operation (%d) has security and 401/403/404 answers %s"
          % (operations, missing[:5] or ""))
    attributes = document.get("components", {}).get("schemas", {}).get("TasksAttributes", {})
    overdue = attributes.get("properties", {}).get("overdue", {})
    check(overdue.get("readOnly") is True, "overdue is readOnly in the description (got %s)"
          % overdue)


def projects():
    created = send("cat", "POST", "/projects",
                   {"data": {"type": "projects", "attributes": {"name": "Cat's own"}}})
    owner = created.linkage("owner") or {}
    check(created.status == 201 and owner.get("id") == "3",
          "a create without owner makes the requester its owner (got %s %s)"
          % (created.status, owner))
    if created.status == 201:
        own = created.ids()[0]
        SEEN["cat"].add(("projects", own))
        KNOWN.add(("projects", own))
    named_self = send("ann", "POST", "/projects", {"data": {
        "type": "projects", "attributes": {"name": "Ann's second"},
        "relationships": {"owner": {"data": ref("users", "1")}}}})
    check(named_self.status == 201, "a create naming the requester as owner is 201 (got %s)"
          % named_self.status)
    if named_self.status == 201:
        SEEN["ann"].add(("projects", named_self.ids()[0]))
        KNOWN.add(("projects", named_self.ids()[0]))
    other = send("ann", "POST", "/projects", {"data": {
        "type": "projects", "attributes": {"name": "For bob"},
        "relationships": {"owner": {"data": ref("users", "2")}}}})
    check(other.status == 403, "a create naming another owner is 403 (got %s)" % other.status)
    chosen = send("ann", "POST", "/projects", {"data": {
        "type": "projects", "id": "77", "attributes": {"name": "Chosen"}}})
    check(chosen.status == 403, "a client-chosen id is 403 (got %s)" % chosen.status)

    rename = {"data": {"type": "projects", "id": "3", "attributes": {"name": "Ours"}}}
    member_writes = [
        ("PATCH /projects/3 (rename)", send("ann", "PATCH", "/projects/3", rename)),
        ("PATCH /projects/3 members", send("ann", "PATCH", "/projects/3", {"data": {
            "type": "projects", "id": "3", "relationships": {"members": {"data": []}}}})),
        ("PATCH members endpoint", send("ann", "PATCH", "/projects/3/relationships/members",
                                        {"data": []})),
        ("POST members endpoint", send("ann", "POST", "/projects/3/relationships/members",
                                       {"data": [ref("users", "2")]})),
        ("DELETE members endpoint", send("ann", "DELETE", "/projects/3/relationships/members",
                                         {"data": [ref("users", "1")]})),
        ("DELETE /projects/3", send("ann", "DELETE", "/projects/3")),
        ("operations update", send("ann", "POST", "/operations", {"atomic:operations": [
            {"op": "update", "data": rename["data"]}]}, atomic=True)),
    ]
    for label, reply in member_writes:
        check(reply.status == 403, "a member's %s is 403 (got %s)" % (label, reply.status))
    shared = send("bob", "GET", "/projects/3")
    check(shared.attribute("name") == "Shared" and shared.linkage("members") == [ref("users", "1")],
          "project 3 unchanged by its member's attempts")
    check(send("bob", "PATCH", "/projects/3", {"data": {
        "type": "projects", "id": "3", "attributes": {"name": "Shared"}}}).status == 200,
        "the owner renames a project")
    owner_writes = [
        send("bob", "PATCH", "/projects/3", {"data": {
            "type": "projects", "id": "3", "relationships": {"owner": {"data": ref("users", "1")}}}}),
        send("bob", "PATCH", "/projects/3/relationships/owner", {"data": ref("users", "1")}),
        send("ann", "POST", "/users/1/relationships/ownedProjects",
             {"data": [ref("projects", "3")]}),
        send("bob", "PATCH", "/users/2/relationships/ownedProjects",
             {"data": [ref("projects", "2")]}),
    ]
    check(all(r.status == 403 for r in owner_writes),
          "owner is set on create only, through every path (got %s)"
          % [r.status for r in owner_writes])
    check((send("ann", "GET", "/projects/3").linkage("owner") or {}).get("id") == "2",
          "project 3 is still bob's")


def tasks():
    created = send("ann", "POST", "/tasks", task_body("Ann's shared", "3", assignee="2"))
    check(created.status == 201, "a member creates a task in the project (got %s %s)"
          % (created.status, created.text[:200]))
    new = created.ids()[0] if created.status == 201 else NOBODY
    for user in ["ann", "bob"]:
        SEEN[user].add(("tasks", new))
    KNOWN.add(("tasks", new))
    edit = send("ann", "PATCH", "/tasks/" + new,
                {"data": {"type": "tasks", "id": new, "attributes": {"done": True}}})
    check(edit.status == 200 and edit.attribute("done") is True,
          "a member edits a task (got %s)" % edit.status)
    check(send("ann", "PATCH", "/tasks/4", {"data": {"type": "tasks", "id": "4",
                                                     "attributes": {"priority": 5}}}).status == 200,
          "a member edits another's task of the project")
    outsider = send("bob", "POST", "/tasks", task_body("Nope", "2", assignee="1"))
    check(outsider.status == 422 and outsider.pointer() == "/data/relationships/assignee",
          "an assignee outside the project is 422 at the assignee (got %s %s)"
          % (outsider.status, outsider.pointer()))
    reassign = send("bob", "PATCH", "/tasks/2/relationships/assignee", {"data": ref("users", "1")})
    check(reassign.status == 422, "reassigning outside the project is 422 (got %s)"
          % reassign.status)
    mirrored = send("bob", "POST", "/users/1/relationships/assigned",
                    {"data": [ref("tasks", "2")]})
    # Refused by the assignee rule (422), or by the user's own rule (403: bob changes only
    # himself); either way nothing changes.
    check(mirrored.status in (403, 422)
          and (send("bob", "GET", "/tasks/2").linkage("assignee") or {}).get("id") == "2",
          "assigning through users/1/relationships/assigned outside the project is refused "
          "(got %s)" % mirrored.status)
    moves = [
        send("bob", "PATCH", "/tasks/3", {"data": {"type": "tasks", "id": "3", "relationships": {
            "project": {"data": ref("projects", "2")}}}}),
        send("bob", "PATCH", "/tasks/3/relationships/project", {"data": ref("projects", "2")}),
        send("bob", "POST", "/projects/2/relationships/tasks", {"data": [ref("tasks", "3")]}),
    ]
    check(all(r.status == 403 for r in moves),
          "project is set on create only, through every path (got %s)" % [r.status for r in moves])
    writes = [
        send("ann", "PATCH", "/tasks/1", {"data": {"type": "tasks", "id": "1",
                                                   "attributes": {"overdue": True}}}),
        send("ann", "POST", "/tasks", task_body("Over", "1", overdue=True)),
    ]
    check(all(r.status == 403 and (r.pointer() or "").endswith("/attributes/overdue")
              for r in writes),
          "writing overdue is refused at its pointer (got %s)" % [r.status for r in writes])
    check(send("ann", "GET", "/tasks/1").attribute("overdue") is False, "task 1 not overdue")
    bad = send("ann", "POST", "/tasks", task_body("Bad date", "1", due="tomorrow"))
    check(bad.status == 422 and bad.pointer() == "/data/attributes/due",
          "a due that is no ISO 8601 date is 422 at its pointer (got %s %s)"
          % (bad.status, bad.pointer()))
    deletes = send("ann", "DELETE", "/tasks/" + new)
    check(deletes.status == 403, "a member deletes no task (got %s)" % deletes.status)
    check(send("bob", "DELETE", "/tasks/" + new).status == 204, "the owner deletes a task")
    check(send("ann", "GET", "/tasks/" + new).status == 404, "the deleted task is gone")


def related_visibility():
    def body_members(member):
        return {"data": {"type": "projects", "attributes": {"name": "With"},
                         "relationships": {"owner": {"data": ref("users", "1")},
                                           "members": {"data": [ref("users", member)]}}}}

    cases = [
        ("POST /projects members", "POST", "/projects", body_members,
         "/data/relationships/members/data/0", False),
        ("PATCH /projects/1 members", "PATCH", "/projects/1", lambda m: {"data": {
            "type": "projects", "id": "1", "relationships": {"members": {"data": [ref("users", m)]}}}},
         "/data/relationships/members/data/0", False),
        ("POST members endpoint", "POST", "/projects/1/relationships/members",
         lambda m: {"data": [ref("users", m)]}, "/data/0", False),
        ("PATCH members endpoint", "PATCH", "/projects/1/relationships/members",
         lambda m: {"data": [ref("users", m)]}, "/data/0", False),
        ("operations add", "POST", "/operations", lambda m: {"atomic:operations": [
            {"op": "add", "ref": {"type": "projects", "id": "1", "relationship": "members"},
             "data": [ref("users", m)]}]}, "/atomic:operations/0/data/0", True),
    ]
    for label, method, path, body, pointer, atomic in cases:
        hidden = send("ann", method, path, body("3"), atomic=atomic, sent_id="3")
        nobody = send("ann", method, path, body(NOBODY), atomic=atomic, sent_id=NOBODY)
        check(hidden.status == 404 and hidden.pointer() == pointer
              and hidden.text == nobody.text.replace(NOBODY, "3"),
              "ann naming hidden users/3 in %s: 404 at %s, as an id nobody has (got %s %s)"
              % (label, pointer, hidden.status, hidden.pointer()))
    task_cases = [
        ("POST /tasks project", "POST", "/tasks", lambda p: task_body("x", p),
         "/data/relationships/project/data", "projects"),
        ("users/1/relationships/ownedProjects", "POST", "/users/1/relationships/ownedProjects",
         lambda p: {"data": [ref("projects", p)]}, "/data/0", "projects"),
        ("users/1/relationships/assigned", "PATCH", "/users/1/relationships/assigned",
         lambda t: {"data": [ref("tasks", t)]}, "/data/0", "tasks"),
        ("projects/1/relationships/tasks", "POST", "/projects/1/relationships/tasks",
         lambda t: {"data": [ref("tasks", t)]}, "/data/0", "tasks"),
    ]
    for label, method, path, body, pointer, kind in task_cases:
        hidden_id = "2" if kind == "projects" else "5"
        hidden = send("ann", method, path, body(hidden_id), sent_id=hidden_id)
        nobody = send("ann", method, path, body(NOBODY), sent_id=NOBODY)
        check(hidden.status == 404 and hidden.pointer() == pointer
              and hidden.text == nobody.text.replace(NOBODY, hidden_id),
              "ann naming hidden %s/%s in %s: 404 at %s (got %s %s)"
              % (kind, hidden_id, label, pointer, hidden.status, hidden.pointer()))
    before = sorted(send("ann", "GET", "/tasks?filter%5Bproject%5D=1").ids())
    batch = send("ann", "POST", "/operations", {"atomic:operations": [
        {"op": "update", "data": {"type": "projects", "id": "1", "attributes": {"name": "Gone"}}},
        {"op": "add", "data": task_body("y", "1")["data"]},
        {"op": "add", "data": task_body("z", "4")["data"]},
    ]}, atomic=True, sent_id="4")
    check(batch.status == 404 and (batch.pointer() or "").startswith("/atomic:operations/2"),
          "a batch whose third operation names hidden projects/4 is 404 there (got %s %s)"
          % (batch.status, batch.pointer()))
    check(send("ann", "GET", "/projects/1").attribute("name") == "Ann's plans"
          and sorted(send("ann", "GET", "/tasks?filter%5Bproject%5D=1").ids()) == before,
          "and leaves nothing of its batch")
    users = [
        send("ann", "POST", "/users", {"data": {"type": "users", "attributes": {
            "name": "dan", "email": "dan@example.com"}}}),
        send("ann", "DELETE", "/users/1"),
        send("ann", "DELETE", "/users/2"),
        send("ann", "POST", "/operations", {"atomic:operations": [
            {"op": "remove", "ref": ref("users", "1")}]}, atomic=True),
    ]
    check(all(r.status == 403 for r in users), "users are not created or deleted (got %s)"
          % [r.status for r in users])
    # Users are refused before anything is read, so a hidden user's answer is a never-existing
    # one's: 403 for both.
    hidden = send("ann", "DELETE", "/users/3", sent_id="3")
    nobody = send("ann", "DELETE", "/users/" + NOBODY, sent_id=NOBODY)
    check(hidden.status in (403, 404) and hidden.text == nobody.text.replace(NOBODY, "3"),
          "deleting hidden users/3 answers as an id nobody has (got %s and %s)"
          % (hidden.status, nobody.status))


def table_ids(table):
    """The ids of `table` in the database file, read-only; ["?"] when it cannot be read."""
    try:
        with sqlite3.connect("file:%s?mode=ro" % DATABASE, uri=True) as db:
            return sorted(str(r[0]) for r in db.execute('SELECT id FROM "%s"' % table))
    except sqlite3.Error as error:
        print("     cannot read %s of %s: %s" % (table, DATABASE, error))
        return ["?"]


def cascade(state):
    deleted = send("bob", "DELETE", "/projects/3")
    check(deleted.status == 204, "bob deletes project 3 (got %s)" % deleted.status)
    for user in ["ann", "bob"]:
        SEEN[user] -= {("projects", "3"), ("tasks", "3"), ("tasks", "4")}
    SEEN["ann"].discard(("users", "2"))
    SEEN["bob"].discard(("users", "1"))
    left = send("ann", "GET", "/tasks").ids()
    check("1" in left and "3" not in left and "4" not in left,
          "ann's tasks keep 1 and lose 3 and 4 after the delete (got %s)" % left)
    rows = table_ids("tasks")
    check("?" not in rows and "3" not in rows and "4" not in rows,
          "deleting project 3 deleted its tasks 3 and 4 in the database (tasks: %s)" % rows)
    state["tasks"] = rows


def prepare_restart(state):
    renamed = send("cat", "PATCH", "/projects/4", {"data": {
        "type": "projects", "id": "4", "attributes": {"name": "Cat's corner, kept"}}})
    check(renamed.status == 200, "cat renames project 4 (got %s)" % renamed.status)
    check(send("cat", "DELETE", "/tasks/5").status == 204, "cat deletes task 5")
    state["projects_cat"] = sorted(send("cat", "GET", "/projects").ids())


def restarted(state):
    projects = send("cat", "GET", "/projects")
    check(sorted(projects.ids()) == state["projects_cat"],
          "after the restart cat's projects are %s (got %s)"
          % (state["projects_cat"], sorted(projects.ids())))
    check(send("cat", "GET", "/projects/4").attribute("name") == "Cat's corner, kept",
          "the rename survived the restart")
    check(send("cat", "GET", "/tasks/5").status == 404, "the deleted task 5 is not seeded again")
    check(send("bob", "GET", "/projects/3").status == 404, "the deleted project 3 is not seeded "
          "again")
    users = len(table_ids("users"))
    tasks = table_ids("tasks")
    projects = table_ids("projects")
    check(users == 3, "three users, as seeded once (got %s)" % users)
    # Deleted over the API before the restart: a second seed would bring them back.
    check("?" not in tasks and "5" not in tasks and "?" not in projects and "3" not in projects,
          "no deleted seed row came back (tasks: %s, projects: %s)" % (tasks, projects))


def main():
    try:
        state = json.load(open(STATE))
    except (OSError, ValueError):
        state = {}
    if MODE == "run":
        for step in [authentication, visibility, not_found, filters_and_sorting, email,
                     overdue, description, projects, tasks, related_visibility]:
            print("-- " + step.__name__)
            step()
        print("-- cascade")
        cascade(state)
        print("-- before the restart")
        prepare_restart(state)
        state["seen"] = {user: sorted(map(list, names)) for user, names in SEEN.items()}
        state["known"] = sorted(map(list, KNOWN))
        json.dump(state, open(STATE, "w"))
    else:
        for user, names in state.get("seen", {}).items():
            SEEN[user] = {tuple(n) for n in names}
        KNOWN.update(tuple(n) for n in state.get("known", []))
        print("-- after the restart")
        restarted(state)
    check(not leaks, "no response named a resource hidden from its requester%s"
          % ("".join("\n    " + leak for leak in leaks[:20])))
    print("%d passed, %d failed" % (passes, len(failures)))
    for failure in failures:
        print("  failed: " + failure)
    sys.exit(1 if failures else 0)


main()
