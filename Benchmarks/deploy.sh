#!/usr/bin/env bash
# Deploy benchmark: the N-city site (default 10,000) over loopback SFTP to OpenSSH's sshd.
#
#   Benchmarks/deploy.sh [options] [N]
#
#   -c, --concurrency C  deploy.concurrency (default 4)
#   -p, --percent P      share of cities changed for the third deploy (default 1)
#   -w, --work DIR       scratch folder (default /tmp/isobar-bench)
#       --no-build       do not run `swift build`; use the existing release binary
#       --bin PATH       use this isobar binary (implies --no-build)
#       --results FILE   where to write the JSON (default Benchmarks/results/deploy-<date>.json)
#
# Three deploys of one built site, each timed with /usr/bin/time -v and its --report:
#   first      an empty target: everything goes;
#   no-change  nothing changed: Isobar reads its own ledger and makes no connection;
#   changed    P % of the cities' data changed and the site rebuilt: their pages, JSON and
#              the site-wide files that list them go.
# Needs: python3, /usr/bin/time (apt: time), sshd and ssh-keygen (apt: openssh-server);
# runs as root (sshd logs the deploy in as the current user with a key made here).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
N=10000
CONCURRENCY=4
PERCENT=1
WORK=/tmp/isobar-bench
BUILD=1
BIN=""
RESULTS=""

usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
    case "$1" in
        -c|--concurrency) CONCURRENCY="$2"; shift 2 ;;
        -p|--percent) PERCENT="$2"; shift 2 ;;
        -w|--work) WORK="$2"; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        --bin) BIN="$2"; BUILD=0; shift 2 ;;
        --results) RESULTS="$2"; shift 2 ;;
        -h|--help) usage 0 ;;
        -*) echo "deploy.sh: unknown option $1" >&2; usage 64 ;;
        *) N="$1"; shift ;;
    esac
done
for tool in python3 /usr/bin/time /usr/sbin/sshd ssh-keygen; do
    command -v "$tool" >/dev/null || { echo "deploy.sh: $tool is needed (see the header)" >&2; exit 1; }
done

STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
[ -n "$RESULTS" ] || RESULTS="$HERE/results/deploy-$STAMP.json"
mkdir -p "$WORK" "$(dirname "$RESULTS")"
SCRATCH="$(mktemp -d "$WORK/deploy-$STAMP.XXXX")"

if [ "$BUILD" = 1 ]; then
    echo "== building isobar (swift build -c release --product isobar)"
    (cd "$REPO" && swift build -c release --product isobar) > "$SCRATCH/swift-build.log" 2>&1 \
        || { tail -n 30 "$SCRATCH/swift-build.log" >&2; exit 1; }
fi
[ -n "$BIN" ] || BIN="$REPO/.build/release/isobar"
[ -x "$BIN" ] || { echo "deploy.sh: no binary at $BIN (build it, or pass --bin)" >&2; exit 1; }

echo "== generating and building the $N-city site"
SITE="$SCRATCH/site"
python3 "$HERE/generate.py" --no-hugo --out "$SITE" "$N" | sed 's/^/   /'
(cd "$SITE" && "$BIN" build --quiet)
echo "   $(find "$SITE/_site" -type f ! -name '.*' | wc -l) files, $(du -sh --exclude='.*' "$SITE/_site" | cut -f1)"

# ---- sshd on a free loopback port, with keys made here ----------------------------------
SSHD="$SCRATCH/sshd"
mkdir -p "$SSHD" /run/sshd "$SCRATCH/remote"
ssh-keygen -q -t ed25519 -N "" -f "$SSHD/host_key"
ssh-keygen -q -t ed25519 -N "" -f "$SSHD/user_key"
cp "$SSHD/user_key.pub" "$SSHD/authorized_keys"
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
echo "[127.0.0.1]:$PORT $(cut -d' ' -f1-2 "$SSHD/host_key.pub")" > "$SSHD/known_hosts"
cat > "$SSHD/sshd_config" <<EOF
Port $PORT
ListenAddress 127.0.0.1
HostKey $SSHD/host_key
AuthorizedKeysFile $SSHD/authorized_keys
PasswordAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
MaxStartups 64
MaxSessions 64
Subsystem sftp internal-sftp
PidFile $SSHD/sshd.pid
EOF
/usr/sbin/sshd -f "$SSHD/sshd_config"
trap 'kill "$(cat "$SSHD/sshd.pid" 2>/dev/null)" 2>/dev/null || true' EXIT
cat >> "$SITE/isobar.yml" <<EOF
deploy:
  to: sftp://$(id -un)@127.0.0.1:$PORT$SCRATCH/remote/
  ssh_key: $SSHD/user_key
  known_hosts: $SSHD/known_hosts
  concurrency: $CONCURRENCY
EOF

measure() {  # name
    local name="$1"
    echo "== deploy: $name"
    (cd "$SITE" && /usr/bin/time -v -o "$SCRATCH/time-$name.txt" "$BIN" deploy --report "$SCRATCH/report-$name.json")
}

measure first
measure no-change
python3 - "$SITE" "$PERCENT" <<'EOF'
import json, os, sys
site, percent = sys.argv[1], float(sys.argv[2])
slugs = sorted(os.listdir(os.path.join(site, "Samples")))
step = max(1, round(100 / percent))
for slug in slugs[::step]:
    path = os.path.join(site, "Samples", slug, "onecall.json")
    with open(path) as f:
        body = json.load(f)
    body["current"]["temp"] = round(body["current"]["temp"] + 1.5, 2)
    with open(path, "w") as f:
        json.dump(body, f)
print(f"   changed {len(slugs[::step])} of {len(slugs)} cities")
EOF
(cd "$SITE" && "$BIN" build --quiet)
measure changed
cmp <(cd "$SITE/_site" && find . -type f ! -name '.*' -exec sha1sum {} + | sort -k2) \
    <(cd "$SCRATCH/remote" && find . -type f -exec sha1sum {} + | sort -k2) >/dev/null \
    && echo "== the server holds exactly the site" || { echo "deploy.sh: the server's files differ from the site" >&2; exit 1; }

python3 - "$SCRATCH" "$RESULTS" "$N" "$CONCURRENCY" "$PERCENT" "$(git -C "$REPO" rev-parse --short HEAD)" <<'EOF'
import json, sys
scratch, results, n, concurrency, percent, commit = sys.argv[1:7]
def time_v(path):
    out = {}
    for line in open(path):
        key, _, value = line.strip().rpartition(": ")
        if key == "Elapsed (wall clock) time (h:mm:ss or m:ss)":
            parts = [float(p) for p in value.split(":")]
            out["wall_s"] = round(sum(p * 60 ** i for i, p in enumerate(reversed(parts))), 3)
        elif key == "Maximum resident set size (kbytes)":
            out["max_rss_mib"] = round(int(value) / 1024, 1)
        elif key == "User time (seconds)":
            out["user_s"] = float(value)
    return out
runs = {}
for name in ["first", "no-change", "changed"]:
    deploy = json.load(open(f"{scratch}/report-{name}.json"))["deploy"]
    runs[name] = {k: deploy[k] for k in ["uploaded", "deleted", "unchanged", "bytes", "seconds"]} | time_v(f"{scratch}/time-{name}.txt")
first = runs["first"]["wall_s"]
for name in runs:
    runs[name]["of_first"] = round(runs[name]["wall_s"] / first, 4)
doc = {"benchmark": "deploy", "target": "sftp (OpenSSH sshd on 127.0.0.1)", "cities": int(n),
       "concurrency": int(concurrency), "changed_percent": float(percent), "commit": commit, "runs": runs}
json.dump(doc, open(results, "w"), indent=2)
print(f"{'deploy':<10} {'uploaded':>9} {'deleted':>8} {'MiB':>8} {'wall s':>8} {'RSS MiB':>8} {'of first':>9}")
for name, r in runs.items():
    print(f"{name:<10} {r['uploaded']:>9} {r['deleted']:>8} {r['bytes'] / 2**20:>8.1f} {r['wall_s']:>8.2f} {r['max_rss_mib']:>8.1f} {r['of_first']:>9.4f}")
print(f"results: {results}")
EOF
