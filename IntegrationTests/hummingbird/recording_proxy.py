#!/usr/bin/env python3
"""A reverse proxy that records every response it passes on, for Scripts/hummingbird.sh.

    recording_proxy.py LISTEN_PORT UPSTREAM_PORT OUT_DIR

Forwards each request to 127.0.0.1:UPSTREAM_PORT unchanged and answers with the upstream's
response. Every non-empty response body is written to OUT_DIR/NNNNNN.json, and OUT_DIR/index.tsv
gets one line per exchange: number, method, target, status, Content-Type. The clients of the test
talk to the server through it (the server's BASE_URL names the proxy, so links lead back here),
so the script can validate every document they saw and count the statuses.
"""
import http.client
import http.server
import itertools
import os
import sys
import threading

HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade",
              "proxy-connection", "host", "content-length"}


def main():
    listen_port, upstream_port, out_dir = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    os.makedirs(out_dir, exist_ok=True)
    counter = itertools.count(1)
    lock = threading.Lock()
    index = open(os.path.join(out_dir, "index.tsv"), "a", buffering=1)
    local = threading.local()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def upstream(self):
            if getattr(local, "connection", None) is None:
                local.connection = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=30)
            return local.connection

        def forward(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
            for attempt in range(2):
                connection = self.upstream()
                try:
                    connection.request(self.command, self.path, body=body, headers=headers)
                    response = connection.getresponse()
                    data = response.read()
                    break
                except (http.client.HTTPException, OSError):
                    connection.close()
                    local.connection = None
                    if attempt == 1:
                        raise
            number = next(counter)
            content_type = response.getheader("Content-Type") or ""
            if data:
                with open(os.path.join(out_dir, "%06d.json" % number), "wb") as file:
                    file.write(data)
            with lock:
                index.write("%06d\t%s\t%s\t%d\t%s\n"
                            % (number, self.command, self.path, response.status, content_type))
            self.send_response_only(response.status)
            for name, value in response.getheaders():
                if name.lower() not in HOP_BY_HOP:
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)

        do_GET = do_POST = do_PATCH = do_DELETE = do_PUT = do_HEAD = forward

    server = http.server.ThreadingHTTPServer(("127.0.0.1", listen_port), Handler)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
