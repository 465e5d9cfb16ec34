#!/usr/bin/env python3
"""Which of a report's fixes the Action suggests on a pull request (README "Fixes").

A safe fix becomes one review comment with a ```suggestion block when all its
edits lie in one file, on lines the pull request adds or changes (the `+`
lines of its diff hunks, head side), and the checked-out file is the pull
request's head version of it (its git blob hash matches the one of the diff).
A suggestion replaces whole lines: its text is those lines of the file with
the edits applied. Every other fix — unsafe ones, and safe ones that cannot be
suggested — is listed in the pull request's comment, with the reason.

action-comment.py imports this file; run on its own it prints the plan as JSON
for a report and a unified diff (`git diff BASE HEAD`), offline:

Usage: action-fixes.py REPORT.json PR.diff [REPO_ROOT]
"""
import hashlib
import json
import os
import posixpath
import re
import sys

HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@")
LISTED_MAX = 50  # fixes listed in the comment; the rest are counted
MARKER = "<!-- sagelint-fix {key} -->"


def added_lines(patch):
    """The head-side line numbers of the `+` lines of a patch's hunks."""
    lines, head = set(), None
    for line in patch.split("\n"):
        m = HUNK.match(line)
        if m:
            head = int(m.group(1))
        elif head is None or line.startswith("\\"):
            continue  # before the first hunk; "\ No newline at end of file"
        elif line.startswith("+"):
            lines.add(head)
            head += 1
        elif line.startswith(" ") or line == "":
            head += 1
    return lines


def _unquote(name):
    """A path as git prints it: C-quoted when it holds unusual bytes."""
    if len(name) >= 2 and name[0] == '"' and name[-1] == '"':
        raw = name[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape")
        return raw.encode("latin-1").decode("utf-8", "replace")
    return name


def files_from_diff(text):
    """{path: {"lines": set, "blob": abbreviated head blob hash or None}} of a unified diff."""
    files, path, blob, patch = {}, None, None, []

    def flush():
        if path is not None:
            files[path] = {"lines": added_lines("\n".join(patch)), "blob": blob}

    for line in text.split("\n"):
        if line.startswith("diff --git "):
            flush()
            path, blob, patch = None, None, []
        elif line.startswith("index ") and not patch:
            m = re.match(r"^index [0-9a-f]+\.\.([0-9a-f]+)", line)
            blob = m.group(1) if m else None
        elif line.startswith("+++ ") and not patch:
            name = _unquote(line[4:].rstrip("\t"))
            path = name[2:] if name.startswith("b/") else None  # /dev/null: deleted
        elif line.startswith("@@") or patch:
            patch.append(line)
    flush()
    return files


def files_from_api(entries):
    """The same from GitHub's list of a pull request's files (`filename`, `sha`, `patch`)."""
    files = {}
    for e in entries:
        if e.get("status") == "removed":
            continue
        files[e["filename"]] = {"lines": added_lines(e.get("patch") or ""), "blob": e.get("sha")}
    return files


def blob_hash(data):
    """git's object name of a blob with these bytes."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def repo_root(start):
    d = os.path.abspath(start)
    while True:
        if os.path.exists(os.path.join(d, ".git")):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            return os.path.abspath(start)
        d = parent


def _line_starts(data):
    starts = [0]
    for i, b in enumerate(data):
        if b == 0x0A:
            starts.append(i + 1)
    return starts


def _offset(starts, size, line, column):
    if line < 1 or line > len(starts) or column < 1:
        return None
    off = starts[line - 1] + column - 1
    end = starts[line] - 1 if line < len(starts) else size  # the line's newline, or the end
    return off if off <= end else None


def suggestion_of(fix, data):
    """(first line, last line, new text of those lines) for a fix of one file; or a reason string."""
    edits = fix.get("edits") or []
    if not edits:
        return "it has no edits"
    starts = _line_starts(data)
    spans = []
    for e in edits:
        b = _offset(starts, len(data), e["line"], e["column"])
        end = _offset(starts, len(data), e["end_line"], e["end_column"])
        if b is None or end is None or end < b:
            return "its edit lies outside the file"
        spans.append((b, end, e["content"].encode("utf-8")))
    spans.sort()
    for (b1, e1, _), (b2, _, _) in zip(spans, spans[1:]):
        if b2 < e1:
            return "its edits overlap"
    # The whole lines the edits touch: an edit that ends at the start of a line leaves that line alone.
    first = min(e["line"] for e in edits)
    last = max(e["end_line"] - 1 if e["end_column"] == 1 and e["end_line"] > e["line"] else e["end_line"]
               for e in edits)
    lines_in_file = len(starts) - (1 if data.endswith(b"\n") or not data else 0)
    while True:
        if first > lines_in_file or last > lines_in_file:
            return "it edits past the file's last line"
        lo = starts[first - 1]
        hi = starts[last] if last < len(starts) else len(data)
        new = bytearray()
        pos = lo
        for b, e, content in spans:
            new += data[pos:b] + content
            pos = e
        new += data[pos:hi]
        old = data[lo:hi]
        # The new text must end a line where the old one did, or the next line would join it.
        if old.endswith(b"\n") and new and not new.endswith(b"\n"):
            last += 1
            continue
        break
    if b"\r" in old or b"\r" in new:
        return "the file has CRLF line ends"
    try:
        text = bytes(new).decode("utf-8")
    except UnicodeDecodeError:
        return "the file is not UTF-8"
    if text.endswith("\n"):
        text = text[:-1]
    return first, last, text


def plan(report, pr_files, root, read=None):
    """{"suggestions": [...], "others": [...]} for the report's fixes.

    report: sagelint's JSON (`diff`: its `new` findings; `scan`: its `findings`);
    pr_files: files_from_diff / files_from_api; root: the repository's top
    directory (the report's paths are relative to it, as sagelint writes every
    machine format's paths, wherever it ran)."""
    read = read or (lambda p: open(p, "rb").read())
    findings = report.get("new", report.get("findings")) or []
    suggestions, others = [], []
    for f in findings:
        fix = f.get("fix")
        if not fix:
            continue
        item = {"rule": f.get("rule", ""), "path": f.get("path", ""), "line": f.get("line"),
                "fingerprint": f.get("fingerprint", ""), "applicability": fix.get("applicability", ""),
                "message": fix.get("message", "")}

        def other(reason):
            others.append(dict(item, reason=reason))

        if item["applicability"] != "safe":
            other("unsafe")
            continue
        paths = {e.get("path") for e in fix.get("edits") or []}
        if len(paths) != 1:
            other("its edits span several files" if paths else "it has no edits")
            continue
        shown = paths.pop()
        rel = posixpath.normpath(shown or ".")
        entry = pr_files.get(rel)
        if rel.startswith("/") or rel == ".." or rel.startswith("../") or entry is None:
            other("outside this pull request's changes")
            continue
        try:
            data = read(os.path.join(root, rel))
        except OSError as e:
            other("cannot read " + rel + ": " + (e.strerror or str(e)))
            continue
        if entry.get("blob") and not blob_hash(data).startswith(entry["blob"]):
            other("the checked-out file is not the pull request's head version")
            continue
        s = suggestion_of(fix, data)
        if isinstance(s, str):
            other(s)
            continue
        first, last, text = s
        if any(n not in entry["lines"] for n in range(first, last + 1)):
            other("outside this pull request's changes")
            continue
        starts = _line_starts(data)
        old = data[starts[first - 1]:starts[last] if last < len(starts) else len(data)]
        key = hashlib.sha256("\0".join([item["rule"], item["fingerprint"], rel, text]).encode("utf-8") + b"\0" +
                             old).hexdigest()[:16]
        suggestions.append(dict(item, repo_path=rel, start_line=first, end_line=last, text=text, key=key))
    return {"suggestions": suggestions, "others": others}


def printable(s):
    return "".join(c if c.isprintable() else "\ufffd" for c in s)


def md_text(s):
    """Text from a scanned file as markdown that shows it as typed: no HTML, links or mentions."""
    out = []
    s = printable(s)
    for i, c in enumerate(s):
        if c in "<>&":
            out.append({"<": "&lt;", ">": "&gt;", "&": "&amp;"}[c])
        elif c in "[]*_`~|\\@":
            out.append("\\" + c)
        elif c == ":" and s[i + 1:i + 3] == "//":
            out.append("\\:")
        elif c == "." and s[max(0, i - 3):i].lower() == "www":
            out.append("\\.")
        else:
            out.append(c)
    return "".join(out)


def md_code(s):
    s = printable(s).replace("|", "\\|")
    fence = "`" * (max((len(r) for r in re.findall(r"`+", s)), default=0) + 1)
    pad = " " if s.startswith("`") or s.endswith("`") else ""
    return fence + pad + s + pad + fence


def comment_body(s):
    """The review comment of a suggestion: marker, what it does, the suggestion block."""
    fence = "`" * max(3, max((len(r) for r in re.findall(r"`+", s["text"])), default=0) + 1)
    return (MARKER.format(key=s["key"]) + "\n**sagelint " + md_text(s["rule"]) + "** (safe fix): " +
            md_text(s["message"]) + "\n\n" + fence + "suggestion\n" + s["text"] + ("\n" if s["text"] else "") +
            fence + "\n")


REASONS = {
    "unsafe": "unsafe: `sagelint scan --fix --unsafe-fixes` applies it; review what it changes",
}


def listing(others, suggested):
    """The section of the pull request's comment that lists the fixes not suggested."""
    if not others and not suggested:
        return ""
    out = ["", "#### Fixes", ""]
    if suggested:
        out.append(f"{suggested} safe fix{'es are' if suggested != 1 else ' is'} suggested in review comments on the "
                   "changed lines." + (" The others:" if others else ""))
        out.append("")
    elif others:
        out.append("sagelint can fix these (`sagelint scan --fix` applies the safe ones):")
        out.append("")
    for o in others[:LISTED_MAX]:
        where = md_code(f"{o['path']}:{o['line']}")
        reason = REASONS.get(o["reason"]) or ("safe (`sagelint scan --fix`), not suggested: " + md_text(o["reason"]))
        out.append(f"- `{md_text(o['rule'])}` {where}: {md_text(o['message'])} — {reason}")
    if len(others) > LISTED_MAX:
        out.append(f"- …and {len(others) - LISTED_MAX} more: `sagelint scan --fix --unsafe-fixes --diff` shows them all")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: action-fixes.py REPORT.json PR.diff [REPO_ROOT]")
    with open(sys.argv[1], encoding="utf-8") as f:
        report = json.load(f)
    with open(sys.argv[2], encoding="utf-8") as f:
        files = files_from_diff(f.read())
    root = os.path.abspath(sys.argv[3]) if len(sys.argv) == 4 else repo_root(".")
    p = plan(report, files, root)
    p["comments"] = [comment_body(s) for s in p["suggestions"]]
    p["listing"] = listing(p["others"], len(p["suggestions"]))
    json.dump(p, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
