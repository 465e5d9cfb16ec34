#!/usr/bin/env bash
# `sagelint prices update` and scripts/refresh-prices.py end to end against a
# stand-in for AWS's Price List endpoint on 127.0.0.1
# (tests/integration/price_list_server.py serving fixtures/prices/update/):
# the cached table and a scan that uses it, the staleness note, `--prices
# builtin`; a download killed midway, an HTML page and an endless response
# are errors that keep the cached table; the refresh script regenerates the
# tables from a JSON and a CSV offer file and writes the pull request's body.
# Usage: price_update.sh SAGELINT SOURCE_DIR
set -euo pipefail
bin="$(realpath "$1")"
src="$(realpath "$2")"
command -v curl >/dev/null 2>&1 || { echo "SKIP: curl is not installed"; exit 77; }
work="$(mktemp -d)"
server_pid=""
stop_server() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  server_pid=""
}
trap 'stop_server; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

start_server() {  # MODE [DIR]
  stop_server
  rm -f "$work/port"
  python3 "$src/tests/integration/price_list_server.py" "${2:-$src/fixtures/prices/update}" --mode "$1" \
    --port-file "$work/port" &
  server_pid=$!
  for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.05; done
  [ -s "$work/port" ] || fail "the stand-in server did not start"
  export SAGELINT_PRICE_LIST_URL="http://127.0.0.1:$(cat "$work/port")"
}

export XDG_CACHE_HOME="$work/cache"
export SAGELINT_TODAY=2026-11-28
cached="$XDG_CACHE_HOME/sagelint/prices/eu-west-1.json"
mkdir -p "$work/scan"
cat > "$work/scan/endpoint.yaml" <<'EOF'
Resources:
  Config:
    Type: AWS::SageMaker::EndpointConfig
    Properties:
      ProductionVariants:
        - {VariantName: AllTraffic, ModelName: m, InstanceType: ml.g5.xlarge, InitialInstanceCount: 2}
  Endpoint:
    Type: AWS::SageMaker::Endpoint
    Properties:
      EndpointConfigName: !GetAtt Config.EndpointConfigName
EOF

# 1. The update writes the cached table; a scan of eu-west-1 prices the endpoint from it, with its date.
start_server files
out="$("$bin" prices update --region eu-west-1)" || fail "prices update failed"
grep -q "eu-west-1: 4 prices, published 2026-11-20" <<<"$out" || fail "unexpected update output: $out"
[ -f "$cached" ] || fail "no cached table at $cached"
ls "$XDG_CACHE_HOME/sagelint/prices" | grep -q tmp && fail "a temporary file was left behind"
"$bin" scan --region eu-west-1 --select SM211 --format json --fail-on none "$work/scan" > "$work/scan.json"
python3 - "$work/scan.json" <<'EOF' || fail "the scan does not price the endpoint from the cached table"
import json, sys
cost = json.load(open(sys.argv[1]))["findings"][0]["cost"]
assert cost["hourly_usd"] == 3.14 and cost["monthly_usd"] == 2292.2, cost
assert cost["price_date"] == "2026-11-20" and "offer file" in cost["price_source"], cost
EOF
"$bin" inventory --region eu-west-1 --format json "$work/scan" > "$work/inv.json"
python3 - "$work/inv.json" <<'EOF' || fail "the inventory does not use the cached table"
import json, sys
w = json.load(open(sys.argv[1]))["workloads"][0]
assert abs(w["hourly_usd"] - 3.14) < 1e-9, w
EOF
"$bin" prices --region eu-west-1 > "$work/prices.txt"
grep -q "cached price table .*eu-west-1.json (eu-west-1, as of 2026-11-20)" "$work/prices.txt" \
  || fail "sagelint prices does not name the cached table: $(head -2 "$work/prices.txt")"
"$bin" prices --region eu-west-1 --prices builtin > "$work/builtin.txt"
grep -q "built-in price table (eu-west-1" "$work/builtin.txt" || fail "--prices builtin does not use the built-in table"
# Stale after 90 days: one note.
SAGELINT_TODAY=2027-03-01 "$bin" prices --region eu-west-1 2>"$work/err" >/dev/null
grep -q "note: prices for eu-west-1 are from 2026-11-20; run sagelint prices update --region eu-west-1" "$work/err" \
  || fail "no staleness note: $(cat "$work/err")"
"$bin" prices --region eu-west-1 2>"$work/err" >/dev/null
[ ! -s "$work/err" ] || fail "a note for a fresh table: $(cat "$work/err")"
# A region without any table: exit 2 with the command to run.
set +e
"$bin" scan --region xx-nowhere-1 "$work/scan" 2>"$work/err"; rc=$?
set -e
[ "$rc" = 2 ] || fail "an unknown region exits $rc"
grep -q "no prices for xx-nowhere-1: run sagelint prices update --region xx-nowhere-1" "$work/err" \
  || fail "unexpected message: $(cat "$work/err")"
# Without --region: the configured region, also one with no table yet (what an update is for).
mkdir -p "$work/offers/ap-east-2" "$work/taipei"
sed 's/eu-west-1/ap-east-2/g' "$src/fixtures/prices/update/eu-west-1/index.json" >"$work/offers/ap-east-2/index.json"
printf 'region: ap-east-2\n' >"$work/taipei/.sagelint.yaml"
cp "$work/scan/endpoint.yaml" "$work/taipei/"
start_server files "$work/offers"
out="$(cd "$work/taipei" && "$bin" prices update)" || fail "prices update without --region failed"
grep -q "^ap-east-2: 4 prices" <<<"$out" || fail "the configured region was not updated: $out"
(cd "$work/taipei" && "$bin" scan --select SM211 --format json --fail-on none .) >"$work/taipei.json" \
  || fail "the scan of the configured region did not use its new table"
grep -q '"hourly_usd": 3.14' "$work/taipei.json" || fail "not priced from the new table: $(cat "$work/taipei.json")"
start_server files
cp "$cached" "$work/good.json"

# 2. Failures keep the cached table.
expect_failure() {  # NAME PATTERN [env...]
  local name="$1" pattern="$2"
  shift 2
  set +e
  env "$@" "$bin" prices update --region eu-west-1 >"$work/out" 2>"$work/err"
  local rc=$?
  set -e
  [ "$rc" = 1 ] || fail "$name: exit $rc, expected 1"
  grep -q "$SAGELINT_PRICE_LIST_URL/offers/v1.0/aws/AmazonSageMaker/current/eu-west-1/index.json" "$work/err" \
    || fail "$name: the error does not name the URL: $(cat "$work/err")"
  grep -q -- "$pattern" "$work/err" || fail "$name: unexpected error: $(cat "$work/err")"
  cmp -s "$cached" "$work/good.json" || fail "$name: the cached table changed"
  ls "$XDG_CACHE_HOME/sagelint/prices" | grep -q tmp && fail "$name: a temporary file was left behind"
  echo "ok: $name"
}
start_server html
expect_failure "an HTML page" "not an AWS Price List offer file (an HTML page)"
start_server huge
expect_failure "an endless response" "larger than 16 MiB" SAGELINT_PRICE_LIST_MAX_BYTES=16777216
# Killed mid-download: the server sends half the file, then dies.
start_server truncate
( sleep 1; kill -9 "$server_pid" ) &
killer=$!
set +e
"$bin" prices update --region eu-west-1 >"$work/out" 2>"$work/err"
rc=$?
set -e
wait "$killer" || true
server_pid=""
[ "$rc" = 1 ] || fail "killed download: exit $rc, expected 1"
grep -q "eu-west-1/index.json: " "$work/err" || fail "killed download: $(cat "$work/err")"
cmp -s "$cached" "$work/good.json" || fail "killed download: the cached table changed"
echo "ok: a download killed midway"
# No server at all.
export SAGELINT_PRICE_LIST_URL="http://127.0.0.1:9"
set +e
"$bin" prices update --region eu-west-1 >/dev/null 2>"$work/err"; rc=$?
set -e
[ "$rc" = 1 ] && grep -q "127.0.0.1:9/offers" "$work/err" || fail "connection refused: $rc $(cat "$work/err")"
cmp -s "$cached" "$work/good.json" || fail "connection refused: the cached table changed"

# 3. The refresh script: a copy of the repository's tables, two regions (JSON and CSV), one changed price.
start_server files
mkdir -p "$work/repo"
cp -r "$src/rules/data" "$work/repo/data"
python3 "$src/scripts/refresh-prices.py" --sagelint "$bin" --region eu-west-1 --region us-west-2 \
  --data "$work/repo/data" --cc "$work/repo/builtin_prices_data.cc" --body "$work/body.md" 2>"$work/err" \
  || fail "refresh failed: $(cat "$work/err")"
cat > "$work/expected-body.md" <<'EOF'
Weekly refresh of the built-in SageMaker price tables from AWS's public Price List offer files (`scripts/refresh-prices.py`).

## Changed figures

| region | instance type | kind | old USD/h | new USD/h | change |
|---|---|---|---:|---:|---:|
| us-west-2 | ml.g5.xlarge | training | 1.408 | 1.45 | +2.98 % |
EOF
diff -u "$work/expected-body.md" "$work/body.md" || fail "unexpected pull-request body"
python3 - "$work/repo/data" "$src/rules/data" <<'EOF' || fail "unexpected regenerated tables"
import json, sys
new, old = sys.argv[1], sys.argv[2]
w2 = json.load(open(f"{new}/prices-us-west-2.json"))
f = w2["prices"]["ml.g5.xlarge"]["training"]
assert f == {"usd": 1.45, "sources": ["AWS-offer"], "basis": "named", "date": "2026-11-20"}, f
assert "127.0.0.1" in w2["sources"]["AWS-offer"]["citation"], w2["sources"]["AWS-offer"]
e1 = json.load(open(f"{new}/prices-eu-west-1.json"))
assert e1["prices"]["ml.g5.xlarge"]["hosting"]["basis"] == "named", e1["prices"]["ml.g5.xlarge"]
# Figures the offer files do not hold keep their sources; us-east-1 is untouched.
assert e1["prices"]["ml.c5.xlarge"] == json.load(open(f"{old}/prices-eu-west-1.json"))["prices"]["ml.c5.xlarge"]
assert open(f"{new}/prices.json").read() == open(f"{old}/prices.json").read()
EOF
grep -q '{"ml.g5.xlarge", PriceComponent::kTraining, 1.45, "AWS Price List offer file", "2026-11-20", true}' \
  "$work/repo/builtin_prices_data.cc" || fail "the compiled tables were not regenerated"
echo "ok: prices update and the refresh script against the stand-in server"
