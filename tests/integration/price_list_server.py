#!/usr/bin/env python3
"""A stand-in for AWS's public Price List endpoint, on 127.0.0.1 only, for the
tests of `sagelint prices update` and scripts/refresh-prices.py.

    price_list_server.py DIR [--mode MODE] [--port-file FILE]

Serves /offers/v1.0/aws/AmazonSageMaker/current/<region>/index.json from
DIR/<region>/index.json, or DIR/<region>/index.csv when that is what DIR
holds (the importer reads both). MODE changes what every request gets:
  files     the offer files (default);
  html      a 200 HTML error page, as a captive portal or proxy sends;
  huge      an endless body without a Content-Length (10 GB announced nowhere);
  truncate  the first half of the file with the whole file's Content-Length,
            then the server waits to be killed (a download cut off midway).
The chosen port is written to FILE (default: standard output), then the
server runs until killed.
"""
import argparse
import http.server
import os
import sys
import time

PREFIX = "/offers/v1.0/aws/AmazonSageMaker/current/"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--mode", default="files", choices=["files", "html", "huge", "truncate"])
    ap.add_argument("--port-file")
    args = ap.parse_args()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):  # quiet
            pass

        def do_GET(self):
            if args.mode == "html":
                body = b"<!DOCTYPE html><html><body><h1>Service Unavailable</h1></body></html>\n"
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            if args.mode == "huge":
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Connection", "close")
                self.end_headers()
                chunk = b'{"products": {' + b" " * (1 << 20)
                try:
                    for _ in range(10 * 1024):  # 10 GB
                        self.wfile.write(chunk)
                except (BrokenPipeError, ConnectionResetError):
                    pass
                return
            if not self.path.startswith(PREFIX) or not self.path.endswith("/index.json"):
                self.send_error(404)
                return
            region = self.path[len(PREFIX):-len("/index.json")]
            path = None
            for name in ("index.json", "index.csv"):
                p = os.path.join(args.dir, os.path.basename(region), name)
                if os.path.isfile(p):
                    path = p
            if path is None:
                self.send_error(404)
                return
            with open(path, "rb") as f:
                body = f.read()
            self.send_response(200)
            self.send_header("Content-Type", "text/csv" if path.endswith(".csv") else "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if args.mode == "truncate":
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                time.sleep(3600)
                return
            self.wfile.write(body)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port = str(server.server_address[1])
    if args.port_file:
        with open(args.port_file + ".tmp", "w") as f:
            f.write(port)
        os.replace(args.port_file + ".tmp", args.port_file)
    else:
        print(port, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    sys.exit(0)


if __name__ == "__main__":
    main()
