"""A small scripted LSP client for `sagelint server` (tests and the benchmark).

Speaks the Language Server Protocol's base protocol (Content-Length framing,
JSON-RPC 2.0) over the server's standard input and output; a reader thread
collects what the server sends so that a test can wait for a message with a
timeout and never hang.
"""

import json
import os
import queue
import subprocess
import threading
import time


def utf16_offset(line, character):
    """The index in the Python string `line` of an LSP character (UTF-16 units)."""
    units = 0
    for i, ch in enumerate(line):
        if units >= character:
            return i
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(line)


def apply_edits(text, edits):
    """Applies LSP TextEdits (one document's) to `text`, last first."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)

    def offset(pos):
        if pos["line"] >= len(lines):
            return len(text)
        return starts[pos["line"]] + utf16_offset(lines[pos["line"]], pos["character"])

    spans = sorted(((offset(e["range"]["start"]), offset(e["range"]["end"]), e["newText"]) for e in edits),
                   reverse=True)
    for begin, end, new in spans:
        text = text[:begin] + new + text[end:]
    return text


class LspClient:
    def __init__(self, binary, cwd, args=("server",)):
        self.proc = subprocess.Popen([binary, *args], cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.messages = queue.Queue()
        self.next_id = 1
        self.stderr = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            headers = {}
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.decode("ascii").strip()
                if not line:
                    break
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
            body = out.read(int(headers["content-length"]))
            self.messages.put(json.loads(body))

    def _read_stderr(self):
        for line in self.proc.stderr:
            self.stderr.append(line.decode("utf-8", "replace"))

    def send_raw(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message):
        body = json.dumps(message).encode("utf-8")
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params, timeout=30):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == rid and "method" not in m, timeout)

    def wait(self, predicate, timeout=30):
        """The first message (from now on) that `predicate` accepts; others are dropped."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no such message within %ss; stderr: %s" % (timeout, "".join(self.stderr)))
            try:
                m = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if m is None:
                raise EOFError("the server closed its output; stderr: %s" % "".join(self.stderr))
            if predicate(m):
                return m

    def diagnostics(self, uri, timeout=30, version=None):
        def match(m):
            if m.get("method") != "textDocument/publishDiagnostics" or m["params"]["uri"] != uri:
                return False
            return version is None or m["params"].get("version") == version

        return self.wait(match, timeout)["params"]["diagnostics"]

    def initialize(self, root, options=None):
        result = self.request("initialize", {
            "processId": os.getpid(),
            "rootUri": "file://" + root,
            "capabilities": {},
            "initializationOptions": options or {},
        })
        self.notify("initialized", {})
        return result

    def shutdown(self, timeout=30):
        response = self.request("shutdown", None)
        self.notify("exit", None)
        return response, self.proc.wait(timeout=timeout)

    def rss_kib(self):
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass
