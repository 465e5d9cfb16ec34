"""Checks a wheel made by scripts/build-wheel.py: the binary under
sagelint-X.Y.Z.data/scripts/ (executable, byte for byte the given binary),
Root-Is-Purelib: false, exactly the given tags, METADATA's first lines, an
optional METADATA line, and a RECORD whose hashes and sizes match.
Usage: wheel_layout.py WHEEL BINARY VERSION TAG[,TAG...] [METADATA_LINE]"""
import base64
import hashlib
import sys
import zipfile

wheel, binary, version, tags = sys.argv[1:5]
z = zipfile.ZipFile(wheel)
names = z.namelist()
di = "sagelint-%s.dist-info/" % version
script = "sagelint-%s.data/scripts/sagelint" % version
assert names == [script, di + "LICENSE", di + "METADATA", di + "WHEEL", di + "RECORD"], names
assert z.read(script) == open(binary, "rb").read(), "the wheel's entry is not the binary"
assert (z.getinfo(script).external_attr >> 16) & 0o111, "the entry is not executable in the wheel"
wheel_meta = z.read(di + "WHEEL").decode().splitlines()
assert "Root-Is-Purelib: false" in wheel_meta, wheel_meta
got = [l.split(": ", 1)[1] for l in wheel_meta if l.startswith("Tag: ")]
assert got == tags.split(","), got
meta = z.read(di + "METADATA").decode().splitlines()
assert meta[:3] == ["Metadata-Version: 2.1", "Name: sagelint", "Version: " + version], meta
if len(sys.argv) > 5:
    assert sys.argv[5] in meta, meta
rows = [l.split(",") for l in z.read(di + "RECORD").decode().splitlines()]
assert [r[0] for r in rows] == names, rows
for name, digest, size in rows[:-1]:
    data = z.read(name)
    want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    assert digest == want and int(size) == len(data), (name, digest, want)
assert rows[-1] == [di + "RECORD", "", ""], rows[-1]
