#!/usr/bin/env bash
# The README's test command: runs every suite to its end, even when one fails — the Swift
# tests (`swift test`), the browser tests (Tests/browser/run.sh) and the install test
# (Tests/install/run.sh) — then prints a table of each suite's passed, failed and skipped
# tests and its time, and exits 1 if any failed. Each suite's whole output is kept in a
# log whose path the table gives; a failing suite's failures are printed below it.
#
#   Tests/run.sh            every suite
#   Tests/run.sh swift      one of them (swift, browser or install)
#   Tests/run.sh quick      the Swift tests without those that drive servers and the binary at
#                           length (deploys, signals, budgets, serve): unit tests and golden pages
set -uo pipefail
cd "$(dirname "$0")/.."

logs=$(mktemp -d "${TMPDIR:-/tmp}/isobar-tests.XXXXXX")
suites=("${@:-swift browser install}")
read -r -a suites <<< "${suites[*]}"
rows=()
failures=0
began=$(date +%s)

count() { grep -cE "$1" "$2" 2>/dev/null || true; }

# pytest's summary lines, summed over the script's several runs: "12 passed, 1 skipped in 3s".
pytest_count() {
  grep -E "^(=+ )?[0-9]+ (passed|failed|skipped|error)" "$2" 2>/dev/null \
    | grep -oE "[0-9]+ $1" | awk '{ sum += $1 } END { print sum + 0 }'
}

# The install test builds a release binary of its own (in .build-release), which nothing
# else uses: run beside the other suites, its compile fills the cores they leave idle
# (waiting for servers, timeouts and the browser). Its row comes in its place in the table.
background_install=""
if [ "${#suites[@]}" -gt 1 ] && [[ " ${suites[*]} " == *" install "* ]]; then
  echo "run.sh: install, beside the others (log: $logs/install.log)"
  (
    start=$(date +%s)
    Tests/install/run.sh >"$logs/install.log" 2>&1
    echo "$? $(( $(date +%s) - start ))" > "$logs/install.result"
  ) &
  background_install=$!
fi

for suite in "${suites[@]}"; do
  log="$logs/$suite.log"
  start=$(date +%s)
  if [ "$suite" = install ] && [ -n "$background_install" ]; then
    wait "$background_install"
    read -r status seconds < "$logs/install.result"
  else
    echo "run.sh: $suite (log: $log)"
    case "$suite" in
      # The build first, on its own: a warning from Isobar's own code fails the suite.
      swift) swift build --build-tests >"$log" 2>&1 && swift test --skip-build >>"$log" 2>&1 ;;
      quick) swift build --build-tests >"$log" 2>&1 && swift test --skip-build \
        --skip 'Deploy|Interruption|ServeTests|BudgetTests|FetchPoliteness|HistoryCrash|CronSafety|NormalsFetch|MapTiles|EndToEnd|ShareCard|Offline' >>"$log" 2>&1 ;;
      browser) Tests/browser/run.sh >"$log" 2>&1 ;;
      install) Tests/install/run.sh >"$log" 2>&1 ;;
      *) echo "run.sh: no suite \"$suite\" (swift, quick, browser or install)" >&2; exit 64 ;;
    esac
    status=$?
    seconds=$(( $(date +%s) - start ))
  fi
  case "$suite" in
    swift|quick)
      # Swift Testing's own count of tests (a parameterized one counts once), less the
      # failed and the skipped ones.
      total=$(grep -oE 'Test run with [0-9]+ tests' "$log" | tail -1 | grep -oE '[0-9]+' || echo 0)
      failed=$(( $(count '^✘ Test .* failed after' "$log") - $(count '^✘ Test run with' "$log") ))
      skipped=$(count '^➜ Test .* skipped' "$log")
      passed=$(( ${total:-0} - failed - skipped ))
      ;;
    browser)
      passed=$(pytest_count passed "$log")
      failed=$(( $(pytest_count failed "$log") + $(pytest_count error "$log") ))
      skipped=$(pytest_count skipped "$log")
      ;;
    install)
      if [ "$status" -eq 0 ]; then passed=1 failed=0; else passed=0 failed=1; fi
      skipped=0
      ;;
  esac
  if [ "$suite" = swift ] || [ "$suite" = quick ]; then
    warnings=$(grep -E '^/.*: warning: |^warning: ' "$log" | sort -u | wc -l)
    if [ "$warnings" -gt 0 ]; then
      echo "run.sh: the build printed $warnings warning(s); the build of Isobar prints none:" >&2
      grep -E '^/.*: warning: |^warning: ' "$log" | sort -u | head -20 >&2
      failed=$(( failed + 1 ))
    fi
  fi
  # A suite that failed without a failing test (it did not build, a script stopped) fails too.
  if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
  [ "$failed" -gt 0 ] && failures=$(( failures + 1 ))
  rows+=("$suite|$passed|$failed|$skipped|$seconds|$status|$log")
done

echo
printf '%-8s %7s %7s %8s %8s  %s\n' suite passed failed skipped seconds log
for row in "${rows[@]}"; do
  IFS='|' read -r suite passed failed skipped seconds status log <<< "$row"
  printf '%-8s %7s %7s %8s %8s  %s\n' "$suite" "$passed" "$failed" "$skipped" "$seconds" "$log"
done
echo "run.sh: $(( $(date +%s) - began )) s in all"
for row in "${rows[@]}"; do
  IFS='|' read -r suite passed failed skipped seconds status log <<< "$row"
  [ "$failed" -gt 0 ] || continue
  echo
  echo "run.sh: $suite failed (exit $status); its failures:"
  case "$suite" in
    swift|quick) grep -E '^✘ Test .*(recorded an issue|failed after)' "$log" | grep -v '^✘ Test run with' | head -40 ;;
    browser) grep -E '^(FAILED|ERROR) |Error|error:' "$log" | head -40 ;;
    *) tail -20 "$log" ;;
  esac
done
[ "$failures" -eq 0 ]
