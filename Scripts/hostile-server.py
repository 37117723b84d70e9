#!/usr/bin/env python3
"""A hostile HTTP/1.1 server on 127.0.0.1 for the client's bounds (issue 27).

Standard library only. It writes raw bytes on raw sockets so that it can misbehave: send more or
less than it announces, announce nothing, compress a bomb, or answer a request nobody made.
Bodies are streamed from one small buffer, never built whole (the gzip bomb is compressed once
and kept: that is its point).

    Scripts/hostile-server.py [PORT]

PORT 0 (the default) lets the system choose; the first line on stdout is the port, so that a
script can read it. Every request gets one log line on stderr.

Paths (query parameters in brackets, with their defaults):
    /ok?id=N                a small JSON:API document {"data":{"type":"answers","id":"N"}},
                            Content-Type application/vnd.api+json, connection kept alive
    /honest[?mib=64]        a JSON-ish body of that size with an honest Content-Length
                            (`bytes=N` instead of `mib` gives an exact size; `id=N` its id)
    /chunked[?mib=64]       the same body, Transfer-Encoding: chunked
    /close[?mib=64]         the same body, no length: ended by closing the connection
    /lying[?mib=64]         Content-Length: 1024, and a complete 1 KiB document, then the rest
                            of `mib` MiB regardless, on a connection kept alive
    /lying-huge[?kib=64]    Content-Length of 64 GiB, then only `kib` KiB, then close
    /gzip[?mib=200]         about mib KB of gzip (Content-Encoding: gzip, honest
                            Content-Length) that inflates to `mib` MiB of JSON-ish bytes
    /smuggle?id=N           a complete answer for id N on a kept-alive connection, then 0.1 s
                            later a second, unasked-for complete answer for id "smuggled"

Any other path answers 404 with a JSON:API error document.
"""

import socket
import socketserver
import sys
import threading
import time
import zlib
from urllib.parse import parse_qs, urlsplit

MIB = 1024 * 1024
# The largest size a request may ask for: keeps an accidental `mib=1e9` from running for hours.
MAX_BYTES = 1024 * MIB
# Requests are a few hundred bytes; a client that sends more header than this is cut off.
MAX_HEAD = 64 * 1024
STREAM_BUFFER = 64 * 1024
MEDIA_TYPE = b"application/vnd.api+json"


def body_frame(identifier):
    """The start and end of a JSON-ish body: a document whose one attribute is padded to size."""
    start = b'{"data":{"type":"answers","id":"' + identifier + b'","attributes":{"pad":"'
    return start, b'"}}}'


def document(identifier):
    return b'{"data":{"type":"answers","id":"' + identifier + b'"}}'


def stream_body(send, total, identifier):
    """Sends a `total`-byte JSON-ish body through `send`, from one small buffer of spaces."""
    start, end = body_frame(identifier)
    if total < len(start) + len(end):
        send((b" " * total))
        return
    send(start)
    padding = total - len(start) - len(end)
    spaces = b" " * STREAM_BUFFER
    while padding > 0:
        step = min(padding, STREAM_BUFFER)
        send(spaces[:step])
        padding -= step
    send(end)


_gzip_lock = threading.Lock()
_gzip_cache = {}


def gzip_bomb(mib):
    """`mib` MiB of JSON-ish bytes, gzip-compressed at level 9: about `mib` KB. Cached per size."""
    with _gzip_lock:
        cached = _gzip_cache.get(mib)
        if cached is not None:
            return cached
        compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
        start, end = body_frame(b"1")
        parts = [compressor.compress(start)]
        padding = mib * MIB - len(start) - len(end)
        spaces = b" " * MIB
        while padding > 0:
            step = min(padding, MIB)
            parts.append(compressor.compress(spaces[:step]))
            padding -= step
        parts.append(compressor.compress(end))
        parts.append(compressor.flush())
        bomb = b"".join(parts)
        _gzip_cache[mib] = bomb
        return bomb


def head(status, fields):
    lines = [b"HTTP/1.1 " + status]
    lines += [name + b": " + value for name, value in fields]
    return b"\r\n".join(lines) + b"\r\n\r\n"


def number(query, name, default):
    """An integer query parameter, clamped to [0, MAX_BYTES]."""
    try:
        value = int(query.get(name, [str(default)])[0])
    except ValueError:
        value = default
    return max(0, min(value, MAX_BYTES))


class Handler(socketserver.BaseRequestHandler):
    def setup(self):
        self.pending = b""

    def read_head(self):
        """The request line and header block, or None when the client closed the connection."""
        while b"\r\n\r\n" not in self.pending:
            if len(self.pending) > MAX_HEAD:
                return None
            data = self.request.recv(65536)
            if not data:
                return None
            self.pending += data
        block, self.pending = self.pending.split(b"\r\n\r\n", 1)
        lines = block.split(b"\r\n")
        # The client only sends GETs here, so there is no request body to skip.
        return lines[0].decode("latin-1"), lines[1:]

    def handle(self):
        send = self.request.sendall
        try:
            while True:
                request = self.read_head()
                if request is None:
                    return
                line, headers = request
                parts = line.split(" ")
                target = parts[1] if len(parts) > 1 else "/"
                has_credentials = any(h.lower().startswith(b"authorization:") for h in headers)
                print(f"{line} credentials={has_credentials}", file=sys.stderr, flush=True)
                url = urlsplit(target)
                if not self.answer(send, url.path, parse_qs(url.query)):
                    return
        except OSError:
            # The client cut the body short or closed the connection: that is its right.
            return

    def answer(self, send, path, query):
        """Answers one request; False when the connection must close afterwards."""
        identifier = query.get("id", ["1"])[0].encode("ascii", "replace")
        json_fields = [(b"Content-Type", MEDIA_TYPE)]
        if path == "/ok":
            body = document(identifier)
            send(head(b"200 OK", json_fields + [
                (b"Content-Length", str(len(body)).encode()), (b"Connection", b"keep-alive")]) + body)
            return True
        if path in ("/honest", "/chunked", "/close"):
            total = number(query, "bytes", number(query, "mib", 64) * MIB)
            if path == "/honest":
                send(head(b"200 OK", json_fields + [(b"Content-Length", str(total).encode())]))
                stream_body(send, total, identifier)
                return True
            if path == "/chunked":
                send(head(b"200 OK", json_fields + [(b"Transfer-Encoding", b"chunked")]))

                def chunk(data):
                    send(b"%x\r\n" % len(data) + data + b"\r\n")

                stream_body(chunk, total, identifier)
                send(b"0\r\n\r\n")
                return True
            send(head(b"200 OK", json_fields + [(b"Connection", b"close")]))
            stream_body(send, total, identifier)
            return False
        if path == "/lying":
            total = number(query, "mib", 64) * MIB
            announced = 1024
            start, end = body_frame(identifier)
            first = start + b" " * (announced - len(start) - len(end)) + end
            send(head(b"200 OK", json_fields + [(b"Content-Length", str(announced).encode())]))
            send(first)
            # The rest is not part of any answer; a client that reads it as one is smuggled to.
            stream_body(send, max(0, total - announced), b"excess")
            return True
        if path == "/lying-huge":
            sent = number(query, "kib", 64) * 1024
            announced = 64 * 1024 * MIB
            send(head(b"200 OK", json_fields + [(b"Content-Length", str(announced).encode())]))
            stream_body(send, sent, identifier)
            return False
        if path == "/gzip":
            bomb = gzip_bomb(number(query, "mib", 200))
            send(head(b"200 OK", json_fields + [
                (b"Content-Encoding", b"gzip"), (b"Content-Length", str(len(bomb)).encode())]))
            send(bomb)
            return True
        if path == "/smuggle":
            body = document(identifier)
            fields = json_fields + [
                (b"Content-Length", str(len(body)).encode()), (b"Connection", b"keep-alive")]
            send(head(b"200 OK", fields) + body)
            time.sleep(0.1)
            smuggled = document(b"smuggled")
            fields = json_fields + [
                (b"Content-Length", str(len(smuggled)).encode()), (b"Connection", b"keep-alive")]
            send(head(b"200 OK", fields) + smuggled)
            return True
        body = b'{"errors":[{"status":"404","title":"No such case"}]}'
        send(head(b"404 Not Found", json_fields + [(b"Content-Length", str(len(body)).encode())])
             + body)
        return True


class Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    # The bomb of the default size, compressed before the port is announced, so that the first
    # request for it is not slower than the client's timeout.
    gzip_bomb(200)
    with Server(("127.0.0.1", port), Handler) as server:
        print(server.server_address[1], flush=True)
        server.serve_forever()


if __name__ == "__main__":
    main()
